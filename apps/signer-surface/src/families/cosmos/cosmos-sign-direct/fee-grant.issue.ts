import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { payloadRequestOf, type SponsoredPayloadIssue } from '../../../signing/payload-kinds/sponsored-issue';
import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type { CosmosFeeGranters } from '../cosmos-fee-granters';

/**
 * Cosmos: the step's fee names the service's fee granter (`fee.granter`), which x/feegrant charges
 * under its allowance to the wallet: the payload is built (its gas simulated with the granter named),
 * the step admitted under the key's daily budget (its fee and a grant's, in the fee denom's base
 * units) and the granter's balance, the wallet's allowance granted or topped up to cover its fee,
 * and only then handed out. The wallet pays no fee: it loses exactly what its messages move.
 */
export const cosmosFeeGrantIssue: SponsoredPayloadIssue<CosmosFeeGranters> = {
  modes: ['cosmos-fee-grant'],
  family: 'cosmos',
  relayed: false,
  feePayerSignsLater: false,
  async issue(row, client, { policy, nowMs }, granters) {
    if (client.family !== 'cosmos') return { kind: 'invalid', reason: `${row.chain} is not a Cosmos chain` };
    const granter = granters.granterOf(row.chain);
    if (!granter)
      throw new CodedError(
        ErrorCodes.SPONSORSHIP_UNAVAILABLE,
        `No Cosmos fee granter is configured for ${row.chain}`,
        {
          chain: row.chain,
        },
      );
    const built = await client.buildPayload(payloadRequestOf(row, granter), policy, nowMs);
    if (built.kind !== 'ready') return built;
    const fee = client.feeOf(BigInt(built.executionHints.gasLimit));
    const owner = sponsoredOwnerOf(row);
    await granters.admit(client, granter, owner, BigInt(fee.amount));
    await granters.ensureAllowance(
      client,
      granter,
      row.from,
      { denom: fee.denom, amount: BigInt(fee.amount) },
      { swapId: row.swapId, stepIndex: row.stepIndex, owner },
    );
    return built;
  },
};
