import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PgChannelListener } from '@swapgw/persistence';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway.config';
import { nextAttemptAtMs, RetrySchedule } from './retry-schedule';
import {
  ClaimedDelivery,
  WEBHOOK_DELIVERIES_CHANNEL,
  WebhookDeliveriesRepository,
} from './webhook-deliveries.repository';
import { webhookMetrics } from './webhook-metrics';
import { sendDelivery, SendOutcome } from './webhook-sender';
import { WebhookUrlPolicy } from './webhook-url-policy';

/** How often the pending-deliveries gauge is sampled (a count over a partial index). */
const BACKLOG_SAMPLE_MS = 15_000;
/** How often finished deliveries past WEBHOOK_DELIVERY_RETENTION_HOURS are purged. */
const PURGE_INTERVAL_MS = 3_600_000;

/** The JSON body of a delivery: what is signed and sent, byte for byte. */
export function deliveryBody(
  delivery: Pick<ClaimedDelivery, 'id' | 'eventId' | 'eventType' | 'occurredAtMs' | 'data'>,
): string {
  return JSON.stringify({
    id: delivery.id,
    eventId: delivery.eventId,
    type: delivery.eventType,
    occurredAtMs: delivery.occurredAtMs,
    data: delivery.data,
  });
}

/**
 * Sends due webhook deliveries: each pass claims a batch (FOR UPDATE SKIP LOCKED, with a lease, so
 * any number of instances share the work and a row claimed by an instance that died is taken again
 * once its lease ends), sends them concurrently outside any transaction, and records each outcome:
 * delivered on 2xx, else retried with exponential back-off and jitter until the retry window is
 * over, then dead. At least once: a receiver may see a delivery id twice (an attempt whose answer
 * was lost), never an event lost. New and redelivered deliveries NOTIFY at commit, which wakes a
 * pass at once; the interval only paces retries that fall due and a LISTEN that was lost.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly loop: PeriodicWork;
  private readonly purgeLoop: PeriodicWork;
  private readonly schedule: RetrySchedule;
  private readonly policy: WebhookUrlPolicy;
  private readonly listener: PgChannelListener;
  private lastBacklogSampleMs = 0;

  constructor(
    private readonly config: GatewayConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.schedule = {
      baseDelayMs: config.WEBHOOK_RETRY_BASE_DELAY_MS,
      maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
      windowMs: config.WEBHOOK_RETRY_WINDOW_MS,
    };
    this.policy = { allowLoopbackHttp: config.WEBHOOK_ALLOW_LOOPBACK_HTTP };
    this.loop = new PeriodicWork({
      name: 'webhook-dispatch',
      intervalMs: config.WEBHOOK_DISPATCH_INTERVAL_MS,
      // A pass waits for its slowest delivery: bounded by the delivery timeout.
      slowAfterMs: Math.max(30_000, config.WEBHOOK_DELIVERY_TIMEOUT_MS * 3),
      run: () => this.pass(),
    });
    this.purgeLoop = new PeriodicWork({
      name: 'webhook-deliveries-purge',
      intervalMs: PURGE_INTERVAL_MS,
      run: async () => {
        const purged = await this.deliveries.purge(
          this.clock.nowMs() - config.WEBHOOK_DELIVERY_RETENTION_HOURS * 3_600_000,
        );
        if (purged.deliveries + purged.swapOwners > 0) {
          this.logger.log({ msg: 'purged webhook deliveries and swap owners past retention', ...purged });
        }
      },
    });
    this.listener = new PgChannelListener(dataSource, WEBHOOK_DELIVERIES_CHANNEL, {
      purpose: 'webhook-dispatch',
      onNotification: () => this.loop.wake(),
      // Deliveries that came while LISTEN was away: look now rather than at the next interval.
      onResumed: () => this.loop.wake(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.WEBHOOKS_ENABLED) return;
    this.loop.start(0);
    this.purgeLoop.start();
    await this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
    await Promise.all([this.loop.stop(), this.purgeLoop.stop()]);
  }

  /** One pass; returns how many deliveries it attempted (a full batch makes the next pass start at once). */
  async pass(nowMs = this.clock.nowMs()): Promise<number> {
    if (nowMs - this.lastBacklogSampleMs >= BACKLOG_SAMPLE_MS) {
      this.lastBacklogSampleMs = nowMs;
      webhookMetrics.backlog(await this.deliveries.pendingCount());
    }
    const batch = await this.deliveries.claimDue(
      this.config.WEBHOOK_DISPATCH_BATCH,
      this.config.WEBHOOK_LEASE_MS,
      nowMs,
    );
    await Promise.all(batch.map((delivery) => this.attempt(delivery)));
    return batch.length === this.config.WEBHOOK_DISPATCH_BATCH ? batch.length : 0;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const body = deliveryBody(delivery);
    const outcome: SendOutcome = await sendDelivery(
      {
        url: delivery.url,
        secret: delivery.secret,
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        body,
      },
      this.policy,
      this.config.WEBHOOK_DELIVERY_TIMEOUT_MS,
      Math.floor(this.clock.nowMs() / 1000),
    );
    const nowMs = this.clock.nowMs();
    const failedAttempts = delivery.attempts + 1;
    const next = outcome.delivered
      ? null
      : nextAttemptAtMs(this.schedule, failedAttempts, delivery.windowStartMs ?? nowMs, nowMs);
    const recorded = await this.deliveries.recordAttempt(
      delivery,
      { ...outcome, nextAttemptAtMs: next },
      nowMs,
    );
    const entry = {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      eventId: delivery.eventId,
      type: delivery.eventType,
      attempt: failedAttempts,
    };
    if (!recorded) {
      this.logger.warn({
        msg: 'webhook attempt outlived its lease; its outcome is left to the instance that took the delivery over',
        ...entry,
      });
      return;
    }
    if (outcome.delivered) {
      webhookMetrics.delivered((nowMs - delivery.createdAtMs) / 1000);
      this.logger.debug({ msg: 'webhook delivered', ...entry, status: outcome.responseStatus });
    } else if (next === null) {
      webhookMetrics.dead();
      this.logger.warn({
        msg: 'webhook delivery dead: retry window over',
        ...entry,
        status: outcome.responseStatus,
        error: outcome.error,
      });
    } else {
      webhookMetrics.failed();
      this.logger.log({
        msg: 'webhook attempt failed; retrying',
        ...entry,
        status: outcome.responseStatus,
        error: outcome.error,
        nextAttemptAtMs: next,
      });
    }
  }
}
