import { Column, CreateDateColumn, Entity, Index, ManyToOne, JoinColumn, PrimaryGeneratedColumn } from 'typeorm';
import { webhooks } from './webhook.entity';

/**
 * The transactional outbox of webhook deliveries: one row per (event, matching webhook), inserted
 * in the transaction of the change. Its id is the stable delivery id sent to receivers.
 * `status` is `pending` until delivered (`delivered`) or given up after the whole retry schedule
 * or a non-retryable answer (`failed`, kept with its last error). `traceParent`: the trace
 * context of the write (API.md section 20), NULL with tracing off.
 */
@Entity('webhookDelivery')
@Index('IDX_webhookDelivery_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) webhookId!: string;
  @ManyToOne(() => webhooks.entity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhookId' })
  webhook?: unknown;
  @Column({ type: 'text' }) eventName!: string;
  @Column({ type: 'jsonb' }) payload!: unknown;
  @Column({ type: 'text', default: 'pending' }) status!: string;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'timestamp with time zone', default: () => 'now()' }) nextAttemptAt!: Date;
  @Column({ type: 'integer', nullable: true }) lastStatus!: number | null;
  @Column({ type: 'text', nullable: true }) lastError!: string | null;
  @Column({ type: 'timestamp with time zone', nullable: true }) deliveredAt!: Date | null;
  /** The W3C traceparent of the write that enqueued it (tracing on), continued by the delivery. */
  @Column({ type: 'text', nullable: true }) traceParent!: string | null;
  @CreateDateColumn({ type: 'timestamp with time zone' }) createdAt!: Date;
}
