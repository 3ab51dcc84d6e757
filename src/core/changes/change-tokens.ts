/**
 * Change-feed tokens (API.md section 15): an opaque string for a feed position, base64url of
 * `c<position>`. Decoding is strict: anything that is not exactly the encoding of a position is
 * refused (the caller answers 400 `Invalid since token`).
 */
export function tokenOf(pos: number): string {
  return Buffer.from(`c${pos}`).toString('base64url');
}

/** The position of a token, or undefined when it is not one this service hands out. */
export function positionOf(token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{2,24}$/.test(token)) return undefined;
  const match = /^c(0|[1-9][0-9]{0,14})$/.exec(Buffer.from(token, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const pos = Number(match[1]);
  return tokenOf(pos) === token ? pos : undefined;
}
