import { LimitOrderEventTypes, SwapEventTypes } from '@swapgw/contracts';

/**
 * The event types a webhook can subscribe to. Swap types are the public names of what the
 * planner publishes (`swap.payload-ready` is `swap.signing-ready`: a payload can be signed);
 * intermediate progress (signing-pending, step-confirming, step-confirmed) is not pushed, polls
 * show it. Limit-order types are exactly those of limit-order.events.
 */
export const SWAP_WEBHOOK_TYPES = {
  [SwapEventTypes.created]: 'swap.created',
  [SwapEventTypes.signingReady]: 'swap.payload-ready',
  [SwapEventTypes.stepSubmitted]: 'swap.step-submitted',
  [SwapEventTypes.completed]: 'swap.completed',
  [SwapEventTypes.failed]: 'swap.failed',
  [SwapEventTypes.expired]: 'swap.expired',
} as const;

export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...Object.values(SWAP_WEBHOOK_TYPES),
  ...Object.values(LimitOrderEventTypes),
];

export type WebhookEventType = string;
