import { Contract, EventLog, getAddress, HDNodeWallet, Interface, JsonRpcProvider, Wallet } from 'ethers';
import {
  type BitcoinBridgeTerms,
  inboundHash,
  isBitcoinBridgeRecipient,
  parseThorchainOutboundMemo,
  parseThorchainSwapMemo,
  type ThorchainSwapMemo,
  thorchainAffiliatesBps,
  satsForUsdc,
  sameThorchainAsset,
  thorchainOutboundMemo,
  thorchainRefundMemo,
  type BitcoinNetworkName,
} from '@swapgw/chains/bitcoin-bridge';
import { THORCHAIN_ROUTER_ABI } from '../contracts/abis';
import { evmRpc } from '../evm-json-rpc';
import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';
import { RelayerLogger } from './bridge-relayer';

/** THORChain's Bitcoin dust threshold (its bifrost ignores smaller inbounds and outbounds): 10,000 sats. */
export const THORCHAIN_BTC_DUST_THRESHOLD = 10_000n;

/** The Bitcoin end's terms a deposit into Bitcoin through THORChain is paid at. */
export type ThorchainBitcoinTerms = Pick<BitcoinBridgeTerms, 'usdcPerBtc' | 'feeBps' | 'outboundFeeSats'>;

/**
 * Sats THORChain pays on the devnet for `units` USDC base units deposited through the router: the
 * devnet bridge's price of what is left after its fee (rounded down as DevnetBridge rounds it), less
 * the Bitcoin outbound fee; zero or less pays nothing. The local THORNode quotes the same.
 */
export function satsForRouterDeposit(units: bigint, terms: ThorchainBitcoinTerms): bigint {
  const afterFee = units - (units * BigInt(terms.feeBps)) / 10_000n;
  return satsForUsdc(afterFee, terms) - BigInt(terms.outboundFeeSats);
}

/**
 * What THORChain swaps of a router deposit of `units`: the deposit less its memo's affiliates' bps,
 * which THORChain takes first (as the local THORNode quotes).
 */
export function swappedOfRouterDeposit(units: bigint, memo: ThorchainSwapMemo | undefined): bigint {
  return units - (units * BigInt(thorchainAffiliatesBps(memo?.affiliates))) / 10_000n;
}

export interface ThorchainRouterEndpointOptions {
  chain: string;
  chainId: number;
  /** The router (ThorchainRouter.sol at DEVNET_THORCHAIN_ROUTER). */
  router: string;
  /** The USDC the router takes for BTC on this chain. */
  usdc: string;
  provider: JsonRpcProvider;
  /** THORChain's vault on this chain: deposits credited to it are THORChain's; it signs refunds. */
  vault: Wallet | HDNodeWallet;
  /**
   * The Bitcoin end: its bridge chain id (the transfer's destination), the terms it pays at and the
   * network its addresses are of (default regtest, the devnet's; mainnet on the mainnet replica).
   */
  bitcoin: { bridgeChainId: bigint; terms: ThorchainBitcoinTerms; network?: BitcoinNetworkName };
  /**
   * THORChain's outbounds onto this chain: the vault pays a swap out of Bitcoin with the router's
   * `transferOut(recipient, USDC, amount, "OUT:<HASH>")` from what it deposited to itself (the mainnet
   * replica; on the devnet the bridge contract pays them and the router only takes deposits).
   */
  paysOut?: boolean;
  /** The first block whose deposits count (default 0): the replica's vault funds itself before. */
  fromBlock?: number;
  /** THORChain's prefix of this chain (`ETH`) and whether trading on a chain is stopped (the local THORNode's flags). */
  trading?: { prefix: string; stopped: (chain: string) => boolean };
  logger: RelayerLogger;
}

const CONTEXT = 'ThorchainRouterEndpoint';
const router = new Interface(THORCHAIN_ROUTER_ABI);

/**
 * THORChain's inbound on one EVM chain of the devnet, as its bifrost observes a router: the
 * router's `Deposit(vault, asset, amount, memo)` events crediting the vault, each a swap to BTC when
 * its memo is THORChain's swap memo (`=:BTC.BTC:<bcrt1… address>:<limit in sats>…`) and the asset
 * the chain's USDC, while trading on the chain and on BTC is not halted (THORChain refunds then). Such a deposit is handed to the Bitcoin end, which pays the memo's destination
 * `satsForRouterDeposit` with THORChain's `OUT:<HASH>` memo; a deposit naming anything else, paying
 * under the memo's limit or under Bitcoin's dust threshold is refunded in full (the devnet's EVM
 * outbound fee is 0) by the vault through the router's `transferOut` with `REFUND:<HASH>`, as
 * THORChain refunds. A source only: nothing is released onto an EVM chain through the router.
 */
export class ThorchainRouterEndpoint implements BridgeEndpoint {
  readonly chain: string;
  readonly bridgeChainId: bigint;
  readonly sourceOnly: boolean;
  private readonly router: Contract;
  private nextBlock: number;
  private readonly refunded = new Set<string>();
  /** Inbound hashes the vault paid out here (`OUT:<HASH>`), read from its TransferOut events. */
  private readonly paidOut = new Set<string>();

  constructor(private readonly options: ThorchainRouterEndpointOptions) {
    this.chain = options.chain;
    this.bridgeChainId = BigInt(options.chainId);
    this.sourceOnly = options.paysOut !== true;
    this.nextBlock = options.fromBlock ?? 0;
    this.router = new Contract(options.router, THORCHAIN_ROUTER_ABI, options.vault.connect(options.provider));
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    const tip = await this.options.provider.getBlockNumber();
    if (tip < this.nextBlock) return [];
    const vault = this.options.vault.address;
    const [deposits, outs] = await Promise.all([
      this.router.queryFilter(this.router.filters.Deposit(vault), this.nextBlock, tip),
      this.router.queryFilter(this.router.filters.TransferOut(vault), this.nextBlock, tip),
    ]);
    // The vault's own refunds are the record that a deposit was refunded once (across restarts too).
    for (const out of outs.filter((e): e is EventLog => e instanceof EventLog)) {
      const memo = parseThorchainOutboundMemo(out.args.memo as string);
      if (memo?.kind === 'refund') this.refunded.add(memo.inboundHash);
      if (memo?.kind === 'out') this.paidOut.add(memo.inboundHash);
    }
    const transfers: BridgeTransfer[] = [];
    for (const event of deposits.filter((e): e is EventLog => e instanceof EventLog)) {
      const transfer = await this.read(event);
      if (transfer) transfers.push(transfer);
    }
    // Only once every deposit is handed on or refunded: a refund that failed is tried at the next
    // poll (the refunds read above keep one from being made twice; a payout is made once per hash).
    this.nextBlock = tip + 1;
    return transfers;
  }

  /** The deposit as a transfer to Bitcoin, or undefined once it is refunded (or was already). */
  private async read(event: EventLog): Promise<BridgeTransfer | undefined> {
    const hash = inboundHash(event.transactionHash);
    const asset = getAddress(event.args.asset as string);
    const amount = event.args.amount as bigint;
    const memoText = event.args.memo as string;
    const fields = { chain: this.chain, depositTxHash: event.transactionHash, memo: memoText };
    const swap = parseThorchainSwapMemo(memoText);
    const { terms } = this.options.bitcoin;
    const swapped = swappedOfRouterDeposit(amount, swap);
    const sats = satsForRouterDeposit(swapped, terms);
    const trading = this.options.trading;
    const halted = trading ? [trading.prefix, 'BTC'].find((chain) => trading.stopped(chain)) : undefined;
    const why =
      halted !== undefined
        ? `trading is halted for ${halted}`
        : asset !== getAddress(this.options.usdc)
          ? `the router took ${asset}, not the USDC THORChain swaps here`
          : !swap || !sameThorchainAsset(swap.asset, 'BTC.BTC')
            ? 'the memo is no swap to BTC.BTC'
            : !isBitcoinBridgeRecipient(swap.destination, this.bitcoinNetwork())
              ? `${swap.destination} is no ${this.bitcoinNetwork()} address`
              : sats < THORCHAIN_BTC_DUST_THRESHOLD
                ? `pays ${sats} sats, under Bitcoin's dust threshold`
                : sats < swap.limit
                  ? `pays ${sats} sats, under the memo's limit ${swap.limit}`
                  : undefined;
    if (why === undefined && swap)
      return {
        sourceChain: this.chain,
        sourceBridgeChainId: this.bridgeChainId,
        nonce: BigInt(event.transactionHash),
        destinationBridgeChainId: this.options.bitcoin.bridgeChainId,
        recipient: swap.destination,
        // The USDC after the affiliates and the devnet bridge's fee, which the Bitcoin end converts at its price.
        amount: swapped - (swapped * BigInt(terms.feeBps)) / 10_000n,
        depositTxHash: event.transactionHash,
        thorchainInbound: hash,
      };
    await this.refund(event, asset, amount, why ?? 'no swap', fields);
    return undefined;
  }

  private async refund(
    event: EventLog,
    asset: string,
    amount: bigint,
    reason: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const hash = inboundHash(event.transactionHash);
    if (this.refunded.has(hash)) return;
    const receipt = await this.options.provider.getTransactionReceipt(event.transactionHash);
    const sender = receipt?.from;
    if (!sender) throw new Error(`no receipt for deposit ${event.transactionHash}`);
    const tx = (await this.router.transferOut(sender, asset, amount, thorchainRefundMemo(hash))) as {
      hash: string;
      wait(): Promise<{ status: number | null } | null>;
    };
    const mined = await tx.wait();
    if (!mined || mined.status !== 1) throw new Error(`refund ${tx.hash} reverted`);
    this.refunded.add(hash);
    this.options.logger.warn(
      { msg: `THORChain deposit refunded (${reason})`, ...fields, refundTo: sender, refundTxHash: tx.hash },
      CONTEXT,
    );
  }

  /**
   * THORChain's outbound of a swap out of Bitcoin (paysOut): the vault's transferOut of the chain's
   * USDC to the recipient with `OUT:<HASH>`, the hash the Bitcoin deposit's txid; once per hash (the
   * vault's TransferOut events are the record, read here first).
   */
  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    if (this.sourceOnly) throw new Error(`THORChain's router on ${this.chain} takes deposits only`);
    const hash = inboundHash(transfer.depositTxHash);
    const outs = await this.router.queryFilter(this.router.filters.TransferOut(this.options.vault.address));
    for (const out of outs.filter((e): e is EventLog => e instanceof EventLog)) {
      const memo = parseThorchainOutboundMemo(out.args.memo as string);
      if (memo?.kind === 'out') this.paidOut.add(memo.inboundHash);
    }
    if (this.paidOut.has(hash)) return { status: 'already-released' };
    const tx = (await this.router.transferOut(
      getAddress(transfer.recipient),
      this.options.usdc,
      transfer.amount,
      thorchainOutboundMemo(hash),
    )) as { hash: string; wait(): Promise<{ status: number | null } | null> };
    const mined = await tx.wait();
    if (!mined || mined.status !== 1) throw new Error(`outbound ${tx.hash} reverted`);
    this.paidOut.add(hash);
    return { status: 'released', txHash: tx.hash };
  }

  private bitcoinNetwork(): BitcoinNetworkName {
    return this.options.bitcoin.network ?? 'regtest';
  }

  async close(): Promise<void> {
    this.options.provider.destroy();
  }
}

/** A router deposit as THORNode's tx/status reads it: who sent what, with which memo, in which block. */
export interface RouterDeposit {
  from: string;
  vault: string;
  asset: string;
  amount: bigint;
  memo: string;
  blockNumber: number;
}

/**
 * The router's `Deposit` in transaction `hash` on the chain at `rpcUrl`, or undefined while the
 * transaction is not mined or holds none (the node does not know a pending one's events).
 */
export function routerDepositLookup(
  rpcUrl: string,
  routerAddress: string,
): (hash: string) => Promise<RouterDeposit | undefined> {
  return async (hash) => {
    const receipt = (await evmRpc(rpcUrl, 'eth_getTransactionReceipt', [`0x${hash.toLowerCase()}`])) as {
      from: string;
      blockNumber: string;
      status: string;
      logs: { address: string; topics: string[]; data: string }[];
    } | null;
    if (!receipt || receipt.status !== '0x1') return undefined;
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== routerAddress.toLowerCase()) continue;
      const parsed = router.parseLog(log);
      if (parsed?.name !== 'Deposit') continue;
      return {
        from: getAddress(receipt.from),
        vault: getAddress(parsed.args.to as string),
        asset: getAddress(parsed.args.asset as string),
        amount: parsed.args.amount as bigint,
        memo: parsed.args.memo as string,
        blockNumber: Number(receipt.blockNumber),
      };
    }
    return undefined;
  };
}

/** The vault's `transferOut` refunding deposit `hash` (`REFUND:<HASH>`), its transaction and amount. */
export function routerRefundLookup(
  rpcUrl: string,
  routerAddress: string,
  vault: string,
): (hash: string) => Promise<{ hash: string; to: string; amount: bigint } | undefined> {
  return routerTransferOutLookup(rpcUrl, routerAddress, vault, 'refund');
}

/**
 * The vault's `transferOut` paying THORChain's outbound of inbound `hash` (`OUT:<HASH>`, a swap out
 * of Bitcoin on the mainnet replica): its transaction and amount, or undefined while not paid.
 */
export function routerOutboundLookup(
  rpcUrl: string,
  routerAddress: string,
  vault: string,
): (hash: string) => Promise<{ hash: string; to: string; amount: bigint } | undefined> {
  return routerTransferOutLookup(rpcUrl, routerAddress, vault, 'out');
}

function routerTransferOutLookup(
  rpcUrl: string,
  routerAddress: string,
  vault: string,
  kind: 'out' | 'refund',
): (hash: string) => Promise<{ hash: string; to: string; amount: bigint } | undefined> {
  return async (hash) => {
    const topics = router.encodeFilterTopics('TransferOut', [vault]);
    const logs = (await evmRpc(rpcUrl, 'eth_getLogs', [
      { address: routerAddress, fromBlock: '0x0', toBlock: 'latest', topics },
    ])) as { transactionHash: string; topics: string[]; data: string }[];
    for (const log of logs) {
      const parsed = router.parseLog(log);
      const memo = parsed ? parseThorchainOutboundMemo(parsed.args.memo as string) : undefined;
      if (parsed && memo?.kind === kind && memo.inboundHash === inboundHash(hash))
        return {
          hash: log.transactionHash,
          to: getAddress(parsed.args.to as string),
          amount: parsed.args.amount as bigint,
        };
    }
    return undefined;
  };
}
