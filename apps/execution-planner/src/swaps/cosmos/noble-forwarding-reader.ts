import { Injectable } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import {
  CCTP_DOMAINS,
  cosmosRecipientBytes32,
  nobleForwardingProgress,
  type IbcCounterpartyOf,
  type NobleForwardingProgress,
} from '@swapgw/chains/families';
import type { NobleForwardingSpec } from '@swapgw/contracts';
import { solanaDepositNonce } from '@swapgw/chains/solana-bridge';
import { bech32 } from '@scure/base';
import { EvmBridgeDeposits } from './evm-bridge-deposits';
import { CometClients } from './ibc-packet-reader';

/** Where the route after a forwarding bridge is; null while the deposit's receipt is not readable. */
export abstract class NobleForwardingReader {
  abstract progressOf(
    chain: string,
    txHash: string,
    forwarding: NobleForwardingSpec,
  ): Promise<NobleForwardingProgress | null>;
}

/**
 * NobleForwardingReader over the listed chains: the deposit's `DepositTo` in its EVM receipt (its
 * nonce; the source domain the EVM chain's bridge id, as the relayer burns and mints it), or a
 * Solana deposit's signature (domain 5 and the nonce it derives), then Noble,
 * Osmosis and the Hub read over their CometBFT RPCs (nobleForwardingProgress). The chain the forward
 * reaches is the one at the other end of the account's channel; the output goes home when the
 * memo's receiver is of another chain's bech32 prefix.
 */
@Injectable()
export class CometNobleForwardingReader extends NobleForwardingReader {
  private readonly clients: CometClients;
  private readonly deposits: EvmBridgeDeposits;

  constructor(private readonly registry: ChainRegistry) {
    super();
    this.clients = new CometClients(registry);
    this.deposits = new EvmBridgeDeposits(registry);
  }

  async progressOf(
    chain: string,
    txHash: string,
    forwarding: NobleForwardingSpec,
  ): Promise<NobleForwardingProgress | null> {
    const deposit = await this.depositOf(chain, txHash, forwarding);
    if (!deposit) return null;
    const swapChain = this.counterpartyChain(forwarding.chain, forwarding.channel);
    if (!swapChain) throw new Error(`${forwarding.chain}'s ${forwarding.channel} leads to no listed chain`);
    return nobleForwardingProgress(
      {
        reader: (id) => this.clients.of(id),
        counterpartyOf: (id) => this.counterpartyOf(id),
      },
      { ...deposit, forwarding, swapChain, homeChain: this.homeChainOf(forwarding, swapChain) },
    );
  }

  /**
   * The deposit's CCTP source domain and nonce: a Solana deposit's from its signature (domain 5, the
   * first 32 bytes as the bridge's Solana end numbers deposits; the mint's recipient is checked on
   * Noble), an EVM deposit's from its receipt; null while that has none.
   */
  private async depositOf(
    chain: string,
    txHash: string,
    forwarding: NobleForwardingSpec,
  ): Promise<{ sourceDomain: number; nonce: string } | null> {
    if (this.registry.get(chain).family === 'solana')
      return { sourceDomain: CCTP_DOMAINS.solana, nonce: solanaDepositNonce(txHash).toString() };
    const recipient = cosmosRecipientBytes32(forwarding.address).toLowerCase();
    return this.deposits.depositToOf(
      chain,
      txHash,
      (deposit) => deposit.recipient === recipient,
      forwarding.address,
    );
  }

  private counterpartyChain(chain: string, channel: string): string | undefined {
    const channels = this.registry.get(chain).cosmos?.ibcChannels ?? {};
    return Object.keys(channels).find((id) => channels[id] === channel);
  }

  private counterpartyOf(chain: string): IbcCounterpartyOf {
    return (channel) => {
      const other = this.counterpartyChain(chain, channel);
      return other && this.registry.find(other)?.rpcUrl
        ? { chain: other, rpc: this.clients.of(other) }
        : undefined;
    };
  }

  /** The chain of the swap's receiver when it is not the swap's own chain (the contract sends it home). */
  private homeChainOf(forwarding: NobleForwardingSpec, swapChain: string): string | null {
    const receiver = receiverOf(forwarding.memo);
    if (!receiver) return null;
    const prefix = bech32.decode(receiver as `${string}1${string}`).prefix;
    if (prefix === this.registry.get(swapChain).cosmos?.bech32Prefix) return null;
    const home = this.registry
      .list()
      .find((each) => each.cosmos?.bech32Prefix === prefix && each.id !== forwarding.chain);
    if (!home) throw new Error(`no listed chain has the prefix of ${receiver}`);
    return home.id;
  }
}

/** The crosschain-swaps memo's `osmosis_swap.receiver`, or undefined for a plain forward. */
function receiverOf(memo: string): string | undefined {
  if (!memo) return undefined;
  const parsed = JSON.parse(memo) as { wasm?: { msg?: { osmosis_swap?: { receiver?: unknown } } } };
  const receiver = parsed.wasm?.msg?.osmosis_swap?.receiver;
  return typeof receiver === 'string' ? receiver : undefined;
}
