/**
 * kafkajs 2.2.4 (the last release) sometimes arms a timer with a negative delay (its request queue,
 * tulios/kafkajs#1751). Node has always run such a timer after 1 ms, which is what kafkajs needs;
 * since Node 24 it also prints a TimeoutNegativeWarning, which reads like a fault in every app's
 * log. This drops that one warning when kafkajs raised it, and passes every other warning on.
 */
let installed = false;

export function dropKafkajsNegativeTimeoutWarnings(): void {
  if (installed) return;
  installed = true;
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const name = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (
      (name === 'TimeoutNegativeWarning' || (warning as Error)?.name === 'TimeoutNegativeWarning') &&
      raisedByKafkajs()
    )
      return;
    emitWarning(warning, ...rest);
  }) as typeof process.emitWarning;
}

const raisedByKafkajs = (): boolean => /[\\/]kafkajs[\\/]/.test(new Error().stack ?? '');
