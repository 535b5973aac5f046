import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type { RouteLeg, SolanaStepSpec, SponsoredStepSpec } from '@swapgw/contracts';
import { solanaRecipientBytes32 } from '../../solana-bridge';
import { cosmosAccountOfBytes32 } from '../cosmos/noble-cctp';
import { nobleMintSettlementOf } from '../devnet-bridge-settlement';
import type {
  BridgePayout,
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecFamily,
} from '../step-spec-family';
import { bytes32BridgePayout } from '../bridge-payout';
import type { IntegratorFeeTransfer } from '../step-parts';

/**
 * The Solana family's steps: one transaction per leg (SPL transfers need no allowance, so no
 * approves and no permits), the devnet bridge deposit the signer builds or an aggregator's prebuilt
 * transaction. A bridge pays a Solana wallet as the 32-byte recipient of `depositTo`.
 */
export const solanaStepSpecFamily: StepSpecFamily = {
  permits: false,
  stepOf: solanaStepOf,
  bridgePayoutOf: solanaBridgePayoutOf,
  // A deposit towards Noble settles by Noble's mint; towards an EVM chain by its confirmation.
  settlementOf: nobleMintSettlementOf,
};

/** The service's Solana fee payer pays the transaction's fees and rent (sponsored swaps). */
const SOLANA_FEE_PAYER: SponsoredStepSpec = { mode: 'solana-fee-payer' };

/**
 * The leg's transaction: a bridge-swap's deposit to the destination's SwapGatewayRouter, its memo
 * carrying the destination swap (SolanaStepSpec `message`); a bridge deposit to the leg's
 * recipient; or the aggregator's prebuilt transaction, which must have been built for the signer.
 * A first-leg deposit carries the route's integrator fees (SolanaStepSpec `integratorFees`), which
 * the signer pays in the same transaction, before the deposit, on top of `spend`; a prebuilt
 * transaction is handed out as built: it must pay them itself (Jupiter's platform fee, which the
 * plan marks `collectedBy: 'aggregator'`; prebuiltPaysIntegratorFees), else the step is refused
 * (the planner refuses such a build first).
 */
export function solanaStepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec {
  const { step, leg } = input;
  if (step.signing !== 'solana-transaction')
    throw new Error(`Leg ${step.legIndex} on ${leg.chain} is a Solana leg, not signed as ${step.signing}`);
  const fees = input.integratorFees ?? [];
  if (fees.length > 0 && leg.kind !== 'bridge' && !prebuiltPaysIntegratorFees(leg, fees))
    throw new Error(`The ${leg.provider} transaction on ${leg.chain} does not pay these integrator fees`);
  const solana = step.bridgeSwap
    ? bridgeSwapDepositOf(input, chains)
    : leg.kind === 'bridge'
      ? bridgeDepositOf(input, chains)
      : prebuiltTransactionOf(leg, input.signer);
  if (fees.length > 0 && solana.kind === 'bridge-deposit')
    solana.integratorFees = fees.map((fee) => ({ recipient: fee.recipient, amount: fee.amount.toString() }));
  return { kind: leg.kind, call: null, solana, ...(input.sponsored ? { sponsored: SOLANA_FEE_PAYER } : {}) };
}

/**
 * Whether an aggregator's prebuilt transaction pays exactly `fees` itself (Jupiter's platform fee,
 * RouteSolanaTransaction `integratorFee`): one recipient, the same amount. It is signed as built,
 * so no other fee can be added to it.
 */
export function prebuiltPaysIntegratorFees(leg: RouteLeg, fees: IntegratorFeeTransfer[]): boolean {
  const paid = leg.solanaTransaction?.integratorFee;
  return (
    paid !== undefined &&
    fees.length === 1 &&
    fees[0].recipient === paid.recipient &&
    fees[0].amount === BigInt(paid.amount)
  );
}

/**
 * A bridge pays a Solana wallet with `depositTo`: the wallet's public key as the 32-byte recipient,
 * on the bridge's own id of the Solana chain (the leg's destinationBridgeChainId).
 */
export function solanaBridgePayoutOf(leg: RouteLeg, recipient: string): BridgePayout {
  return bytes32BridgePayout(leg, solanaRecipientBytes32(recipient));
}

/** The devnet bridge deposit of `spend` from the leg's SPL mint into the vault, to the leg's recipient. */
function bridgeDepositOf(input: LegStepInput, chains: LegStepChains): SolanaStepSpec {
  const { leg } = input;
  if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
  const mint = mintOf(leg);
  const payout = chains.bridgePayoutOf(leg, input.recipient);
  return {
    kind: 'bridge-deposit',
    mint,
    vault: leg.spender,
    amount: input.spend.toString(),
    destinationChainId: payout.chainId,
    recipient: memoRecipientOf(leg.destinationChain, payout, chains),
  };
}

/**
 * The recipient as the deposit's memo names it, as its chain writes it (solanaBridgeDepositMemo): an
 * EVM address, or on a Cosmos chain (Noble's CCTP end) the account the payout's 32 bytes name under
 * the chain's bech32 prefix (`noble1…`). Bitcoin is THORChain's alone: its payout throws first.
 */
function memoRecipientOf(destinationChain: string, payout: BridgePayout, chains: LegStepChains): string {
  if (payout.encoding === 'address') return payout.recipient;
  const prefix =
    chains.familyOf(destinationChain) === 'cosmos'
      ? chains.descriptorOf?.(destinationChain)?.cosmos?.bech32Prefix
      : undefined;
  const account = prefix === undefined ? undefined : cosmosAccountOfBytes32(prefix, payout.recipient);
  if (account === undefined)
    throw new Error(
      `The Solana bridge pays EVM addresses and Noble accounts; ${destinationChain} has neither`,
    );
  return account;
}

/**
 * The Solana side of a bridge-swap: the bridge deposit of `spend` to the destination's
 * SwapGatewayRouter, its memo carrying the destination swap (as the EVM bridge-swap witness binds it).
 */
function bridgeSwapDepositOf(input: LegStepInput, chains: LegStepChains): SolanaStepSpec {
  const mint = mintOf(input.leg);
  const { destinationChainId, destinationRouter, destinationVenue, ...swap } =
    chains.destinationSwapOf(input);
  const message = { venue: destinationVenue, ...swap };
  return {
    kind: 'bridge-deposit',
    mint,
    vault: input.leg.spender,
    amount: input.spend.toString(),
    destinationChainId,
    recipient: destinationRouter,
    message,
  };
}

function mintOf(leg: RouteLeg): string {
  if (leg.tokenIn.address === null)
    throw new Error(`Bridge leg on ${leg.chain} has no SPL mint for ${leg.tokenIn.symbol}`);
  return leg.tokenIn.address;
}

/** An aggregator's transaction as quoted: 400 when it is missing or was built for another wallet. */
function prebuiltTransactionOf(leg: RouteLeg, signer: string): SolanaStepSpec {
  const prebuilt = leg.solanaTransaction;
  if (!prebuilt) {
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `The ${leg.provider} leg on ${leg.chain} carries no transaction: quote again with the signing wallet as recipient`,
      { field: 'recipient', chain: leg.chain },
    );
  }
  if (prebuilt.signer !== signer) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `The ${leg.provider} transaction on ${leg.chain} was built for ${prebuilt.signer}, not for the signing wallet ${signer}`,
      { field: 'userAddress', chain: leg.chain },
    );
  }
  return {
    kind: 'prebuilt-transaction',
    serializedTransaction: prebuilt.serializedTransaction,
    lastValidBlockHeight: prebuilt.lastValidBlockHeight,
  };
}
