import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Sets one header on the current response. */
export type SetHeader = (name: string, value: string) => void;

/**
 * Injects a function that sets response headers, whatever the HTTP adapter: Express responses and
 * Fastify replies both have `header(name, value)`. Controllers never see the adapter's objects.
 */
export const ResponseHeaders = createParamDecorator((_: unknown, ctx: ExecutionContext): SetHeader => {
  const response = ctx.switchToHttp().getResponse<{ header(name: string, value: string): unknown }>();
  return (name, value) => void response.header(name, value);
});
