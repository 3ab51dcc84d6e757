/**
 * A malformed query parameter. Parsers are pure and throw this; the HTTP layer turns it into
 * a 400 BadRequestException with `message` as the only entry of `messages`.
 */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}
