/** Runtime options of the swap services, from ExecutionPlannerConfig (and a clock tests can pin). */
export interface PlannerOptions {
  swapDeadlineSeconds: number;
  clock: () => number;
}

export const PLANNER_OPTIONS = Symbol('PlannerOptions');
