import { bech32 } from '@scure/base';
import {
  CodedError,
  ErrorCodes,
  type CosmosTxSpec,
  type RouteLeg,
  type SponsoredStepSpec,
} from '@swapgw/contracts';
import type { ChainFamily, CosmosChainTraits } from '../../chain-descriptor';
import type {
  BridgePayout,
  FamilySettlement,
  SettledLeg,
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecFamily,
} from '../step-spec-family';
import { bytes32BridgePayout } from '../bridge-payout';
import { DEVNET_BRIDGE_PROVIDER } from '../devnet-bridge-settlement';
import { ibcSwapOnArrivalMsg, osmosisSwapMsg } from './cosmos-route-msgs';
import { cosmosRecipientBytes32, depositForBurnMsg } from './noble-cctp';
import { nobleForwardingOf } from './noble-forwarding-route';

/**
 * The Cosmos family's steps: one transaction per step, its messages written out here from the legs
 * quote-service's `osmosis` provider writes (cosmos-route-msgs.ts); signer-surface reads the
 * account's number and sequence when it issues the SignDoc. No approves, no permits (a bank balance
 * is spent by its owner's signature). Every step's fee is paid by the service's fee granter
 * (`cosmos-fee-grant`, gasPayment `user` included): a wallet holding only the coin it swaps can swap,
 * and loses exactly what it swaps.
 */
export const cosmosStepSpecFamily: StepSpecFamily = {
  permits: false,
  runsSteplessLegs: true,
  stepOf: cosmosStepOf,
  bridgePayoutOf: cosmosBridgePayoutOf,
  forwardingOf: nobleForwardingOf,
  settlementOf: cosmosSettlementOf,
};

const COSMOS_FEE_GRANT: SponsoredStepSpec = { mode: 'cosmos-fee-grant' };

/** quote-service's provider of ICS-20 transfers between Cosmos chains. */
export const IBC_PROVIDER = 'ibc';

/** The devnet bridge, whose Cosmos end is Noble's CCTP: its legs from Noble are a MsgDepositForBurn. */
export { DEVNET_BRIDGE_PROVIDER };

/**
 * A Cosmos `ibc` leg's MsgTransfer is settled by IBC: done when its packet is acknowledged. A
 * devnet-bridge burn on a Cosmos chain (Noble's MsgDepositForBurn) towards Solana or Bitcoin is
 * settled by the payout there: done when the bridge's Solana or Bitcoin end released the burn's
 * nonce (the planner's CctpMintReader).
 */
function cosmosSettlementOf(
  leg: SettledLeg,
  familyOf: (chain: string) => ChainFamily,
): FamilySettlement | undefined {
  if (leg.provider === IBC_PROVIDER) return 'ibc';
  if (
    leg.provider === DEVNET_BRIDGE_PROVIDER &&
    leg.destinationChain !== undefined &&
    (familyOf(leg.destinationChain) === 'solana' || familyOf(leg.destinationChain) === 'bitcoin')
  )
    return 'cctp';
  return undefined;
}

/**
 * The providers whose Cosmos legs are written out here: quote-service's `ibc` transfers and
 * `osmosis` swaps, and the devnet bridge's burns on Noble.
 */
const COSMOS_BUILT_PROVIDERS = new Set([IBC_PROVIDER, 'osmosis', DEVNET_BRIDGE_PROVIDER]);

/**
 * The step of a Cosmos leg:
 *  - an `ibc` bridge leg into an `osmosis` swap on its destination (the split marks it a
 *    bridge-swap): one MsgTransfer whose crosschain-swaps memo swaps on arrival for the final
 *    recipient, at least the swap leg's minimum scaled to what is sent; a failed swap leaves the
 *    coin at the wallet's own address on Osmosis (its key's address there), a timed-out packet
 *    refunds the sender; the packet times out at the swap's deadline; when the contract sends the
 *    output on over IBC to a chain where the route goes on (ATOM → USDC on Noble, then burnt to
 *    Solana), it pays the wallet's own account there (swapReceiverOf);
 *  - an `osmosis` swap leg on Osmosis: MsgSwapExactAmountIn over the pools the quote priced;
 *  - a `devnet-bridge` leg from Noble: CCTP's MsgDepositForBurn of what the leg spends, its
 *    destination_domain the destination's CCTP domain (cctpDomainOfBridgeChain) and its
 *    mint_recipient the recipient there as 32 bytes.
 */
export function cosmosStepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec {
  const { step, leg } = input;
  if (step.signing !== 'cosmos-sign-direct')
    throw new Error(`Leg ${step.legIndex} on ${leg.chain} is a Cosmos leg, not signed as ${step.signing}`);
  // Legs whose messages this family writes itself; another provider's (skip-go's, whose messages
  // come from its own /msgs API) are quoted but not built yet: the build is refused, not guessed.
  for (const built of [leg, ...(step.bridgeSwap && input.next ? [input.next] : [])])
    if (!COSMOS_BUILT_PROVIDERS.has(built.provider))
      throw new CodedError(
        ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
        `Cosmos legs of ${built.provider} are quoted, not yet built: build a route of another provider`,
        { chains: [built.chain], provider: built.provider },
      );
  const cosmos: CosmosTxSpec = {
    msgs: [messageOf(input, chains)],
    ...(input.signerPublicKey !== undefined ? { signerPublicKey: input.signerPublicKey } : {}),
  };
  return { kind: leg.kind, call: null, cosmos, sponsored: COSMOS_FEE_GRANT };
}

function messageOf(input: LegStepInput, chains: LegStepChains): CosmosTxSpec['msgs'][number] {
  const { leg, next, spend, minOut, signer } = input;
  if (leg.kind === 'swap') {
    const poolIds = leg.poolIds ?? [];
    const path = leg.path ?? [];
    if (poolIds.length === 0 || poolIds.length !== path.length - 1)
      throw new Error(`Osmosis leg ${input.step.legIndex} has no pool for each hop of its path`);
    return osmosisSwapMsg({
      swap: { ...leg, amountIn: spend.toString(), minAmountOut: minOut.toString() },
      sender: signer,
      routes: poolIds.map((poolId, hop) => ({ poolId, tokenOutDenom: path[hop + 1] })),
    });
  }
  if (leg.kind === 'bridge' && leg.provider === DEVNET_BRIDGE_PROVIDER) {
    if (!leg.tokenIn.address) throw new Error(`Bridge leg on ${leg.chain} names no denom to burn`);
    // The recipient as the destination's bridge end is paid (a 20-byte EVM address, a Solana key),
    // and the destination's bridge id as a CCTP domain.
    const payout = chains.bridgePayoutOf(leg, input.recipient);
    return depositForBurnMsg({
      from: signer,
      amount: spend,
      destinationBridgeChainId: payout.chainId,
      recipient: payout.recipient,
      burnToken: leg.tokenIn.address,
    });
  }
  if (leg.kind === 'bridge' && input.step.bridgeSwap && next) {
    const source = traitsOf(chains, leg.chain);
    const destination = traitsOf(chains, next.chain);
    const sourceChannel = source.ibcChannels[next.chain];
    if (!sourceChannel) throw new Error(`${leg.chain} has no ICS-20 channel to ${next.chain}`);
    const swapMin = (BigInt(next.minAmountOut) * spend) / BigInt(leg.amountIn);
    return ibcSwapOnArrivalMsg({
      transfer: { ...leg, amountIn: spend.toString() },
      swap: { ...next, minAmountOut: swapMin.toString() },
      sourceChannel,
      sender: signer,
      receiver: swapReceiverOf(input, chains),
      recoveryAddress: samePrefixedKey(signer, destination.bech32Prefix),
      timeoutTimestampNs: input.deadline * 1_000_000_000n,
    });
  }
  throw new Error(
    `Leg ${input.step.legIndex} on ${leg.chain}: a ${leg.kind} leg of ${leg.provider} has no Cosmos step`,
  );
}

/**
 * Who the crosschain-swaps contract pays the swap's output to: the route's recipient when the swap,
 * or the IBC transfer the contract sends its output on with (the leg after the swap, from Osmosis),
 * ends the route; when a leg follows that transfer (a burn on Noble the wallet signs next), the
 * wallet's own account on the transfer's destination, the same key under that chain's prefix.
 */
function swapReceiverOf(input: LegStepInput, chains: LegStepChains): string {
  const following = input.following ?? [];
  const [swap, onward] = following;
  const to = onward?.kind === 'bridge' && onward.chain === swap?.chain ? onward.destinationChain : undefined;
  if (to === undefined || chains.familyOf(to) !== 'cosmos' || following.length <= 2)
    return input.finalRecipient;
  return samePrefixedKey(input.signer, traitsOf(chains, to).bech32Prefix);
}

function traitsOf(chains: LegStepChains, chain: string): CosmosChainTraits {
  const traits = chains.descriptorOf?.(chain)?.cosmos;
  if (!traits) throw new Error(`Chain ${chain} has no Cosmos traits`);
  return traits;
}

/** The address of the same key on a chain of `prefix` (both chains derive accounts alike: coin type 118). */
function samePrefixedKey(address: string, prefix: string): string {
  const { words } = bech32.decode(address as `${string}1${string}`);
  return bech32.encode(prefix, words);
}

/**
 * The devnet bridge pays a Cosmos account (on Noble, through its CCTP end) with `depositTo`: the
 * account's 20 bytes left-padded to 32, as CCTP's mint_recipient writes a Noble address. IBC's
 * transfers need none: they are their source's step.
 */
export function cosmosBridgePayoutOf(leg: RouteLeg, recipient: string): BridgePayout {
  return bytes32BridgePayout(leg, cosmosRecipientBytes32(recipient));
}
