import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UnsupportedMediaTypeException } from '@nestjs/common';
import { Observable } from 'rxjs';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/** A request that carries a body must say it is JSON (415 otherwise); empty bodies need no type. */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { headers } = context.switchToHttp().getRequest();
    const length = Number(headers['content-length'] ?? 0);
    const hasBody = length > 0 || headers['transfer-encoding'] !== undefined;
    if (hasBody && !JSON_TYPE.test(String(headers['content-type'] ?? ''))) {
      throw new UnsupportedMediaTypeException('Body must be application/json');
    }
    return next.handle();
  }
}
