/** What ranking needs to know of a candidate route. */
export interface RankableRoute {
  expectedAmountOut: bigint;
  stepCount: number;
  estimatedDurationSeconds: number;
  providers: string[];
}

/**
 * Best output first; on equal output fewer steps, then faster, then provider names (so the order
 * is deterministic for equal candidates).
 */
export function compareRoutes(a: RankableRoute, b: RankableRoute): number {
  if (a.expectedAmountOut !== b.expectedAmountOut) return a.expectedAmountOut > b.expectedAmountOut ? -1 : 1;
  if (a.stepCount !== b.stepCount) return a.stepCount - b.stepCount;
  if (a.estimatedDurationSeconds !== b.estimatedDurationSeconds)
    return a.estimatedDurationSeconds - b.estimatedDurationSeconds;
  return a.providers.join(',').localeCompare(b.providers.join(','));
}

export function rankRoutes<T extends RankableRoute>(routes: T[]): T[] {
  return [...routes].sort(compareRoutes);
}
