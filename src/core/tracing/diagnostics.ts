import { diag, DiagLogger, DiagLogLevel } from '@opentelemetry/api';

/** OpenTelemetry's own warnings and errors (a collector that cannot be reached) as JSON log lines on stderr. */
function diagnostics(): DiagLogger {
  const line =
    (level: number) =>
    (message: string, ...args: unknown[]) =>
      process.stderr.write(
        `${JSON.stringify({ level, time: Date.now(), service: 'crm-record-service', context: 'OpenTelemetry', msg: [message, ...args.map(String)].join(' ') })}\n`,
      );
  return { error: line(50), warn: line(40), info: line(30), debug: line(20), verbose: line(10) };
}

const LOG_LEVELS: Record<string, DiagLogLevel> = {
  NONE: DiagLogLevel.NONE,
  ERROR: DiagLogLevel.ERROR,
  WARN: DiagLogLevel.WARN,
  INFO: DiagLogLevel.INFO,
  DEBUG: DiagLogLevel.DEBUG,
  VERBOSE: DiagLogLevel.VERBOSE,
  ALL: DiagLogLevel.ALL,
};

/** Sends OpenTelemetry's diagnostics to stderr at OTEL_LOG_LEVEL (default WARN), in this thread. */
export function logDiagnostics(env: Record<string, string | undefined>): void {
  diag.setLogger(diagnostics(), LOG_LEVELS[(env.OTEL_LOG_LEVEL ?? 'WARN').toUpperCase()] ?? DiagLogLevel.WARN);
}
