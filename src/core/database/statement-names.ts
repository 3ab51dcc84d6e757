import { hash } from 'node:crypto';

/**
 * Names for the statements worth preparing: a statement text sent `after` times gets a name, so
 * that each connection parses and plans it once (`pg` sends Parse only the first time a
 * connection sees a name) instead of on every request. A single-record write is one statement of
 * data-modifying CTEs of ~6-10 kB: parsing and planning it costs PostgreSQL more than running it
 * (create one: 1.5-1.9 ms unnamed against 0.7 ms named). Each prepared statement holds ~0.4 MB in
 * every backend that ran it, so at most `max` texts get a name (the first that become hot);
 * others keep being sent unnamed. Only for statements whose plan does not depend on their values
 * (writes by id): a generic plan serves them all.
 */
export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly max = 32,
    private readonly after = 3,
    /** Texts counted at most, before the counts start again (texts seen once are the many). */
    private readonly tracked = 1000,
  ) {}

  /** The name of `text`, or undefined while it is not (or cannot become) a prepared statement. */
  nameOf(text: string): string | undefined {
    const name = this.named.get(text);
    if (name !== undefined || this.named.size >= this.max) return name;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < this.after) {
      if (this.seen.size >= this.tracked) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const created = `w_${hash('sha1', text, 'hex').slice(0, 16)}`;
    this.named.set(text, created);
    return created;
  }
}
