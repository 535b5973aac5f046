import { bech32 } from '@scure/base';
import type { NobleForwardingSpec, RouteLeg } from '@swapgw/contracts';
import type { CosmosChainTraits } from '../../chain-descriptor';
import type { StepSpecChains } from '../step-spec-family';
import { crosschainSwapMemo } from './cosmos-route-msgs';
import { nobleForwardingAddress } from './noble-forwarding';

/**
 * The Noble forwarding account of a route that arrives on Noble by the devnet bridge (a CCTP mint)
 * and continues over IBC (docs/chains.md, "Multi-leg routes"): what the bridge pays, and what the
 * account does with it (x/forwarding sends its balance over `channel` to `recipient` with `memo`).
 * The legs after the bridge, as quoted:
 *  - an `ibc` transfer from Noble to the final recipient's chain: forwarded to the recipient as is;
 *  - an `ibc` transfer to Osmosis, the `osmosis` swap on arrival (spender the crosschain-swaps
 *    contract) and, when the output goes home to another chain, the `ibc` transfer there: forwarded
 *    to the contract with its `wasm` memo, swapping for the final recipient (the contract reaches a
 *    `cosmos1…` receiver over its channel to the Hub), at least the swap leg's minimum scaled to what
 *    the bridge guarantees (`arrives`); a delivery that fails after the swap leaves the output with
 *    the recipient's key on Osmosis.
 * The account's fallback is the final recipient's key on Noble: a forward refunded to the account
 * (a swap below its minimum, a timeout) can be cleared there by anyone (MsgClearAccount).
 */
export function nobleForwardingOf(
  bridge: RouteLeg,
  following: readonly RouteLeg[],
  arrives: bigint,
  finalRecipient: string,
  chains: StepSpecChains,
): NobleForwardingSpec {
  const noble = bridge.destinationChain;
  const [transfer, swap, home] = following;
  if (!noble || transfer?.kind !== 'bridge' || transfer.chain !== noble || !transfer.destinationChain)
    throw new Error(`A forwarding bridge to ${noble} is followed by an IBC transfer from there`);
  const nobleTraits = traitsOf(chains, noble);
  const channel = nobleTraits.ibcChannels[transfer.destinationChain];
  if (!channel) throw new Error(`${noble} has no ICS-20 channel to ${transfer.destinationChain}`);
  const target = (recipient: string, memo: string) => {
    // The fallback: the final recipient's own key on Noble (MsgClearAccount with `fallback` sends a
    // forward that failed there, rather than leaving it to a new forward).
    const fallback = sameKeyOn(finalRecipient, nobleTraits.bech32Prefix);
    const fields = { channel, recipient, fallback, memo };
    return { chain: noble, ...fields, address: nobleForwardingAddress(nobleTraits.bech32Prefix, fields) };
  };
  if (following.length === 1) return target(finalRecipient, '');

  const osmosis = traitsOf(chains, transfer.destinationChain);
  if (
    swap?.kind !== 'swap' ||
    swap.chain !== transfer.destinationChain ||
    !swap.tokenOut.address ||
    swap.spender !== osmosis.crosschainSwapsContract ||
    following.length > 3 ||
    (home !== undefined && (home.kind !== 'bridge' || home.chain !== swap.chain))
  )
    throw new Error(`The legs after the bridge to ${noble} are not an IBC transfer into a swap on arrival`);
  const swapMin = (BigInt(swap.minAmountOut) * arrives) / BigInt(transfer.amountIn);
  return target(
    swap.spender,
    crosschainSwapMemo({
      contract: swap.spender,
      outputDenom: swap.tokenOut.address,
      minOutputAmount: swapMin.toString(),
      receiver: finalRecipient,
      recoveryAddress: sameKeyOn(finalRecipient, osmosis.bech32Prefix),
    }),
  );
}

function traitsOf(chains: StepSpecChains, chain: string): CosmosChainTraits {
  const traits = chains.descriptorOf?.(chain)?.cosmos;
  if (!traits) throw new Error(`Chain ${chain} has no Cosmos traits`);
  return traits;
}

/** The address of the same key under `prefix` (coin type 118 on every chain here). */
function sameKeyOn(address: string, prefix: string): string {
  return bech32.encode(prefix, bech32.decode(address as `${string}1${string}`).words);
}
