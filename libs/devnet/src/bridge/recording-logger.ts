import { RelayerLogger } from './bridge-relayer';

/** A relayer logger that keeps every line, for tests to read what the relayer said. */
export class RecordingLogger implements RelayerLogger {
  readonly lines: { level: 'log' | 'warn' | 'error'; message: Record<string, unknown> }[] = [];
  log(message: unknown) {
    this.lines.push({ level: 'log', message: message as Record<string, unknown> });
  }
  warn(message: unknown) {
    this.lines.push({ level: 'warn', message: message as Record<string, unknown> });
  }
  error(message: unknown) {
    this.lines.push({ level: 'error', message: message as Record<string, unknown> });
  }
}
