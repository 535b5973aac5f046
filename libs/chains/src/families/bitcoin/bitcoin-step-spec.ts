import type { BitcoinStepSpec, RouteLeg, SponsoredStepSpec } from '@swapgw/contracts';
import { bitcoinBridgeDepositMemo, bitcoinRecipientToBytes32 } from '../../bitcoin-bridge';
import { bytes32BridgePayout } from '../bridge-payout';
import { DEVNET_BRIDGE_PROVIDER, nobleMintSettlementOf } from '../devnet-bridge-settlement';
import { thorchainAffiliatesTake, thorchainLegMemo } from './thorchain-memo';
import type {
  BridgePayout,
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecChains,
  StepSpecFamily,
} from '../step-spec-family';

/**
 * The Bitcoin family's steps: one PSBT per leg, a deposit to THORChain's inbound address whose
 * OP_RETURN memo (THORChain's swap memo) names where THORChain pays and the least it may pay. No
 * approves, no permits (a UTXO spend is authorized by its own signature). BTC moves only through
 * THORChain (docs/chains.md): no bridge contract's `depositTo` pays a Bitcoin wallet, THORChain's
 * router deposit does (evm-step-spec), so a bridge payout into Bitcoin is refused, but for the
 * devnet bridge's Cosmos end (Noble's CCTP-shaped burn), which THORChain does not reach.
 */
export const bitcoinStepSpecFamily: StepSpecFamily = {
  permits: false,
  stepOf: bitcoinStepOf,
  bridgePayoutOf: bitcoinBridgePayoutOf,
  // A devnet-bridge deposit towards Noble settles by Noble's mint; THORChain's by THORChain (its own lane).
  settlementOf: nobleMintSettlementOf,
};

/**
 * The service's fee wallet adds an input that pays the whole miner fee, on every build: a PSBT
 * whose miner fee comes out of the user's own change is not offered (gasPayment `user` included),
 * so a wallet's BTC always drops by exactly the swap amount.
 */
const BITCOIN_FEE_WALLET: SponsoredStepSpec = { mode: 'bitcoin-fee-wallet' };

/**
 * The leg's deposit: `spend` satoshis to THORChain's vault (the leg's spender), THORChain's swap memo
 * naming the asset its quote priced, the leg's recipient (the next chain's wallet, or the final
 * recipient) and the leg's minimum out as the limit: below it THORChain refunds the BTC instead of paying. A first leg carries
 * the route's integrator fees (BitcoinStepSpec `integratorFees`): the PSBT pays each recipient an
 * output of its amount beside the deposit, on top of `spend`; fees the memo names as affiliates
 * (THORNames, thor1 addresses) are instead part of the deposit, which THORChain takes them from.
 */
export function bitcoinStepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec {
  const { step, leg } = input;
  if (step.signing !== 'bitcoin-psbt')
    throw new Error(`Leg ${step.legIndex} on ${leg.chain} is a Bitcoin leg, not signed as ${step.signing}`);
  if (
    leg.kind === 'bridge' &&
    leg.provider === DEVNET_BRIDGE_PROVIDER &&
    leg.destinationChain &&
    chains.familyOf(leg.destinationChain) === 'cosmos'
  )
    return nobleBridgeDepositOf(input, leg.destinationChain);
  if (leg.kind !== 'bridge' || !leg.destinationChain || !leg.thorchain)
    throw new Error(`Leg ${step.legIndex} on ${leg.chain}: Bitcoin legs are THORChain deposits`);
  const fees = input.integratorFees ?? [];
  // Fees THORChain takes as the memo's affiliates ride in the deposit; others are outputs beside it.
  const takenByThorchain = thorchainAffiliatesTake(leg.thorchain, fees);
  const deposit = takenByThorchain ? fees.reduce((sum, fee) => sum + fee.amount, input.spend) : input.spend;
  const bitcoin: BitcoinStepSpec = {
    kind: 'bridge-deposit',
    vault: leg.spender,
    amount: deposit.toString(),
    memo: thorchainLegMemo(
      { thorchain: leg.thorchain, tokenOut: leg.tokenOut },
      input.recipient,
      input.minOut,
    ),
    ...(input.signerPublicKey !== undefined ? { signerPublicKey: input.signerPublicKey } : {}),
  };
  if (fees.length > 0 && !takenByThorchain)
    bitcoin.integratorFees = fees.map((fee) => ({ recipient: fee.recipient, amount: fee.amount.toString() }));
  return { kind: leg.kind, call: null, bitcoin, sponsored: BITCOIN_FEE_WALLET };
}

/**
 * A deposit into the devnet bridge's Bitcoin end towards Noble's CCTP end: `spend` sats to the vault
 * with the bridge's memo `=:<noble chain>.USDC:<noble1 recipient>:<min out>` (bitcoinBridgeDepositMemo);
 * under the minimum the vault refunds the deposit to its first input's address. Integrator fees are
 * outputs beside the deposit.
 */
function nobleBridgeDepositOf(input: LegStepInput, destinationChain: string): LegStepSpec {
  const { leg } = input;
  const fees = input.integratorFees ?? [];
  const bitcoin: BitcoinStepSpec = {
    kind: 'bridge-deposit',
    vault: leg.spender,
    amount: input.spend.toString(),
    memo: bitcoinBridgeDepositMemo({
      destinationChain,
      asset: leg.tokenOut.symbol,
      recipient: input.recipient,
      minAmountOut: input.minOut,
    }),
    ...(input.signerPublicKey !== undefined ? { signerPublicKey: input.signerPublicKey } : {}),
  };
  if (fees.length > 0)
    bitcoin.integratorFees = fees.map((fee) => ({ recipient: fee.recipient, amount: fee.amount.toString() }));
  return { kind: leg.kind, call: null, bitcoin, sponsored: BITCOIN_FEE_WALLET };
}

/**
 * No bridge contract pays a Bitcoin wallet: BTC arrives through THORChain's router deposit. The one
 * exception is a burn on a Cosmos chain (Noble's MsgDepositForBurn, the devnet bridge's Cosmos end):
 * its `mint_recipient` is the Bitcoin address as 32 bytes (bitcoinRecipientToBytes32), its domain
 * Bitcoin's (DEVNET_BITCOIN_CCTP_DOMAIN, from the leg's destinationBridgeChainId).
 */
export function bitcoinBridgePayoutOf(
  leg: RouteLeg,
  recipient: string,
  chains: StepSpecChains,
): BridgePayout {
  if (chains.familyOf(leg.chain) === 'cosmos')
    return bytes32BridgePayout(leg, bitcoinRecipientToBytes32(recipient));
  throw new Error(
    `Leg on ${leg.chain} (${leg.provider}): no bridge pays ${leg.destinationChain ?? 'Bitcoin'} through depositTo; BTC is THORChain's`,
  );
}
