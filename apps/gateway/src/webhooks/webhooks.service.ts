import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { Clock, withTimeout } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import {
  CreateWebhookDto,
  DELIVERY_LIST_DEFAULT,
  ListWebhookDeliveriesQuery,
  WebhookCreatedResponse,
  WebhookDeletedResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhook.dto';
import { DeliveryRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types';
import { newWebhookSecret } from './webhook-signature';
import {
  checkWebhookUrl,
  hostOf,
  resolveAllowed,
  Resolver,
  systemResolver,
  WebhookUrlPolicy,
} from './webhook-url-policy';
import { WebhookRow, WebhooksRepository } from './webhooks.repository';

/** Webhooks one API key owner may have (a bound on the deliveries one event can fan out to). */
export const MAX_WEBHOOKS_PER_OWNER = 20;
/** Bound of the DNS check at registration: a host that does not answer is refused, not waited on. */
const REGISTRATION_DNS_TIMEOUT_MS = 5000;

const toResponse = (row: WebhookRow): WebhookResponse => ({
  id: row.id,
  url: row.url,
  eventTypes: row.eventTypes ?? [...WEBHOOK_EVENT_TYPES],
  allEventTypes: row.eventTypes === null,
  createdAtMs: row.createdAtMs,
});

const toDelivery = (row: DeliveryRow): WebhookDeliveryResponse => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAtMs: row.nextAttemptAtMs,
  lastAttemptAtMs: row.lastAttemptAtMs,
  lastResponseStatus: row.lastResponseStatus,
  lastError: row.lastError,
  createdAtMs: row.createdAtMs,
  deliveredAtMs: row.deliveredAtMs,
});

/** Deliveries cursor: base64url of "<createdAtMs>:<id>" of the last item of the page. */
const encodeCursor = (row: DeliveryRow): string =>
  Buffer.from(`${row.createdAtMs}:${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAtMs: number; id: string } {
  const [ms, id] = Buffer.from(cursor, 'base64url').toString().split(':');
  const createdAtMs = Number(ms);
  if (!Number.isSafeInteger(createdAtMs) || !id || !isUUID(id))
    throw new CodedError(ErrorCodes.INVALID_CURSOR, 'The cursor is malformed', { cursor });
  return { createdAtMs, id };
}

/** The webhook routes: registration, listing, deletion, the delivery log and redelivery, all owner-scoped. */
@Injectable()
export class WebhooksService {
  private readonly policy: WebhookUrlPolicy;
  /** The system's DNS; a unit test may replace it. */
  resolve: Resolver = systemResolver;

  constructor(
    config: GatewayConfig,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly clock: Clock,
  ) {
    this.policy = { allowLoopbackHttp: config.WEBHOOK_ALLOW_LOOPBACK_HTTP };
  }

  async create(
    owner: string,
    body: CreateWebhookDto,
    nowMs = this.clock.nowMs(),
  ): Promise<WebhookCreatedResponse> {
    const verdict = checkWebhookUrl(body.url, this.policy);
    if (!verdict.ok)
      throw new CodedError(
        ErrorCodes.WEBHOOK_URL_REJECTED,
        `The webhook URL is not accepted: ${verdict.reason}`,
        { url: body.url, reason: verdict.reason },
      );
    // Checked again at every delivery (names can change what they resolve to); here so that an
    // integrator learns of an internal or unknown host at once rather than from a dead delivery.
    await withTimeout(
      resolveAllowed(hostOf(verdict.url), this.policy, this.resolve),
      REGISTRATION_DNS_TIMEOUT_MS,
      `${hostOf(verdict.url)} does not resolve within ${REGISTRATION_DNS_TIMEOUT_MS} ms`,
    ).catch((error: Error & { code?: string }) => {
      const reason =
        error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
          ? `${hostOf(verdict.url)} does not resolve`
          : error.message;
      throw new CodedError(ErrorCodes.WEBHOOK_URL_REJECTED, `The webhook URL is not accepted: ${reason}`, {
        url: body.url,
        reason,
      });
    });
    const row = {
      id: randomUUID(),
      owner,
      url: verdict.url.toString(),
      eventTypes: body.eventTypes && body.eventTypes.length > 0 ? body.eventTypes : null,
      createdAtMs: nowMs,
      secret: newWebhookSecret(),
    };
    if (!(await this.webhooks.insert(row, MAX_WEBHOOKS_PER_OWNER))) {
      throw new CodedError(
        ErrorCodes.WEBHOOK_LIMIT_REACHED,
        `At most ${MAX_WEBHOOKS_PER_OWNER} webhooks per API key owner`,
        { max: MAX_WEBHOOKS_PER_OWNER },
      );
    }
    return { ...toResponse(row), secret: row.secret };
  }

  async list(owner: string): Promise<WebhookListResponse> {
    return { items: (await this.webhooks.list(owner)).map(toResponse) };
  }

  async delete(owner: string, id: string): Promise<WebhookDeletedResponse> {
    if (!isUUID(id) || !(await this.webhooks.delete(owner, id))) throw this.notFound(id);
    return { id, deleted: true };
  }

  async listDeliveries(
    owner: string,
    id: string,
    query: ListWebhookDeliveriesQuery,
  ): Promise<WebhookDeliveryListResponse> {
    await this.requireWebhook(owner, id);
    const limit = query.limit ?? DELIVERY_LIST_DEFAULT;
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.deliveries.list(id, limit + 1, after);
    const page = rows.slice(0, limit);
    return {
      items: page.map(toDelivery),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  }

  async redeliver(owner: string, id: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    await this.requireWebhook(owner, id);
    const row = isUUID(deliveryId) ? await this.deliveries.redeliver(id, deliveryId) : null;
    if (!row)
      throw new CodedError(ErrorCodes.WEBHOOK_DELIVERY_NOT_FOUND, `Delivery ${deliveryId} does not exist`, {
        webhookId: id,
        deliveryId,
      });
    return toDelivery(row);
  }

  /** Another owner's webhook is not found either, as everywhere in the API (no existence oracle). */
  private async requireWebhook(owner: string, id: string): Promise<WebhookRow> {
    const row = isUUID(id) ? await this.webhooks.get(owner, id) : null;
    if (!row) throw this.notFound(id);
    return row;
  }

  private notFound(id: string): CodedError {
    return new CodedError(ErrorCodes.WEBHOOK_NOT_FOUND, `Webhook ${id} does not exist`, { webhookId: id });
  }
}
