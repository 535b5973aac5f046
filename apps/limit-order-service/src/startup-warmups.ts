import { Module } from '@nestjs/common';
import { STARTUP_WARMUPS, StartupWarmup } from '@swapgw/runtime';

/**
 * What limit-order-service loads before it reports ready (bootstrapKafkaService runs
 * STARTUP_WARMUPS before the consumer starts): nothing of its own. It reads no chain: its watcher
 * asks quote-service, which warms its chains itself. Listed empty, as every service lists its
 * warm-ups, so that the start does not look for a provider that is not there.
 */
@Module({
  providers: [{ provide: STARTUP_WARMUPS, useValue: [] satisfies StartupWarmup[] }],
  exports: [STARTUP_WARMUPS],
})
export class LimitOrderServiceWarmupModule {}
