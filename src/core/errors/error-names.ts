import { HttpException, HttpStatus } from '@nestjs/common';

/** The `error` name of the envelope for each status (API.md section 7). */
export const ERROR_NAMES: Record<number, string> = {
  400: 'BadRequestException',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NotFoundException',
  405: 'MethodNotAllowedException',
  406: 'NotAcceptableException',
  408: 'RequestTimeoutException',
  409: 'ConflictException',
  410: 'GONE',
  411: 'LengthRequiredException',
  412: 'PreconditionFailedException',
  413: 'PayloadTooLargeException',
  414: 'UriTooLongException',
  415: 'UnsupportedMediaTypeException',
  416: 'RangeNotSatisfiableException',
  422: 'UnprocessableEntityException',
  428: 'PreconditionRequiredException',
  429: 'TooManyRequestsException',
  431: 'RequestHeaderFieldsTooLargeException',
  500: 'InternalServerErrorException',
  501: 'NotImplementedException',
  503: 'ServiceUnavailableException',
  504: 'GatewayTimeoutException',
};

/** The error envelope every failing request answers with. */
export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  messages: string[];
}

/** 401 for every authentication failure; the filter adds `WWW-Authenticate: Bearer`. */
export class UnauthenticatedException extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.UNAUTHORIZED);
  }
}

export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
