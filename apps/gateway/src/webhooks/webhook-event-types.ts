import { LimitOrderEventTypes, SwapEventTypes } from '@swapgw/contracts';

/**
 * The event types a webhook can subscribe to. Swap types are the public names of what the
 * planner publishes (`swap.payload-ready` is `swap.signing-ready`: a payload can be signed); a
 * step's transaction is pushed when it is broadcast and when it has the confirmations the service
 * waits for, and a Cosmos transfer's IBC packet each time it moves (sent, received, acknowledged,
 * timed out: whether the coin arrived or went back), and a THORChain deposit's swap each time its
 * phase changes (THORNode's tx/status: swapping, streaming, outbound, completed or refunded). Block-by-block progress (signing-pending, step-confirming) is not pushed: the event
 * stream and polls show it. Limit-order types are exactly those of limit-order.events.
 */
export const SWAP_WEBHOOK_TYPES = {
  [SwapEventTypes.created]: 'swap.created',
  [SwapEventTypes.signingReady]: 'swap.payload-ready',
  [SwapEventTypes.stepSubmitted]: 'swap.step-submitted',
  [SwapEventTypes.stepConfirmed]: 'swap.step-confirmed',
  [SwapEventTypes.stepPacket]: 'swap.step-packet',
  [SwapEventTypes.stepThorchain]: 'swap.step-thorchain',
  [SwapEventTypes.completed]: 'swap.completed',
  [SwapEventTypes.failed]: 'swap.failed',
  [SwapEventTypes.expired]: 'swap.expired',
} as const;

export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...Object.values(SWAP_WEBHOOK_TYPES),
  ...Object.values(LimitOrderEventTypes),
];

export type WebhookEventType = string;
