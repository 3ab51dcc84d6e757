import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Remembered answers of create requests sent with an `Idempotency-Key` header, per API key.
 * A row is written in the transaction of the create it answers, so it exists exactly when the
 * records do. `response` is `json` (not jsonb) so a replay returns the original body byte for byte.
 */
@Entity('idempotencyKey')
@Index('IDX_idempotencyKey_createdAt', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'uuid' }) apiKeyId!: string;
  @PrimaryColumn({ type: 'text' }) key!: string;
  /** SHA-256 of the route, query and body of the first request. */
  @Column({ type: 'text' }) fingerprint!: string;
  @Column({ type: 'integer' }) status!: number;
  @Column({ type: 'json' }) response!: unknown;
  @Column({ type: 'timestamp with time zone', default: () => 'now()' }) createdAt!: Date;
}
