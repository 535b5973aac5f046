import type { NobleForwardingSpec } from '@swapgw/contracts';
import type { CometEvent, CosmosStatusClient } from './cosmos-status-client';
import {
  packetProgressOf,
  sentPacketOf,
  sentPacketOfEvent,
  type IbcCounterpartyOf,
  type IbcPacketProgress,
} from './ibc-packet-progress';
import { cctpMessageReceivedTx } from './cctp-receipts';
import { CCTP_MINT_AND_WITHDRAW_EVENT } from './noble-cctp';

/** A Cosmos chain's CometBFT RPC as the forwarding look-ups use it. */
export type ForwardingChainReader = Pick<CosmosStatusClient, 'committedTx' | 'searchTxs' | 'blockEvents'>;

/** Where the funds of a forwarding route that did not reach its recipient are, and how to move them. */
export interface ForwardingFundsAt {
  chain: string;
  address: string;
  /** What holds them: Noble's forwarding account, or the recipient's key on Osmosis (the contract's recovery). */
  holder: 'forwarding-account' | 'recovery-address';
  /** How they can be moved on (MsgClearAccount on Noble; the recipient's own key on Osmosis). */
  recovery: string;
}

/**
 * Where a forwarding route is after its bridge deposit (docs/chains.md, "Multi-leg routes"): the
 * bridge's payout on Noble (the mint to the forwarding account), the account's forward over IBC to
 * Osmosis (sent by x/forwarding's EndBlocker in the payout's block), the swap on arrival (the
 * forward's acknowledgement: an error acknowledgement refunds the forwarding account) and, when the
 * output goes home to another chain, the contract's transfer there.
 */
export interface NobleForwardingProgress {
  /** Noble's tx that paid the forwarding account (the bridge's mint); null until it is read. */
  payoutTxHash: string | null;
  /** The packets so far, in route order: the forward (Noble → Osmosis), then the output's way home. */
  packets: IbcPacketProgress[];
  /** `delivered`: the recipient holds the output; `failed`: it never will without a recovery. */
  outcome: 'pending' | 'delivered' | 'failed';
  failure: { message: string; fundsAt: ForwardingFundsAt } | null;
}

/** What the look-up needs beyond the chains: the deposit's CCTP message and the route's shape. */
export interface ForwardingLookup {
  /** The bridge's CCTP source domain and nonce of the deposit (its DepositTo). */
  sourceDomain: number;
  nonce: string;
  forwarding: NobleForwardingSpec;
  /** The Osmosis chain the forward reaches, and whether the swap's output goes home from there. */
  swapChain: string;
  homeChain: string | null;
}

/** One listed Cosmos chain's reader and its channels' counterparties. */
export interface ForwardingChains {
  reader(chain: string): ForwardingChainReader;
  counterpartyOf(chain: string): IbcCounterpartyOf;
}

const attributeOf = (event: CometEvent, key: string): string | undefined =>
  event.attributes.find((attribute) => attribute.key === key)?.value;

/** A typed event's JSON attribute value, decoded (a plain string when it is not JSON). */
function jsonAttribute(event: CometEvent, key: string): unknown {
  const value = attributeOf(event, key);
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The crosschain-swaps memo's recovery address (`on_failed_delivery.local_recovery_addr`), if any. */
function recoveryAddressOf(memo: string): string | undefined {
  try {
    const parsed = JSON.parse(memo) as {
      wasm?: { msg?: { osmosis_swap?: { on_failed_delivery?: { local_recovery_addr?: unknown } } } };
    };
    const address = parsed.wasm?.msg?.osmosis_swap?.on_failed_delivery?.local_recovery_addr;
    return typeof address === 'string' ? address : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a forwarding route's progress from its chains, as an explorer watching the relayers would:
 *  1. Noble's tx whose `circle.cctp.v1.MessageReceived` names the deposit's source domain and nonce
 *     (`tx_search`), its `MintAndWithdraw` to the forwarding account;
 *  2. the `send_packet` of the forwarding account over its channel among that block's FinalizeBlock
 *     events (`block_results`: x/forwarding forwards at the block's end). None there: the forward
 *     could not be sent and the funds stay on the account;
 *  3. that packet on Osmosis (received, acknowledged, or timed out / refused: refunded to the
 *     forwarding account, which x/forwarding does not forward again by itself);
 *  4. for a route home, the transfer the contract sent in the forward's receiving tx, followed the
 *     same way (refunded to the recipient's key on Osmosis, crosschain-swaps' recovery address).
 * Upstream failures are thrown: the caller asks again later.
 */
export async function nobleForwardingProgress(
  chains: ForwardingChains,
  lookup: ForwardingLookup,
): Promise<NobleForwardingProgress> {
  const { forwarding } = lookup;
  const noble = chains.reader(forwarding.chain);
  const progress: NobleForwardingProgress = {
    payoutTxHash: null,
    packets: [],
    outcome: 'pending',
    failure: null,
  };
  const received = await cctpMessageReceivedTx(noble, lookup.sourceDomain, lookup.nonce);
  if (!received) return progress;
  const mint = (received.tx_result.events ?? []).find((e) => e.type === CCTP_MINT_AND_WITHDRAW_EVENT);
  const mintRecipient = mint ? jsonAttribute(mint, 'mint_recipient') : undefined;
  if (mintRecipient !== forwarding.address)
    throw new Error(`the mint ${received.hash} paid ${String(mintRecipient)}, not ${forwarding.address}`);
  progress.payoutTxHash = received.hash;

  const atForwardingAccount: ForwardingFundsAt = {
    chain: forwarding.chain,
    address: forwarding.address,
    holder: 'forwarding-account',
    recovery: forwarding.fallback
      ? `anyone may sign MsgClearAccount for ${forwarding.address}: with fallback true it sends the funds to ${forwarding.fallback} (the recipient's key on Noble), without it forwards them again`
      : `anyone may sign MsgClearAccount for ${forwarding.address}: it forwards the funds again`,
  };
  const blockEvents = await noble.blockEvents(Number(received.height));
  if (blockEvents === null) return progress;
  const forwarded = blockEvents
    .filter((event) => event.type === 'send_packet')
    .filter((event) => attributeOf(event, 'packet_src_channel') === forwarding.channel)
    .find((event) => {
      try {
        const data = JSON.parse(attributeOf(event, 'packet_data') ?? '') as { sender?: unknown };
        return data.sender === forwarding.address;
      } catch {
        return false;
      }
    });
  const forwardSent = forwarded && sentPacketOfEvent(forwarded);
  if (!forwardSent)
    return {
      ...progress,
      outcome: 'failed',
      failure: {
        message: `x/forwarding did not forward the payout over ${forwarding.channel} at the end of its block; the USDC stays on the forwarding account`,
        fundsAt: atForwardingAccount,
      },
    };

  const forward = await packetProgressOf(noble, chains.counterpartyOf(forwarding.chain), forwardSent);
  progress.packets.push(forward);
  if (forward.refunded)
    return {
      ...progress,
      outcome: 'failed',
      failure: {
        message:
          forward.state === 'timed_out'
            ? `the forward's IBC packet to ${lookup.swapChain} timed out; its USDC was refunded to the forwarding account`
            : `the swap on arrival on ${lookup.swapChain} failed (${forward.acknowledgementError}); the forward's USDC was refunded to the forwarding account`,
        fundsAt: atForwardingAccount,
      },
    };
  if (forward.state !== 'acknowledged') return progress;
  if (lookup.homeChain === null) return { ...progress, outcome: 'delivered' };

  // The swap ran: the contract sent its output home in the same tx that received the forward.
  const osmosis = chains.reader(lookup.swapChain);
  const recovery = recoveryAddressOf(forwarding.memo);
  const atRecovery: ForwardingFundsAt | null = recovery
    ? {
        chain: lookup.swapChain,
        address: recovery,
        holder: 'recovery-address',
        recovery: `the swap's output is held for ${recovery}, the recipient's own key on ${lookup.swapChain}`,
      }
    : null;
  const receiving = forward.receivedTxHash ? await osmosis.committedTx(forward.receivedTxHash) : null;
  if (!receiving) return progress;
  const homeSent = sentPacketOf(receiving);
  if (!homeSent) throw new Error(`the forward's receipt ${receiving.hash} sent nothing home`);
  const home = await packetProgressOf(osmosis, chains.counterpartyOf(lookup.swapChain), homeSent);
  progress.packets.push(home);
  if (home.refunded && atRecovery)
    return {
      ...progress,
      outcome: 'failed',
      failure: {
        message:
          home.state === 'timed_out'
            ? `the swap's output did not reach ${lookup.homeChain}: its IBC packet timed out`
            : `the swap's output was refused on ${lookup.homeChain} (${home.acknowledgementError})`,
        fundsAt: atRecovery,
      },
    };
  if (home.refunded) throw new Error(`the output's transfer home was refunded with no recovery address`);
  return home.state === 'acknowledged' ? { ...progress, outcome: 'delivered' } : progress;
}
