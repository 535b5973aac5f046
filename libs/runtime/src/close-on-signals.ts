/** The two calls closeOnSignals logs with: a JsonLogger (with a context) or Nest's Logger. */
export interface ShutdownLogger {
  log(message: object, context?: string): void;
  error(message: object, context?: string): void;
}

export interface ProcessShutdown {
  /** Runs `close` (once, whatever asks first), then exits with `exitCode` (1 if close failed). */
  shutDown(reason: string, exitCode?: number): void;
  /** No longer listens to the signals: for a `close` called otherwise (tests, an in-process stop). */
  unsubscribe(): void;
}

/**
 * SIGTERM / SIGINT run `close` once, then exit: 0 when it resolved, 1 when it failed or, with
 * `timeoutMs`, took longer than that.
 */
export function closeOnSignals(
  close: () => Promise<void>,
  logger: ShutdownLogger,
  options: { timeoutMs?: number; context?: string } = {},
): ProcessShutdown {
  const { timeoutMs, context } = options;
  const say = (level: 'log' | 'error', message: object): void =>
    context === undefined ? logger[level](message) : logger[level](message, context);
  let closing = false;
  const shutDown = (signal: string, exitCode = 0): void => {
    if (closing) return;
    closing = true;
    say('log', { msg: 'shutting down', signal });
    if (timeoutMs !== undefined) {
      setTimeout(() => {
        say('error', { msg: 'forced exit: shutdown took too long', timeoutMs });
        process.exit(1);
      }, timeoutMs).unref();
    }
    close().then(
      () => process.exit(exitCode),
      (error: Error) => {
        say('error', { msg: 'error during shutdown', error: error.message });
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals): void => shutDown(signal);
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  for (const signal of signals) process.once(signal, onSignal);
  return {
    shutDown,
    unsubscribe: () => {
      for (const signal of signals) process.removeListener(signal, onSignal);
    },
  };
}
