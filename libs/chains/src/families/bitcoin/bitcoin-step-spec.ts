import type { BitcoinStepSpec, RouteLeg, SponsoredStepSpec } from '@swapgw/contracts';
import { bitcoinBridgeDepositMemo, bitcoinRecipientToBytes32 } from '../../bitcoin-bridge';
import { thorchainLegMemo } from './thorchain-memo';
import type {
  BridgePayout,
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecFamily,
} from '../step-spec-family';
import { bytes32BridgePayout } from '../bridge-payout';

/**
 * The Bitcoin family's steps: one PSBT per leg, a deposit into the bridge's vault whose OP_RETURN
 * memo names where the bridge pays and the least it may pay (THORChain's swap memo). No approves,
 * no permits (a UTXO spend is authorized by its own signature). A bridge pays a Bitcoin wallet with
 * `depositTo`, the address's witness program as the 32-byte recipient.
 */
export const bitcoinStepSpecFamily: StepSpecFamily = {
  permits: false,
  stepOf: bitcoinStepOf,
  bridgePayoutOf: bitcoinBridgePayoutOf,
};

/**
 * The service's fee wallet adds an input that pays the whole miner fee, on every build: a PSBT
 * whose miner fee comes out of the user's own change is not offered (gasPayment `user` included),
 * so a wallet's BTC always drops by exactly the swap amount.
 */
const BITCOIN_FEE_WALLET: SponsoredStepSpec = { mode: 'bitcoin-fee-wallet' };

/**
 * The leg's deposit: `spend` satoshis to the vault (the leg's spender), the memo naming the leg's
 * destination chain and token, its recipient (the next chain's wallet, or the final recipient) and
 * the leg's minimum out: below it the bridge refunds the BTC instead of paying. A first leg carries
 * the route's integrator fees (BitcoinStepSpec `integratorFees`): the PSBT pays each recipient an
 * output of its amount beside the deposit, on top of `spend`.
 */
export function bitcoinStepOf(input: LegStepInput, _chains: LegStepChains): LegStepSpec {
  const { step, leg } = input;
  if (step.signing !== 'bitcoin-psbt')
    throw new Error(`Leg ${step.legIndex} on ${leg.chain} is a Bitcoin leg, not signed as ${step.signing}`);
  if (leg.kind !== 'bridge' || !leg.destinationChain)
    throw new Error(`Leg ${step.legIndex} on ${leg.chain}: Bitcoin legs are bridge deposits`);
  const bitcoin: BitcoinStepSpec = {
    kind: 'bridge-deposit',
    vault: leg.spender,
    amount: input.spend.toString(),
    memo: depositMemoOf(input, leg.destinationChain),
    ...(input.signerPublicKey !== undefined ? { signerPublicKey: input.signerPublicKey } : {}),
  };
  const fees = input.integratorFees ?? [];
  if (fees.length > 0)
    bitcoin.integratorFees = fees.map((fee) => ({ recipient: fee.recipient, amount: fee.amount.toString() }));
  return { kind: leg.kind, call: null, bitcoin, sponsored: BITCOIN_FEE_WALLET };
}

/**
 * The deposit's OP_RETURN memo: THORChain's swap memo for a `thorchain` leg (the asset, streaming
 * and affiliate its quote priced, the recipient, the leg's minimum in THORChain's 1e8 units as the
 * limit); the devnet bridge's memo otherwise.
 */
function depositMemoOf({ leg, recipient, minOut }: LegStepInput, destinationChain: string): string {
  if (leg.thorchain)
    return thorchainLegMemo({ thorchain: leg.thorchain, tokenOut: leg.tokenOut }, recipient, minOut);
  return bitcoinBridgeDepositMemo({
    destinationChain,
    asset: leg.tokenOut.symbol,
    recipient,
    minAmountOut: minOut,
  });
}

/** A bridge pays a Bitcoin wallet with `depositTo`: its witness program as the 32-byte recipient. */
export function bitcoinBridgePayoutOf(leg: RouteLeg, recipient: string): BridgePayout {
  return bytes32BridgePayout(leg, bitcoinRecipientToBytes32(recipient));
}
