import { recentFeeData } from '@swapgw/chains/families';
import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type { GasSponsor } from '../../../sponsorship/gas-sponsor';
import type { SponsoredPayloadIssue } from '../../../signing/payload-kinds/sponsored-issue';
import { issueTypedData, sponsoredGasOf } from './sponsored-typed-data';

/**
 * EVM typed data (EIP-2612 permit, Permit2 witness): what the user signs, built from chain state
 * read now; the relayer that will carry it is admitted under the key's budget first.
 */
export const typedDataIssue: SponsoredPayloadIssue<GasSponsor> = {
  modes: ['eip2612-permit', 'permit2-intent'],
  family: 'evm',
  relayed: true,
  feePayerSignsLater: false,
  async issue(row, _client, { chains, policy, nowMs }, sponsor) {
    const lookup = chains.families.evm(row.chain);
    const { spec } = row;
    if (!lookup.ok) return { kind: 'invalid', reason: lookup.reason };
    if (spec.family !== 'evm-typed-data')
      return { kind: 'invalid', reason: `a ${spec.family} step issued as typed data` };
    const { sponsored } = spec;
    const { provider, evmChainId } = lookup.client;
    const fees = await recentFeeData(provider, nowMs);
    const gasEstimate = sponsoredGasOf(sponsored);
    const feePerGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
    const estimatedCostWei = gasEstimate * feePerGas;
    await sponsor.admit(sponsoredOwnerOf(row), row.chain, estimatedCostWei);
    const expiresAtMs = nowMs + policy.ttlMs;
    const typedData = await issueTypedData(provider, evmChainId, row.from, sponsored, expiresAtMs);
    return {
      kind: 'ready',
      payload: { type: 'evm-typed-data', typedData },
      executionHints: {
        gasPaidBy: 'service',
        gasEstimate: gasEstimate.toString(),
        estimatedFeeWei: estimatedCostWei.toString(),
        userPaysWei: '0',
      },
      expiresAtMs,
      cost: { maxFee: estimatedCostWei, rent: 0n, feePerUnit: feePerGas },
      recommendedWallet: 'MetaMask',
    };
  },
};
