/**
 * Message `type` values of the swap domain, per topic.
 *
 * - `swap.commands` (stream, gateway → execution-planner): SwapCommandTypes
 * - `swap.requests` (request-reply, gateway and limit-order-service → execution-planner): SwapRequestTypes
 * - `swap.events` (stream, execution-planner → gateway read model and anyone else): SwapEventTypes
 *
 * Every message is keyed by `swapId` (the envelope's aggregateId), so one swap's events stay in
 * order on one partition and a projector sees them in the order the planner committed them.
 */
/**
 * `swap.build` as a durable command: the gateway answers 200/202 once Kafka has it, and the
 * planner's verdict reaches the client through swap.events (the read model), not a reply.
 */
export const SwapCommandTypes = {
  build: 'swap.build',
} as const;

export const SwapRequestTypes = {
  /** Ask for a fresh payload of the current step when the one issued has expired. */
  refreshSigning: 'swap.signing.refresh',
} as const;

export const SwapEventTypes = {
  created: 'swap.created',
  signingReady: 'swap.signing-ready',
  /** The current step's payload is being (re)built: a new step started, or a refresh was asked. */
  signingPending: 'swap.signing-pending',
  stepSubmitted: 'swap.step-submitted',
  /** The step's transaction is in a block; the swap is `confirming` until enough confirmations. */
  stepConfirming: 'swap.step-confirming',
  stepConfirmed: 'swap.step-confirmed',
  /** The IBC packet a confirmed step sent moved (Cosmos transfers: sent, received, acknowledged, timed out). */
  stepPacket: 'swap.step-packet',
  /** THORChain's phase of a confirmed deposit's swap changed (tx/status: swapping, streaming, outbound, completed, refunded). */
  stepThorchain: 'swap.step-thorchain',
  completed: 'swap.completed',
  failed: 'swap.failed',
  expired: 'swap.expired',
} as const;

export type SwapCommandType = (typeof SwapCommandTypes)[keyof typeof SwapCommandTypes];
export type SwapRequestType = (typeof SwapRequestTypes)[keyof typeof SwapRequestTypes];
export type SwapEventType = (typeof SwapEventTypes)[keyof typeof SwapEventTypes];

/**
 * Swap lifecycle (ours; the spec only shows build modes):
 * planning (current step's payload being built) → awaiting_signature (payload ready) → submitted
 * (signed tx broadcast) → confirming (mined, waiting for confirmations; entered only when the
 * signer reports it) → next step: planning again → ... → completed; or failed / expired.
 */
export const SWAP_STATUSES = [
  'planning',
  'awaiting_signature',
  'submitted',
  'confirming',
  'completed',
  'failed',
  'expired',
] as const;
export type SwapStatus = (typeof SWAP_STATUSES)[number];
export const TERMINAL_SWAP_STATUSES: readonly SwapStatus[] = ['completed', 'failed', 'expired'];
export const isTerminalSwapStatus = (status: string): boolean =>
  (TERMINAL_SWAP_STATUSES as readonly string[]).includes(status);

/** How the first leg's token allowance is granted. */
export const PERMIT_TYPES = ['eip2612', 'permit2', 'approve'] as const;
export type PermitType = (typeof PERMIT_TYPES)[number];

/**
 * Who pays a swap's gas. `sponsored` (the default): the service's relayers, on every EVM step, so a
 * wallet holding only the input token can swap. `user`: the wallet sends its own transactions and
 * pays their gas (an integrator's choice, e.g. a smart-contract wallet that bundles them); also what
 * a build carrying its own permit signature (`permitSignature`, `permit2`) means.
 */
export const GAS_PAYMENTS = ['sponsored', 'user'] as const;
export type GasPayment = (typeof GAS_PAYMENTS)[number];
