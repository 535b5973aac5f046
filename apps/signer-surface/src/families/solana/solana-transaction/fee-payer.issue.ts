import { LAMPORTS_PER_SIGNATURE } from '@swapgw/chains/families';
import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type { SolanaFeePayerSponsor } from '../solana-fee-payer-sponsor';
import { feePayerShortfallOf } from './fee-payer-funds';
import { payloadRequestOf, type SponsoredPayloadIssue } from '../../../signing/payload-kinds/sponsored-issue';

/**
 * Solana: one of the service's fee payers is named as the transaction's fee payer, and the step is
 * admitted under the key's daily budget (lamports) with what the transaction can cost it.
 */
export const solanaFeePayerIssue: SponsoredPayloadIssue<SolanaFeePayerSponsor> = {
  modes: ['solana-fee-payer'],
  family: 'solana',
  relayed: false,
  feePayerSignsLater: true,
  feePayerShortfallOf: (client, row, nodeAnswer) => feePayerShortfallOf(client, row, nodeAnswer),
  async issue(row, client, { policy, nowMs }, sponsor) {
    const feePayer = await sponsor.feePayer(row.chain, SOLANA_MIN_SPONSORED_COST);
    const built = await client.buildPayload(payloadRequestOf(row, feePayer), policy, nowMs);
    if (built.kind === 'ready')
      await sponsor.admit(sponsoredOwnerOf(row), row.chain, built.cost.maxFee + built.cost.rent);
    return built;
  },
};

/** The least a sponsored Solana transaction costs its fee payer: two signatures (its own and the user's). */
const SOLANA_MIN_SPONSORED_COST = 2n * BigInt(LAMPORTS_PER_SIGNATURE);
