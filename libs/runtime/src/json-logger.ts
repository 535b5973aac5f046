import { LoggerService, LogLevel } from '@nestjs/common';
import { redact, redactString } from './log-redaction';
import { currentRequestContext, spanIdOf, traceIdOf } from './request-context';

const LEVEL_ORDER: Record<LogLevel, number> = {
  verbose: 10,
  debug: 20,
  log: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/**
 * Nest logger that writes one JSON object per line to stdout, with the service name and, inside a
 * request or message, its requestId and the trace_id and span_id of its span (the OpenTelemetry log
 * data model's names, so that a collector or log store links the line to its trace). Secrets are
 * masked on the way out (log-redaction.ts).
 */
export class JsonLogger implements LoggerService {
  private readonly minLevel: number;

  constructor(
    private readonly service: string,
    level: LogLevel = 'log',
  ) {
    this.minLevel = LEVEL_ORDER[level] ?? LEVEL_ORDER.log;
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (LEVEL_ORDER[level] < this.minLevel) return;
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const ctx = currentRequestContext();
    const line: Record<string, unknown> = {
      level: level === 'log' ? 'info' : level,
      time: new Date().toISOString(),
      service: this.service,
      context,
      requestId: ctx?.requestId,
      trace_id: traceIdOf(ctx?.traceparent),
      span_id: spanIdOf(ctx?.traceparent),
    };
    if (message instanceof Error) {
      line.msg = redactString(message.message);
      line.stack = message.stack && redactString(message.stack);
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(line, redact(message));
    } else {
      line.msg = redactString(String(message));
    }
    const extra = rest.filter((r) => r !== undefined);
    if (extra.length > 0) line.detail = extra.map((r) => redact(r instanceof Error ? r.stack : r));
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}
