import { ChainFamily, revertReasonOf, shortMessageOf, SPONSORED_EVM_GAS } from '@swapgw/chains';
import {
  LAMPORTS_PER_SIGNATURE,
  PayloadBuild,
  PayloadPolicy,
  recentFeeData,
  SigningChainClient,
  StepPayloadRequest,
} from '@swapgw/chains/families';
import { CodedError, ErrorCatalog, SponsorshipMode } from '@swapgw/contracts';
import { SignerChains } from '../../chains/signer-chains';
import { SigningRequestEntity, sponsoredOwnerOf } from '../signing-request.entity';
import type { GasSponsor } from './gas-sponsor';
import { issueTypedData, sponsoredGasOf } from './sponsored-payloads';

/** What issuing a sponsored step's payload needs besides the step and its chain's client. */
export interface SponsoredIssueContext {
  chains: SignerChains;
  sponsor: GasSponsor;
  policy: PayloadPolicy;
  nowMs: number;
}

/**
 * How the payload of a step is issued under one kind of sponsorship, each over its own family's
 * chains (`family`): the issuer looks the kind up by the step's `sponsored.mode` and never asks
 * which family the chain is. May set the row's sponsorship fields (gasDropId).
 */
export interface SponsoredPayloadIssue {
  readonly family: ChainFamily;
  /**
   * What the user signs is carried on chain by a relayer's transaction (typed data): the relayers
   * send, resend and fee-bump it, not the confirmation tracker.
   */
  readonly relayed: boolean;
  /** The service's fee payer signs the user's transaction after it is checked (then records and sends it). */
  readonly feePayerSignsLater: boolean;
  issue(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild>;
}

/** The step's request to its chain's family: who signs, and the spec of its family. */
export function payloadRequestOf(row: SigningRequestEntity, feePayer?: string): StepPayloadRequest {
  return {
    from: row.from,
    call: row.call,
    solana: row.solana,
    bitcoin: row.bitcoin,
    ...(feePayer ? { feePayer } : {}),
  };
}

/**
 * EVM typed data (EIP-2612 permit, Permit2 witness): what the user signs, built from chain state
 * read now; the relayer that will carry it is admitted under the key's budget first.
 */
const typedDataIssue: SponsoredPayloadIssue = {
  family: 'evm',
  relayed: true,
  feePayerSignsLater: false,
  async issue(row, _client, { chains, sponsor, policy, nowMs }) {
    const lookup = chains.families.evm(row.chain);
    const sponsored = row.sponsored;
    if (!lookup.ok) return { kind: 'invalid', reason: lookup.reason };
    if (!sponsored) return { kind: 'invalid', reason: 'a typed-data step without its sponsorship' };
    const { provider, evmChainId } = lookup.client;
    const fees = await recentFeeData(provider);
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

/**
 * The user's own EVM transaction: the service first sends the most it can cost (a gas drop), so the
 * wallet's native balance after it is never lower than before.
 */
const coveredTransactionIssue: SponsoredPayloadIssue = {
  family: 'evm',
  relayed: false,
  feePayerSignsLater: false,
  async issue(row, client, { sponsor, policy, nowMs }) {
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

/**
 * Solana: one of the service's fee payers is named as the transaction's fee payer, and the step is
 * admitted under the key's daily budget (lamports) with what the transaction can cost it.
 */
const solanaFeePayerIssue: SponsoredPayloadIssue = {
  family: 'solana',
  relayed: false,
  feePayerSignsLater: true,
  async issue(row, client, { sponsor, policy, nowMs }) {
    const feePayer = await sponsor.solanaFeePayer(row.chain, SOLANA_MIN_SPONSORED_COST);
    const built = await client.buildPayload(payloadRequestOf(row, feePayer), policy, nowMs);
    if (built.kind === 'ready')
      await sponsor.admitSolana(sponsoredOwnerOf(row), row.chain, built.cost.maxFee + built.cost.rent);
    return built;
  },
};

/**
 * Bitcoin: a UTXO of one of the service's fee wallets is held for the step and spent beside the
 * user's; its input pays the whole miner fee, so the user's balance drops by the payment alone. The
 * step is admitted under the key's daily budget (satoshis) with that fee. The hold outlives the
 * payload (a refresh of the same step gets the same UTXO back) and is let go when nothing could be
 * built on it.
 */
const bitcoinFeeWalletIssue: SponsoredPayloadIssue = {
  family: 'bitcoin',
  relayed: false,
  feePayerSignsLater: true,
  async issue(row, client, { sponsor, policy, nowMs }) {
    const feeInput = await sponsor.holdBitcoinFeeInput(
      row.chain,
      row.swapId,
      row.stepIndex,
      BITCOIN_MIN_FEE_INPUT_SATS,
      nowMs + policy.ttlMs + BITCOIN_FEE_INPUT_HOLD_MARGIN_MS,
    );
    const release = () => sponsor.releaseBitcoinFeeInput(row.chain, row.swapId, row.stepIndex);
    try {
      const built = await client.buildPayload(
        { ...payloadRequestOf(row), bitcoinFeeInput: feeInput },
        policy,
        nowMs,
      );
      if (built.kind !== 'ready') {
        await release();
        return built;
      }
      await sponsor.admitBitcoin(sponsoredOwnerOf(row), row.chain, built.cost.maxFee);
      // Which fee wallet signs the fee input once the user's signatures are checked.
      built.executionHints.feeWallet = feeInput.address;
      return built;
    } catch (error) {
      await release();
      throw error;
    }
  },
};

/**
 * The least a fee wallet UTXO held for a step is worth: the miner fee of a large step (20 user
 * inputs, about 1,500 vB) at 10 sat/vB, plus its change above dust. A step that needs more is
 * refused by the PSBT builder (fee-utxo-too-small) and its hold let go.
 */
const BITCOIN_MIN_FEE_INPUT_SATS = 20_000n;
/** How long a held fee input outlives its payload: a signature arriving at the deadline still finds it. */
const BITCOIN_FEE_INPUT_HOLD_MARGIN_MS = 60_000;

/** Each sponsorship mode's way of issuing a payload. */
export const SPONSORED_PAYLOAD_ISSUES: Record<SponsorshipMode, SponsoredPayloadIssue> = {
  'eip2612-permit': typedDataIssue,
  'permit2-intent': typedDataIssue,
  'covered-transaction': coveredTransactionIssue,
  'solana-fee-payer': solanaFeePayerIssue,
  'bitcoin-fee-wallet': bitcoinFeeWalletIssue,
};

/** True when the step's transaction is a relayer's (typed data the user signed), not one the user signed. */
export function carriedByRelayer(row: Pick<SigningRequestEntity, 'sponsored'>): boolean {
  return row.sponsored ? SPONSORED_PAYLOAD_ISSUES[row.sponsored.mode].relayed : false;
}

/** True when the service's fee payer co-signs the step's transaction once the user's signature is checked. */
export function feePayerSignsLater(row: Pick<SigningRequestEntity, 'sponsored'>): boolean {
  return row.sponsored ? SPONSORED_PAYLOAD_ISSUES[row.sponsored.mode].feePayerSignsLater : false;
}

/** The least a sponsored Solana transaction costs its fee payer: two signatures (its own and the user's). */
const SOLANA_MIN_SPONSORED_COST = 2n * BigInt(LAMPORTS_PER_SIGNATURE);

/** A dependency refusal that makes the step unavailable (503 of the catalog), not the user's error. */
export function isServiceUnavailable(error: unknown): error is CodedError {
  return error instanceof CodedError && ErrorCatalog[error.code as keyof typeof ErrorCatalog]?.status === 503;
}
