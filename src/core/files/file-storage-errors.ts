/** No stored object has this key (a download answers 404). */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** The range starts at or past the end of the object (a download answers 416). */
export class RangeNotSatisfiableError extends Error {
  constructor(
    readonly key: string,
    readonly start: number,
  ) {
    super(`byte ${start} is past the end of stored object ${key}`);
    this.name = 'RangeNotSatisfiableError';
  }
}

/** A key that `newObjectKey()` did not make: refused before any file or request (a bug, never client input). */
export class InvalidObjectKeyError extends Error {
  constructor(key: string) {
    super(`invalid object key ${JSON.stringify(key.slice(0, 100))}: keys come from newObjectKey()`);
    this.name = 'InvalidObjectKeyError';
  }
}
