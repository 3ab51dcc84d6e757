import { Injectable } from '@nestjs/common';
import { writeProblems } from '../access/field-access';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';
import { badRequest } from '../validation/record-body';

/** A check of a collection's records beyond their fields' declarations: the messages of its problems. */
export type RecordCheck = (record: Row) => string[];

/**
 * What a write body must pass besides its DTO: the key may write every field it sets (API.md
 * section 14), and the collection's own checks, registered by its module (a role's grants).
 * Every write path runs it: REST bodies, upserts, MCP tools.
 */
@Injectable()
export class RecordChecks {
  private readonly checks = new Map<string, RecordCheck>();

  register(plural: string, check: RecordCheck): void {
    this.checks.set(plural, check);
  }

  /** 400 naming every problem of the records (`[i] ` before each message of a list). */
  check(meta: CollectionMeta, records: Row[], access: Access, indexed: boolean): void {
    const check = this.checks.get(meta.plural);
    const messages = records.flatMap((record, i) => {
      const prefix = indexed ? `[${i}] ` : '';
      const own = check ? check(record).map((m) => prefix + m) : [];
      return [...writeProblems(access, meta.plural, record, prefix), ...own];
    });
    if (messages.length) throw badRequest(messages);
  }
}
