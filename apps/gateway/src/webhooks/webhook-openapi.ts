import type { OpenAPIObject } from '@nestjs/swagger';
import { LimitOrderEventTypes, SWAP_THORCHAIN_PHASES } from '@swapgw/contracts';
import { SWAP_WEBHOOK_TYPES } from './webhook-event-types';

type Schema = Record<string, unknown>;

const step: Schema = {
  type: 'object',
  required: ['current', 'total'],
  properties: { current: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 1 } },
};
const swapStatus: Schema = { type: 'string', description: 'The swap status after the event' };
const nullableString: Schema = { type: ['string', 'null'] };

/**
 * `data` of each webhook event type (the public fields of the source event); every property is
 * required but those in `optional`.
 */
const SWAP_DATA: Record<
  string,
  { description: string; properties: Record<string, Schema>; optional?: readonly string[] }
> = {
  'swap.created': {
    description: 'The swap and its steps exist (a build the planner refused is created, then failed).',
    properties: {
      quoteId: { type: 'string' },
      routeId: { type: 'string' },
      fromChain: { type: 'string' },
      toChain: { type: 'string' },
      userAddress: { type: 'string' },
      stepCount: { type: 'integer' },
      createdAtMs: { type: 'integer' },
    },
  },
  'swap.payload-ready': {
    description: 'A step can be signed: GET /swap/{swapId}/signing for its payload.',
    properties: { step, readyAtMs: { type: 'integer' }, expiresAtMs: { type: 'integer' } },
  },
  'swap.step-submitted': {
    description: "A step's signed transaction was broadcast.",
    properties: { step, chain: { type: 'string' }, txHash: { type: 'string' } },
  },
  'swap.step-confirmed': {
    description:
      "A step's transaction has the confirmations the service waits for (signer-surface CONFIRMATIONS_REQUIRED; a Bitcoin step: in a block). `skipped` (no txHash): the step needed no transaction.",
    properties: {
      step,
      chain: { type: 'string' },
      txHash: { type: 'string' },
      skipped: { type: 'boolean' },
    },
    optional: ['txHash', 'skipped'],
  },
  'swap.step-packet': {
    description:
      "An IBC packet of a step moved, as its chains' events tell: a Cosmos transfer step's packet, or the packets of a route that goes on by IBC after its step (a deposit paying a Noble forwarding account: the forward to Osmosis, then the swap's output home, each told in route order and named by `packet.destinationChain`). `packet.state` sent, received, acknowledged (the step then confirms once the route's last packet is, or with `acknowledgementError` was refunded) or timed_out (refunded); `packet.refunded`: the coin went back to the packet's sender (swap.failed follows: BRIDGE_REFUNDED for a transfer step, the coin back at the sender on the source chain; FORWARD_FAILED for a forwarding route, `details.fundsAt` says where the funds are). `chain` and `txHash`: the step's own transaction, as its chain writes hashes (64 uppercase hex on a Cosmos chain, 0x-prefixed on an EVM chain).",
    properties: {
      step,
      chain: { type: 'string' },
      txHash: { type: 'string', pattern: '^([0-9A-F]{64}|0x[0-9a-f]{64})$' },
      packet: {
        type: 'object',
        required: [
          'state',
          'sequence',
          'sourceChannel',
          'destinationChain',
          'destinationChannel',
          'timeoutAtMs',
          'receivedTxHash',
          'settledTxHash',
          'acknowledgementError',
          'refunded',
        ],
        properties: {
          state: { type: 'string', enum: ['sent', 'received', 'acknowledged', 'timed_out'] },
          sequence: { type: 'string' },
          sourceChannel: { type: 'string' },
          destinationChain: nullableString,
          destinationChannel: { type: 'string' },
          timeoutAtMs: { type: ['integer', 'null'] },
          receivedTxHash: nullableString,
          settledTxHash: nullableString,
          acknowledgementError: nullableString,
          refunded: { type: 'boolean' },
        },
      },
    },
  },
  'swap.step-thorchain': {
    description:
      "THORChain's phase of a deposit step's swap changed, as THORNode's GET /thorchain/tx/status/{hash} of the deposit tells it: `thorchain.phase` not-observed, confirming, swapping, streaming (`thorchain.streaming`: sub-swaps done and planned), outbound-delay, outbound-signing, then completed (the step then confirms) or refunded (swap.failed BRIDGE_REFUNDED follows); `thorchain.outTxIds`: the outbounds THORChain sent, ids as THORNode writes them.",
    properties: {
      step,
      chain: { type: 'string' },
      txHash: { type: 'string' },
      thorchain: {
        type: 'object',
        required: ['phase', 'streaming', 'outTxIds'],
        properties: {
          phase: { type: 'string', enum: [...SWAP_THORCHAIN_PHASES] },
          streaming: {
            type: ['object', 'null'],
            required: ['count', 'quantity'],
            properties: { count: { type: 'integer', minimum: 0 }, quantity: { type: 'integer', minimum: 1 } },
          },
          outTxIds: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  'swap.completed': {
    description: 'Every step confirmed.',
    properties: { completedAtMs: { type: 'integer' } },
  },
  'swap.failed': {
    description: 'Terminal failure; reason is an error code.',
    properties: { reason: { type: 'string' }, details: { type: 'object', additionalProperties: true } },
    optional: ['details'],
  },
  'swap.expired': { description: 'The swap deadline passed.', properties: { reason: { type: 'string' } } },
};

const LIMIT_ORDER_DATA: Schema = {
  type: 'object',
  required: ['limitOrderId', 'status', 'timeInForce', 'version', 'expiresAtMs', 'amount', 'minAmountOut'],
  additionalProperties: true,
  properties: {
    limitOrderId: { type: 'string' },
    status: { type: 'string' },
    timeInForce: { type: 'string' },
    version: { type: 'integer' },
    expiresAtMs: { type: 'integer' },
    amount: { type: 'string' },
    minAmountOut: { type: 'string' },
    filledAmount: nullableString,
    swapId: nullableString,
    reason: nullableString,
    replacesLimitOrderId: nullableString,
    replacedByLimitOrderId: nullableString,
  },
};

const headers = {
  'Webhook-Id': {
    required: true,
    schema: { type: 'string', format: 'uuid' },
    description: 'Delivery id (= body `id`): the same on every attempt of this delivery',
  },
  'Webhook-Event-Id': {
    required: true,
    schema: { type: 'string' },
    description:
      'Source event id (= body `eventId`), the same for every webhook that receives it (not part of Standard Webhooks)',
  },
  'Webhook-Timestamp': {
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
    description: 'Unix seconds of this attempt (signed); refuse one more than 5 minutes from your clock',
  },
  'Webhook-Signature': {
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$' },
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256(key, "<Webhook-Id>.<Webhook-Timestamp>.<raw body>")>`, key = base64 decoding of the secret after `whsec_`. Any Standard Webhooks library verifies it.',
  },
};

/** `swap.payload-ready` → `webhookSwapPayloadReady`. */
const operationIdOf = (type: string): string =>
  'webhook' +
  type
    .split(/[.-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

function operation(type: string, description: string, data: Schema): Record<string, unknown> {
  return {
    post: {
      operationId: operationIdOf(type),
      summary: `${type} delivery`,
      description: `${description} POSTed to each webhook subscribed to \`${type}\`. Answer 2xx within 10 s; anything else is retried with exponential back-off for 24 h, then the delivery is dead.`,
      parameters: Object.entries(headers).map(([name, header]) => ({ name, in: 'header', ...header })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['id', 'eventId', 'type', 'occurredAtMs', 'data'],
              properties: {
                id: {
                  type: 'string',
                  format: 'uuid',
                  description: 'Delivery id: dedupe on it (at least once)',
                },
                eventId: { type: 'string', description: 'Source event id' },
                type: { const: type },
                occurredAtMs: { type: 'integer', description: 'When the event happened (epoch ms)' },
                data,
              },
            },
          },
        },
      },
      responses: {
        '2XX': {
          description:
            'Received. Any other answer, a redirect included, or none within 10 s, is a failed attempt.',
        },
      },
    },
  };
}

/**
 * The top-level OpenAPI 3.1 `webhooks` section: one entry per event type a webhook can receive,
 * with the delivery headers and body. Added to the document built from the controllers.
 */
export function addWebhookEvents(document: OpenAPIObject): OpenAPIObject {
  const webhooks: Record<string, unknown> = {};
  for (const type of Object.values(SWAP_WEBHOOK_TYPES)) {
    const { description, properties, optional = [] } = SWAP_DATA[type];
    webhooks[type] = operation(type, description, {
      type: 'object',
      required: ['swapId', 'status', ...Object.keys(properties).filter((p) => !optional.includes(p))],
      properties: { swapId: { type: 'string' }, status: swapStatus, ...properties },
    });
  }
  for (const type of Object.values(LimitOrderEventTypes)) {
    webhooks[type] = operation(
      type,
      'A limit order changed; `data` is the order after the change.',
      LIMIT_ORDER_DATA,
    );
  }
  return { ...document, webhooks } as OpenAPIObject;
}
