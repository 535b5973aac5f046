/** Runtime options of the swap services, from ExecutionPlannerConfig (and a clock tests can pin). */
export interface PlannerOptions {
  swapDeadlineSeconds: number;
  /** How often abandoned swaps past their deadline are looked for. */
  expirySweepIntervalMs: number;
  clock: () => number;
}

export const PLANNER_OPTIONS = Symbol('PlannerOptions');
