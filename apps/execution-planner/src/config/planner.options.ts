import type { ExecutionPlannerConfig } from './execution-planner.config';

/** Runtime options of the swap services, from ExecutionPlannerConfig (and a clock tests can pin). */
export interface PlannerOptions {
  swapDeadlineSeconds: number;
  /** How often abandoned swaps past their deadline are looked for. */
  expirySweepIntervalMs: number;
  clock: () => number;
}

export const PLANNER_OPTIONS = Symbol('PlannerOptions');

/** The options of a validated config, on the wall clock. */
export function plannerOptionsOf(config: ExecutionPlannerConfig): PlannerOptions {
  return {
    swapDeadlineSeconds: config.SWAP_DEADLINE_SECONDS,
    expirySweepIntervalMs: config.SWAP_EXPIRY_SWEEP_MS,
    clock: () => Date.now(),
  };
}
