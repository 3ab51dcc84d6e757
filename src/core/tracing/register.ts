import { tracingStarted } from './tracing';

/**
 * Imported first of all by main.ts: with OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, starts the OpenTelemetry SDK (sdk.ts) before `http`,
 * `pg` and `ioredis` are loaded, so that its instrumentations wrap them. The one module with an
 * effect on import, on purpose: it must run before any other is loaded. Without the variable
 * (or with OTEL_SDK_DISABLED=true) nothing of the SDK is loaded at all.
 */
export function tracingConfigured(env: Record<string, string | undefined>): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true';
}

if (tracingConfigured(process.env)) {
  // required here, not imported above: without tracing the SDK is never loaded
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startSdk } = require('./sdk') as typeof import('./sdk');
  tracingStarted(startSdk(process.env));
}
