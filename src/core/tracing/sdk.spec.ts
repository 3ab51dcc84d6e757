import { context, propagation, Span, TraceFlags, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { skipUnsampledStatements, urlWithoutQuery } from './sdk';

describe('urlWithoutQuery (the url.full of a webhook POST span)', () => {
  it('drops the query string, which may hold a token', () => {
    expect(urlWithoutQuery({ protocol: 'https:', hostname: 'hooks.example.com', path: '/in?token=secret' })).toEqual({
      'url.full': 'https://hooks.example.com/in',
    });
  });

  it('puts an IPv6 address in brackets, with its port after them', () => {
    expect(urlWithoutQuery({ hostname: '::1', port: 8080, path: '/hook?x=1' })).toEqual({
      'url.full': 'http://[::1]:8080/hook',
    });
    expect(urlWithoutQuery({ hostname: '[::1]', port: 8080, path: '/hook' })).toEqual({
      'url.full': 'http://[::1]:8080/hook',
    });
  });

  it('defaults to localhost and /', () => {
    expect(urlWithoutQuery({})).toEqual({ 'url.full': 'http://localhost/' });
  });
});

describe('skipUnsampledStatements (the statements of a request that is not recorded)', () => {
  // the SDK's context manager (AsyncLocalStorage), as the service registers it
  beforeAll(() => new NodeTracerProvider().register());
  afterAll(() => {
    context.disable();
    trace.disable();
    propagation.disable();
  });

  /** What the instrumented `query` sees as its parent span, through the wrapper. */
  function parentSeen(span: Span | undefined): Span | undefined {
    let seen: Span | undefined;
    const client = {
      prototype: {
        query(this: unknown): unknown {
          seen = trace.getSpan(context.active());
          return 'result';
        },
      },
    };
    skipUnsampledStatements(client);
    const run = () => expect(client.prototype.query.call({})).toBe('result');
    if (span) context.with(trace.setSpan(context.active(), span), run);
    else run();
    return seen;
  }

  const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

  it('sends it without the span when the span is not recorded (the pg instrumentation then skips it)', () => {
    expect(parentSeen(trace.wrapSpanContext({ ...spanContext, traceFlags: TraceFlags.NONE }))).toBeUndefined();
  });

  it('keeps a recorded span as the parent of the statement', () => {
    const recorded = {
      ...trace.wrapSpanContext({ ...spanContext, traceFlags: TraceFlags.SAMPLED }),
      isRecording: () => true,
    };
    expect(parentSeen(recorded)).toBe(recorded);
  });

  it('leaves a statement outside any trace alone', () => {
    expect(parentSeen(undefined)).toBeUndefined();
  });
});
