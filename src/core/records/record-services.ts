import { Injectable } from '@nestjs/common';
import { RecordBulkWrites } from './bulk-writes';
import { RecordDuplicates } from './record-duplicates';
import { RecordGroups } from './record-groups';
import { RecordMerges } from './record-merges';
import { RecordReads } from './record-reads';
import { RecordUpserts } from './record-upserts';
import { RecordWrites } from './record-writes';

/** The services behind a collection's routes, injected into its controller as one. */
@Injectable()
export class RecordServices {
  constructor(
    readonly reads: RecordReads,
    readonly writes: RecordWrites,
    readonly duplicates: RecordDuplicates,
    readonly upserts: RecordUpserts,
    readonly bulk: RecordBulkWrites,
    readonly merges: RecordMerges,
    readonly groups: RecordGroups,
  ) {}
}
