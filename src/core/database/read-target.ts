import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where the reads of the current request go (a replica's reads, API.md section 19), held for the
 * request's whole asynchronous run: set by the HTTP edge around a read route's handler, read by
 * `Db.forReads()`. Its own file: db.ts and replicas.ts both use it.
 */
const target = new AsyncLocalStorage<object>();

/** Runs `work` with its reads sent to `reads`. */
export function withReadTarget<R>(reads: object, work: () => R): R {
  return target.run(reads, work);
}

/** The read target of the current request, if the edge gave it one. */
export function currentReadTarget<T extends object>(): T | undefined {
  return target.getStore() as T | undefined;
}
