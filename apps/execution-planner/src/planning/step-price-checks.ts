import { RepriceRouteLegRequest, RoutePlan } from '@swapgw/contracts';

/**
 * The price check a step carries (issue 30, point 6: multi-step routes re-check before each step
 * that spends). The gateway prices the first leg at build; the first spending step (not an approve)
 * of each later swap leg is priced again when its turn comes, because its leg may be signed long
 * after the quote: after a bridge arrived, or after the legs before it confirmed. quote-service
 * decides what it can re-price (a same-chain swap leg that is not a prebuilt transaction) and
 * answers `repriced: false` for the rest.
 */
export function priceCheckOf(
  plan: RoutePlan,
  steps: readonly { index: number; legIndex: number; kind: string }[],
  step: { index: number; legIndex: number; kind: string },
): RepriceRouteLegRequest | null {
  if (step.legIndex === 0 || step.kind === 'approve') return null;
  if (plan.legs[step.legIndex]?.kind !== 'swap') return null;
  const firstSpending = steps.find((s) => s.legIndex === step.legIndex && s.kind !== 'approve');
  return firstSpending?.index === step.index ? { plan, legIndex: step.legIndex } : null;
}
