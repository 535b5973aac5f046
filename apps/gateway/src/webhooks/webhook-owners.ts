import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PgChannelListener } from '@swapgw/persistence';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway.config';
import { WEBHOOKS_CHANNEL, WebhooksRepository } from './webhooks.repository';

/**
 * The owners that have at least one webhook, held in memory so that the events of everyone else
 * (most owners, and every owner of a deployment without webhooks) are skipped without a read.
 * Exact while LISTEN on WEBHOOKS_CHANNEL is in place: every change of gateway.webhooks notifies,
 * and the set is read again. While it is not known (not listening, or being read again after a
 * change) every owner may have one, and the consumer reads the table as before. A webhook is
 * known here within the notification's delay (milliseconds) of its registration committing.
 */
@Injectable()
export class WebhookOwners implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookOwners.name);
  private readonly listener: PgChannelListener;
  /** null while not known. */
  private owners: ReadonlySet<string> | null = null;
  /** Bumped by each reload: an older read that ends after a newer one started is dropped. */
  private reloads = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
    private readonly webhooks: WebhooksRepository,
  ) {
    this.listener = new PgChannelListener(dataSource, WEBHOOKS_CHANNEL, {
      onNotification: () => void this.reload(),
      onResumed: () => void this.reload(),
      purpose: 'webhooks-listen',
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.WEBHOOKS_ENABLED) return;
    await this.listener.start();
    await this.reload();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
  }

  /** False only when `owner` certainly has no webhook. */
  mayHaveWebhooks(owner: string): boolean {
    const owners = this.known();
    return !owners || owners.has(owner);
  }

  /** False only when certainly nobody has a webhook. */
  anyMayExist(): boolean {
    const owners = this.known();
    return !owners || owners.size > 0;
  }

  private known(): ReadonlySet<string> | null {
    return this.listener.isListening() ? this.owners : null;
  }

  private async reload(): Promise<void> {
    const reload = ++this.reloads;
    this.owners = null;
    try {
      const owners = await this.webhooks.owners();
      if (reload === this.reloads) this.owners = new Set(owners);
    } catch (error) {
      // Stays unknown: the consumer reads the table for each event until the next notification.
      this.logger.warn({ msg: 'webhook owners not read', error: (error as Error)?.message ?? String(error) });
    }
  }
}
