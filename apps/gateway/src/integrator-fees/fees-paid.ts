import type { SwapStepConfirmedEvent } from '@swapgw/contracts';
import type { SwapViewEntity } from '../swap/swap-view.entity';
import type { CollectedIntegratorFee } from './integrator-fees-collected.repository';

/**
 * The integrator fees a confirmed step paid, from the swap's view as it reads after the event.
 * The plan's fees ride on the first swap's transaction (the router pays each recipient before it
 * swaps): the first confirmed step on the fee's chain that is a transaction and not an approve
 * paid them. Later steps name them too, and are ignored by the record (one row per swap and
 * recipient). None for swaps without fees, or built before the fees were kept in `quoted`.
 */
export function feesPaidBy(view: SwapViewEntity, event: SwapStepConfirmedEvent): CollectedIntegratorFee[] {
  const fees = view.quoted?.integratorFees ?? [];
  if (fees.length === 0 || event.skipped || !event.txHash) return [];
  const step = view.steps?.find((s) => s.index === event.step.current);
  if (step?.kind === 'approve') return [];
  return fees
    .filter((fee) => fee.token.chain === event.chain)
    .map((fee) => ({
      swapId: view.swapId,
      owner: view.owner,
      chain: fee.token.chain,
      token: fee.token,
      recipient: fee.recipient,
      amount: fee.amount,
      txHash: event.txHash ?? null,
    }));
}
