import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CollectionCatalog } from '../model/collection-catalog';
import { QueryError } from '../errors/query-error';
import { constraintMessage } from '../database/constraint-messages';
import {
  constraintViolation,
  isBadInputError,
  isOutsideRowsError,
  isUnavailableError,
  PgError,
} from '../database/db-errors';
import { ERROR_NAMES, ErrorEnvelope, TooManyRequestsException, UnauthenticatedException } from '../errors/error-names';

interface Classified {
  status: number;
  messages: string[];
  headers?: Record<string, string>;
}

function messagesOf(exception: HttpException): string[] {
  const response = exception.getResponse();
  if (typeof response === 'string') return [response];
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String);
  if (typeof message === 'string') return [message];
  return [exception.message];
}

/** Errors raised by the HTTP layer's body parsers (Express body-parser or Fastify). */
function parserError(error: {
  type?: string;
  code?: string;
  status?: number;
  statusCode?: number;
}): Classified | undefined {
  const kind = error.type ?? error.code;
  switch (kind) {
    case 'entity.parse.failed':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, messages: ['Body is not valid JSON'] };
    case 'entity.too.large':
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, messages: ['Body is larger than the limit of this server'] };
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, messages: ['Body must be application/json in UTF-8'] };
    case 'request.aborted':
      return { status: 400, messages: ['Request aborted'] };
  }
  const status = error.status ?? error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, messages: [ERROR_NAMES[status] ?? 'Bad request'] };
  return undefined;
}

/**
 * The single exception filter: every error leaves as `{statusCode, error, messages}`.
 * Known failures map to 4xx / 503; anything else is logged and answered with a generic 500,
 * so no SQL, stack trace, path or secret ever reaches a client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly catalog: CollectionCatalog,
  ) {}

  classify(exception: unknown, requestId?: string): Classified {
    const tag = requestId ? ` [request ${requestId}]` : '';
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const classified: Classified = { status, messages: messagesOf(exception) };
      if (exception instanceof UnauthenticatedException) classified.headers = { 'WWW-Authenticate': 'Bearer' };
      if (exception instanceof TooManyRequestsException) {
        classified.headers = { 'Retry-After': String(exception.retryAfterSeconds) };
      }
      if (status >= 500) this.logger.error(`${exception.message}${tag}`, exception.stack);
      return classified;
    }
    if (exception instanceof QueryError) return { status: 400, messages: [exception.message] };
    const error = (exception ?? {}) as PgError & { type?: string };
    // a write whose result would leave the key's rows (the statement's fence, API.md section 14)
    if (isOutsideRowsError(error)) return { status: 403, messages: [error.message!] };
    const parser = parserError(error as never);
    if (parser) return parser;
    const violation = constraintViolation(error);
    if (violation) return { status: 400, messages: [constraintMessage(violation, this.catalog)] };
    if (isBadInputError(error))
      return { status: 400, messages: ['A value cannot be stored: it is out of range or malformed'] };
    if (isUnavailableError(error)) {
      this.logger.warn(`database unavailable: ${error.message}${tag}`);
      return { status: 503, messages: ['The database is unavailable; retry later'], headers: { 'Retry-After': '5' } };
    }
    this.logger.error(`${error.message ?? String(exception)}${tag}`, error.stack);
    return { status: 500, messages: ['Internal server error'] };
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const { httpAdapter } = this.adapterHost;
    const http = host.switchToHttp();
    const response = http.getResponse();
    const request = http.getRequest<{ requestId?: string; raw?: { requestId?: string } }>();
    const { status, messages, headers } = this.classify(exception, request?.requestId ?? request?.raw?.requestId);
    const body: ErrorEnvelope = {
      statusCode: status,
      error: ERROR_NAMES[status] ?? `Http${status}Exception`,
      messages,
    };
    for (const [name, value] of Object.entries(headers ?? {})) httpAdapter.setHeader(response, name, value);
    httpAdapter.reply(response, body, status);
  }
}
