import { HEARTBEAT_INTERVAL_BOUNDS } from '@swapgw/contracts';

/**
 * HEARTBEAT_INTERVAL_MS of a Kafka service: how often each instance says it is alive and ready.
 * The services' config classes validate it at boot (a bad value exits 78 naming it) and
 * bootstrapKafkaService takes it from the config; this parses a raw value with the same bounds,
 * for tools and tests without a config.
 */
export function heartbeatIntervalFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.HEARTBEAT_INTERVAL_MS;
  if (raw === undefined || raw === '') return HEARTBEAT_INTERVAL_BOUNDS.default;
  const value = Number(raw);
  if (
    !Number.isInteger(value) ||
    value < HEARTBEAT_INTERVAL_BOUNDS.min ||
    value > HEARTBEAT_INTERVAL_BOUNDS.max
  ) {
    throw new Error(
      `HEARTBEAT_INTERVAL_MS must be an integer from ${HEARTBEAT_INTERVAL_BOUNDS.min} to ${HEARTBEAT_INTERVAL_BOUNDS.max}, got ${raw}`,
    );
  }
  return value;
}
