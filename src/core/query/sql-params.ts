/** Collects the bound parameters of one statement and hands out their placeholders (`$1`, `$2`...). */
export class SqlParams {
  readonly values: unknown[] = [];
  constructor(private readonly offset = 0) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }
}
