import { IsInt, IsNotEmpty, IsString, Max, Min } from 'class-validator';
import { HEARTBEAT_INTERVAL_BOUNDS } from '@swapgw/contracts';
import { MessagingEnvironment } from './messaging-environment';

/**
 * The variables every Kafka service reads besides its own (what bootstrapKafkaService uses): its
 * health port and how often it sends heartbeats, and the messaging tables' retention. Each app's config class extends it and sets its
 * own HEALTH_PORT default (`override HEALTH_PORT = 3101;`).
 */
export abstract class KafkaServiceEnvironment extends MessagingEnvironment {
  @IsInt()
  @Min(0)
  @Max(65535)
  HEALTH_PORT!: number;

  /** Address the health server listens on. */
  @IsString()
  @IsNotEmpty()
  HEALTH_HOST: string = '0.0.0.0';

  /**
   * How often each instance publishes its heartbeat on `service.heartbeats` while it is ready: the
   * gateway's GET /health reads them.
   */
  @IsInt()
  @Min(HEARTBEAT_INTERVAL_BOUNDS.min)
  @Max(HEARTBEAT_INTERVAL_BOUNDS.max)
  HEARTBEAT_INTERVAL_MS: number = HEARTBEAT_INTERVAL_BOUNDS.default;
}
