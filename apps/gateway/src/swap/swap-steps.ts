/**
 * The steps of a swap as GET /swap/{swapId} shows them, kept in gateway.swap_views.steps and
 * rebuilt from swap.events by the projector (pure functions here, so replays give the same rows).
 */
export const SWAP_STEP_KINDS = ['approve', 'swap', 'bridge'] as const;
export type SwapStepKind = (typeof SWAP_STEP_KINDS)[number];

/**
 * A step's status: `pending` (not offered yet, or its payload is being (re)built / funds awaited),
 * `awaiting_signature`, `submitted`, `confirming`, `confirmed`, `skipped` (an approve whose allowance
 * was already there: nothing to sign), `failed`.
 */
export const SWAP_VIEW_STEP_STATUSES = [
  'pending',
  'awaiting_signature',
  'submitted',
  'confirming',
  'confirmed',
  'skipped',
  'failed',
] as const;
export type SwapViewStepStatus = (typeof SWAP_VIEW_STEP_STATUSES)[number];

import type { SwapStepPacket, SwapStepThorchain } from '@swapgw/contracts';

export interface SwapStepRecord {
  /** 1-based: `signing.step.current` of the step. */
  index: number;
  /** API chain id; null until an event of the step names it (its transaction, skip or failure). */
  chain: string | null;
  /** null until the step's payload was issued (clientHints.action), it was skipped (approve) or it failed. */
  kind: SwapStepKind | null;
  status: SwapViewStepStatus;
  txHash: string | null;
  submittedAtMs: number | null;
  confirmedAtMs: number | null;
  /** A Cosmos IBC transfer's packet, from swap.step-packet; null on other steps (absent on rows projected before it). */
  packet?: SwapStepPacket | null;
  /** A THORChain deposit's swap as THORChain tells it, from swap.step-thorchain; null on other steps (absent on rows projected before it). */
  thorchain?: SwapStepThorchain | null;
}

/** What one event tells about one step; absent fields leave the record as it is. */
export type SwapStepChange = Partial<Omit<SwapStepRecord, 'index'>>;

const blankStep = (index: number): SwapStepRecord => ({
  index,
  chain: null,
  kind: null,
  status: 'pending',
  txHash: null,
  submittedAtMs: null,
  confirmedAtMs: null,
  packet: null,
  thorchain: null,
});

/** Every step 1..total, keeping what is already known of each (and any beyond total). */
export function withStepCount(steps: readonly SwapStepRecord[], total: number): SwapStepRecord[] {
  const known = new Map(steps.map((step) => [step.index, step]));
  const count = Math.max(total, ...steps.map((step) => step.index), 0);
  return Array.from({ length: count }, (_, i) => known.get(i + 1) ?? blankStep(i + 1));
}

/**
 * Applies a change to step `index` (created blank when missing). Known facts are never erased by
 * an absent one: a null or undefined field of `change` keeps the recorded value.
 */
export function withStepChange(
  steps: readonly SwapStepRecord[],
  index: number,
  total: number,
  change: SwapStepChange,
): SwapStepRecord[] {
  return withStepCount(steps, Math.max(total, index)).map((step) => {
    if (step.index !== index) return step;
    const next = { ...step };
    for (const [field, value] of Object.entries(change) as Array<[keyof SwapStepChange, unknown]>) {
      if (value !== undefined && value !== null) (next as Record<string, unknown>)[field] = value;
    }
    return next;
  });
}

/** A step kind from an event's free-form field (clientHints.action, failure details.kind), or undefined. */
export const stepKindOf = (value: unknown): SwapStepKind | undefined =>
  (SWAP_STEP_KINDS as readonly unknown[]).includes(value) ? (value as SwapStepKind) : undefined;
