import { revertReasonOf, shortMessageOf, SPONSORED_EVM_GAS } from '@swapgw/chains';
import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type { GasSponsor } from '../../../sponsorship/gas-sponsor';
import {
  isServiceUnavailable,
  payloadRequestOf,
  type SponsoredPayloadIssue,
} from '../../../signing/payload-kinds/sponsored-issue';

/**
 * The user's own EVM transaction: the service first sends the most it can cost (a gas drop), so the
 * wallet's native balance after it is never lower than before.
 */
export const coveredTransactionIssue: SponsoredPayloadIssue<GasSponsor> = {
  modes: ['covered-transaction'],
  family: 'evm',
  relayed: false,
  feePayerSignsLater: false,
  async issue(row, client, { policy, nowMs }, sponsor) {
    const built = await client.buildPayload(payloadRequestOf(row), policy, nowMs);
    if (built.kind !== 'ready') return built;
    const owner = sponsoredOwnerOf(row);
    const maxFeeWei = built.cost.maxFee;
    try {
      await sponsor.admit(owner, row.chain, maxFeeWei + SPONSORED_EVM_GAS.gasTopUp * built.cost.feePerUnit);
      const drop = await sponsor.send({
        chain: row.chain,
        to: row.from,
        data: '0x',
        value: maxFeeWei,
        purpose: 'gas-drop',
        swapId: row.swapId,
        stepIndex: row.stepIndex,
        owner,
      });
      row.gasDropId = drop.id;
      Object.assign(built.executionHints, {
        gasPaidBy: 'service',
        gasCoveredWei: maxFeeWei.toString(),
        gasDropTxHash: drop.txHash,
      });
      return built;
    } catch (error) {
      // The chain refuses the drop (its estimate reverts): nothing could be signed. Unreachable
      // nodes and 503s make the step unavailable (the issuer's).
      if (client.isUnreachable(error) || isServiceUnavailable(error)) throw error;
      return { kind: 'would-revert', reason: revertReasonOf(error) ?? shortMessageOf(error) };
    }
  },
};
