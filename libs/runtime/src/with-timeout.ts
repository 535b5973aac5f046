/**
 * `promise`, or a rejection with `Error(message)` once `ms` passed. The timer is cleared either
 * way, and a late rejection of `promise` after the timeout is not left unhandled.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  message = `timed out after ${ms} ms`,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => undefined);
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
  ]).finally(() => clearTimeout(timer));
}
