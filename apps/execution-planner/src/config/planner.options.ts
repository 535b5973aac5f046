import type { ExecutionPlannerConfig } from './execution-planner.config';

/** Runtime options of the swap services, from ExecutionPlannerConfig (and a clock tests can pin). */
export interface PlannerOptions {
  swapDeadlineSeconds: number;
  /** How often abandoned swaps past their deadline are looked for. */
  expirySweepIntervalMs: number;
  /** How often steps waiting for their price check (`repricing`) ask quote-service. */
  priceCheckPollMs: number;
  /**
   * How long a step waits for quote-service to price it; past it, the step is prepared as planned
   * (its minimum, the one the user accepted, still binds on chain).
   */
  priceCheckWaitMs: number;
  clock: () => number;
}

export const PLANNER_OPTIONS = Symbol('PlannerOptions');

/** The options of a validated config, on the wall clock. */
export function plannerOptionsOf(config: ExecutionPlannerConfig): PlannerOptions {
  return {
    swapDeadlineSeconds: config.SWAP_DEADLINE_SECONDS,
    expirySweepIntervalMs: config.SWAP_EXPIRY_SWEEP_MS,
    priceCheckPollMs: config.SWAP_PRICE_CHECK_POLL_MS,
    priceCheckWaitMs: config.SWAP_PRICE_CHECK_WAIT_MS,
    clock: () => Date.now(),
  };
}
