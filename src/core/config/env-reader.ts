/** The process environment, or any map of variable names to values (tests). */
export type Env = Record<string, string | undefined>;

/** Reads typed settings from the environment and collects every problem, so one error can list them all. */
export class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  }

  optional(name: string): string | undefined {
    const raw = this.env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  }

  int(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got '${raw}')`);
    return fallback;
  }

  /** A size such as `10mb`, `512kb` or `1048576`, in bytes, at least `min`; `example` names a valid one. */
  size(name: string, fallback: string, min: number, example: string): number {
    const raw = this.string(name, fallback);
    const bytes = parseByteSize(raw);
    if (bytes !== undefined && bytes >= min) return bytes;
    this.problems.push(`${name} must be a size such as ${example} (got '${raw}')`);
    return parseByteSize(fallback) ?? min;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got '${raw}')`);
      return fallback;
    }
    return raw as T;
  }
}

/** Parses a size such as `10mb`, `512kb` or `1048576` into bytes. */
export function parseByteSize(raw: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit as 'b'];
  return Number(match[1]) * factor;
}
