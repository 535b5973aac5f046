/**
 * Work a service does once at start, before its consumer starts and before /health/ready answers
 * 200, so that its first requests find loaded what they need (issue 44: "ready means ready"):
 * chain clients built, each chain's head and Multicall3 presence read, the hot paths run once.
 * A warm-up only loads what first use would load anyway: whether it finished, failed or ran out of
 * time, the service carries on exactly as it would without it (first use loads what is missing).
 */
export interface StartupWarmup {
  /** What it warms, in the start log ("chains", "signer chains"). */
  readonly warmupName: string;
  warmUp(): Promise<unknown>;
}

/**
 * The Nest token under which an app lists its warm-ups (an array of StartupWarmup);
 * bootstrapKafkaService runs them all. An app without one has nothing to warm.
 */
export const STARTUP_WARMUPS = Symbol.for('swapgw.startupWarmups');

/**
 * How long the warm-ups of one start may take together. A chain that does not answer must not
 * keep a service unready forever: past the bound the service reports ready and the warm-ups left
 * finish (or fail) in the background, as first use would have. Each RPC call is bounded by the
 * app's RPC_TIMEOUT_MS too (5 to 10 s by default) and a chain's reads run at once, so 15 s leaves
 * room for a slow chain without hiding a dead one for long.
 */
export const STARTUP_WARMUP_TIMEOUT_MS = 15_000;

export type StartupWarmupOutcome = 'done' | 'failed' | 'timed out';

export interface StartupWarmupResult {
  name: string;
  outcome: StartupWarmupOutcome;
  ms: number;
  error?: string;
}

/**
 * Runs every warm-up at once and settles when each finished, failed or ran past `timeoutMs`
 * (measured from the start of all of them). Never rejects: a warm-up's failure is reported in its
 * result, and `log` gets each result as it settles.
 */
export async function runStartupWarmups(
  warmups: readonly StartupWarmup[],
  timeoutMs = STARTUP_WARMUP_TIMEOUT_MS,
  log: (result: StartupWarmupResult) => void = () => undefined,
): Promise<StartupWarmupResult[]> {
  const startedAt = Date.now();
  return Promise.all(
    warmups.map(async (warmup) => {
      const settled = (outcome: StartupWarmupOutcome, error?: unknown): StartupWarmupResult => ({
        name: warmup.warmupName,
        outcome,
        ms: Date.now() - startedAt,
        ...(error !== undefined ? { error: (error as Error)?.message ?? String(error) } : {}),
      });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<StartupWarmupResult>((resolve) => {
        timer = setTimeout(
          () => resolve(settled('timed out', new Error(`still running after ${timeoutMs} ms`))),
          timeoutMs,
        );
      });
      const finished = Promise.resolve()
        .then(() => warmup.warmUp())
        .then(
          () => settled('done'),
          (error: unknown) => settled('failed', error),
        );
      const result = await Promise.race([finished, timedOut]).finally(() => clearTimeout(timer));
      log(result);
      return result;
    }),
  );
}
