import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The outbox of stored files to remove: one row per hard-deleted attachment that had a file,
 * inserted in the transaction of the delete (file-deletion-outbox.subscriber.ts). The file
 * deleter removes the object once the row is visible (after commit), then the row; a failed
 * removal is retried later (`nextAttemptAt`), until done.
 */
@Entity('fileDeletion')
@Index('IDX_fileDeletion_due', ['nextAttemptAt'])
export class FileDeletionEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) objectKey!: string;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'timestamp with time zone', default: () => 'now()' }) nextAttemptAt!: Date;
  @Column({ type: 'text', nullable: true }) lastError!: string | null;
  @CreateDateColumn({ type: 'timestamp with time zone' }) createdAt!: Date;
}
