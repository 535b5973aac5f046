import type { SwapViewEntity } from './swap-view.entity';

/** A swap's view row for specs: a swap being planned, nothing to sign yet, with `overrides`. */
export function swapViewOf(overrides: Partial<SwapViewEntity> = {}): SwapViewEntity {
  return {
    swapId: '1b4e28ba-2fa1-51d2-883f-0016d3cca427',
    owner: 'integrator-a',
    status: 'planning',
    stepCurrent: 1,
    stepTotal: 2,
    payload: null,
    expiresAtMs: null,
    readyAtMs: null,
    executionHints: null,
    clientHints: null,
    pendingReason: null,
    lastTxHash: null,
    confirmations: null,
    confirmationsRequired: null,
    failureReason: null,
    failureDetails: null,
    steps: [],
    quoted: null,
    createdAtMs: 0,
    updatedAtMs: 0,
    ...overrides,
  };
}
