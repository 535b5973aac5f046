import { IsInt, IsString, Matches, Max, Min } from 'class-validator';

/**
 * Liveness of the Kafka services, over Kafka only (services and the gateway never address each
 * other directly; in Kubernetes the gateway cannot know the services' pod addresses).
 *
 * - `service.heartbeats` (gateway and operators ← every instance of the four Kafka services):
 *   `service.heartbeat`, keyed by `<service>/<instanceId>`. An instance sends one every
 *   `intervalMs` while it is ready (consumer in its group, database answering), and none otherwise.
 */
export const ServiceHeartbeatTypes = {
  heartbeat: 'service.heartbeat',
} as const;

/** The services that send heartbeats: the gateway reports each of them in GET /health. */
export const HEARTBEAT_SERVICES = [
  'quote-service',
  'execution-planner',
  'signer-surface',
  'limit-order-service',
] as const;
export type HeartbeatService = (typeof HEARTBEAT_SERVICES)[number];

/** Bounds of an instance's heartbeat interval (HEARTBEAT_INTERVAL_MS of the services). */
export const HEARTBEAT_INTERVAL_BOUNDS = { min: 100, max: 60_000, default: 5_000 } as const;

/** Kafka key of one instance's heartbeats. */
export const heartbeatKeyOf = (service: string, instanceId: string): string => `${service}/${instanceId}`;

/** `service.heartbeat`: "this instance is alive and ready, and says so again within intervalMs". */
export class ServiceHeartbeat {
  /** The app name (its Kafka client id and consumer group), e.g. `execution-planner`. */
  @IsString()
  @Matches(/^[a-z0-9-]{1,64}$/)
  service!: string;

  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/)
  instanceId!: string;

  @IsInt()
  @Min(HEARTBEAT_INTERVAL_BOUNDS.min)
  @Max(HEARTBEAT_INTERVAL_BOUNDS.max)
  intervalMs!: number;
}
