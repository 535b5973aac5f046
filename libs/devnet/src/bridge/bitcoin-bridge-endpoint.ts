import {
  bitcoinBridgeRecipientKind,
  bitcoinBridgeRefundMemo,
  bitcoinBridgeReleaseMemo,
  BitcoinBridgeTerms,
  bitcoinDepositNonce,
  isBitcoinBridgeRecipient,
  opReturnScript,
  opReturnText,
  parseBitcoinBridgeDepositMemo,
  parseBitcoinBridgeRefundMemo,
  parseBitcoinBridgeReleaseMemo,
  parseThorchainOutboundMemo,
  parseThorchainSwapMemo,
  thorchainAffiliatesBps,
  satsForUsdc,
  thorchainAssetMatches,
  thorchainOutboundMemo,
  thorchainRefundMemo,
  fromThorchainUnits,
  usdcForSats,
} from '@swapgw/chains/bitcoin-bridge';
import { BitcoinDevnetKey } from '../bitcoin/bitcoin-keys';
import { dustThreshold } from '../bitcoin/bitcoin-script';
import { signPayment } from '../bitcoin/bitcoin-wallet';
import { EsploraClient, EsploraTransaction } from '../bitcoin/esplora-client';
import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';
import { RelayerLogger } from './bridge-relayer';

/**
 * A chain a Bitcoin deposit's memo may name, and the kind of recipient it pays (a Cosmos chain's
 * accounts of its bech32 prefix: Noble's CCTP end mints to `noble1…`).
 */
export type BitcoinBridgeDestination =
  | { bridgeChainId: bigint; recipient: 'evm' | 'solana' }
  | { bridgeChainId: bigint; recipient: 'cosmos'; bech32Prefix: string };

export interface BitcoinBridgeEndpointOptions {
  /** The manifest's `bitcoin` section (id, and the bridge's chain id, vault and terms). */
  chain: string;
  bridge: BitcoinBridgeTerms & { chainId: number; vault: string };
  esplora: EsploraClient;
  /** The vault's key (m/84'/<coin>'/2'/0/0, of the chain's network): signs releases and refunds. */
  vaultKey: BitcoinDevnetKey;
  /** Destinations by API chain id, as deposit memos name them (`=:devnet-a.USDC:…`). */
  destinations: Record<string, BitcoinBridgeDestination>;
  /**
   * The USDC each destination pays as a THORChain asset (`ETH.USDC-0X5FBD…`, the local THORNode's),
   * so THORChain swap memos (`=:ETH.USDC-0AA3:0x…:LIMIT/…:AFFILIATE:FEE`) are read too.
   */
  thorchainAssets?: Record<string, { chain: string; decimals: number }>;
  /** THORChain's signing of BTC outbounds is halted (the local THORNode's control): its payouts wait. */
  thorchainSigningHalted?: () => boolean;
  logger: RelayerLogger;
}

const CONTEXT = 'BitcoinBridgeEndpoint';
const BLOCK_TXS_PAGE = 25;

/**
 * The Bitcoin side of the devnet bridge, which takes and pays native BTC as THORChain and
 * Chainflip do. Deposits: a payment to the vault with one OP_RETURN memo
 * `=:<chain>.USDC:<recipient>:<min out>` (bitcoinBridgeDepositMemo; the recipient an EVM address,
 * a Solana key or, towards Noble's CCTP end, a `noble1…` account), read from confirmed blocks
 * through Esplora; the destination pays usdcForSats of what the vault received. THORChain's own
 * swap memo (`=:ETH.USDC-0AA3:0x…:LIMIT/…:AFFILIATE:FEE`, the asset one of `thorchainAssets`, as the
 * local THORNode quotes it) is read too: an EVM recipient is paid usdcForSats of what the vault
 * received less the affiliate's bps, unless under the memo's limit (1e8 units), and its refund
 * carries THORChain's `REFUND:<TXID>`. A deposit that
 * names no chain we reach, or whose minimum out the price cannot meet, is refunded to the address
 * of its first input, less the outbound fee. Releases: the vault pays satsForUsdc of the transfer
 * less the outbound fee, with the memo `swapgw-bridge-release:<source>:<nonce>`; those memos (and
 * `swapgw-bridge-refund:<txid>` ones) on the vault's spends are the record that makes each payout
 * happen once.
 */
export class BitcoinBridgeEndpoint implements BridgeEndpoint {
  readonly chain: string;
  readonly bridgeChainId: bigint;
  /** Next block height to read. */
  private nextHeight = 0;
  private readonly releasedKeys = new Set<string>();
  private readonly refunded = new Set<string>();
  /** THORChain outbounds the vault sent (`OUT:<HASH>`): inbound hash → the payout's txid. */
  private readonly thorchainOutbounds = new Map<string, string>();
  private unreported: BridgeTransfer[] = [];
  private scanning: Promise<void> = Promise.resolve();

  constructor(private readonly options: BitcoinBridgeEndpointOptions) {
    this.chain = options.chain;
    this.bridgeChainId = BigInt(options.bridge.chainId);
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    await this.scan();
    const batch = this.unreported;
    this.unreported = [];
    return batch;
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    // The history (blocks, then the mempool) is read first so a payout already made, by an
    // earlier run or a retry after an unknown outcome, is never made twice.
    await this.scan();
    await this.readMempoolPayouts();
    const key = releaseKey(transfer.sourceBridgeChainId, transfer.nonce);
    const inbound = transfer.thorchainInbound;
    if (inbound !== undefined ? this.thorchainOutbounds.has(inbound) : this.releasedKeys.has(key))
      return { status: 'already-released' };
    // Kept pending by the relayer, paid once signing resumes.
    if (inbound !== undefined && this.options.thorchainSigningHalted?.())
      throw new Error(`THORChain signing is halted for BTC; outbound of ${inbound} scheduled`);
    const recipient = transfer.recipient;
    const network = this.options.vaultKey.network;
    if (!isBitcoinBridgeRecipient(recipient, network))
      throw new Error(`recipient ${recipient} is not a P2WPKH, P2TR or P2SH ${network} address`);
    const sats = satsForUsdc(transfer.amount, this.options.bridge) - this.outboundFee();
    const txid = await this.payFromVault(
      recipient,
      sats,
      inbound !== undefined
        ? thorchainOutboundMemo(inbound)
        : bitcoinBridgeReleaseMemo(transfer.sourceBridgeChainId, transfer.nonce),
    );
    // Accepted into the mempool, it will be mined (the vault never replaces its payouts).
    if (inbound !== undefined) this.thorchainOutbounds.set(inbound, txid);
    else this.releasedKeys.add(key);
    return { status: 'released', txHash: txid };
  }

  /**
   * The vault's THORChain outbound for inbound `hash` (`OUT:<HASH>`, THORNode's key), as far as the
   * endpoint has read the chain and its own payouts: its txid, or undefined.
   */
  thorchainOutboundOf(hash: string): string | undefined {
    return this.thorchainOutbounds.get(hash.toUpperCase());
  }

  async close(): Promise<void> {
    await this.scanning.catch(() => undefined);
  }

  private outboundFee(): bigint {
    return BigInt(this.options.bridge.outboundFeeSats);
  }

  /** Reads the blocks mined since the last scan, oldest first; one scan at a time. */
  private scan(): Promise<void> {
    const next = this.scanning.catch(() => undefined).then(() => this.scanOnce());
    this.scanning = next;
    return next;
  }

  private async scanOnce(): Promise<void> {
    const tip = await this.options.esplora.tipHeight();
    for (; this.nextHeight <= tip; this.nextHeight++) {
      const hash = await this.options.esplora.text(`/block-height/${this.nextHeight}`);
      for (let start = 0; ; start += BLOCK_TXS_PAGE) {
        const page = await this.options.esplora.json<EsploraTransaction[]>(
          `/block/${hash}/txs${start ? `/${start}` : ''}`,
        );
        for (const tx of page) await this.inspect(tx);
        if (page.length < BLOCK_TXS_PAGE) break;
      }
    }
  }

  private async readMempoolPayouts(): Promise<void> {
    const pending = await this.options.esplora.json<EsploraTransaction[]>(
      `/address/${this.options.bridge.vault}/txs/mempool`,
    );
    for (const tx of pending) if (this.spendsFromVault(tx)) this.recordPayout(tx);
  }

  private async inspect(tx: EsploraTransaction): Promise<void> {
    if (tx.vin[0]?.is_coinbase) return;
    if (this.spendsFromVault(tx)) {
      this.recordPayout(tx);
      return;
    }
    const vault = this.options.bridge.vault;
    const received = tx.vout
      .filter((o) => o.scriptpubkey_address === vault)
      .reduce((sum, o) => sum + BigInt(o.value), 0n);
    if (received === 0n) return;

    const memos = memosOf(tx);
    const fields = { txid: tx.txid, sats: received.toString(), memos };
    const thorchain = memos.length === 1 ? this.thorchainDeposit(memos[0], received) : undefined;
    if (thorchain) return this.relayThorchain(tx, received, thorchain, fields);
    const deposit = memos.length === 1 ? parseBitcoinBridgeDepositMemo(memos[0]) : undefined;
    if (!deposit) return this.refund(tx, received, 'no valid bridge memo', fields);
    const destination = this.options.destinations[deposit.destinationChain];
    if (!destination || deposit.asset !== 'USDC' || !pays(destination, deposit.recipient))
      return this.refund(
        tx,
        received,
        `the bridge pays no ${deposit.asset} to that recipient on ${deposit.destinationChain}`,
        fields,
      );
    const amount = usdcForSats(received, this.options.bridge);
    if (amount === 0n || amount < deposit.minAmountOut)
      return this.refund(
        tx,
        received,
        `pays ${amount}, under the memo's minimum ${deposit.minAmountOut}`,
        fields,
      );
    this.queueRelease(tx, destination, deposit.recipient, amount);
  }

  /**
   * A THORChain swap memo naming a destination's USDC: where it pays, the least it accepts in base
   * units (the memo's limit is in 1e8 units), and what it pays: the swap at the bridge's price of
   * what the vault received less every affiliate's bps, as the local THORNode quotes it.
   */
  private thorchainDeposit(
    memo: string,
    received: bigint,
  ): { chain: string; recipient: string; minAmountOut: bigint; amount: bigint } | null | undefined {
    const swap = parseThorchainSwapMemo(memo);
    if (!swap) return undefined;
    const entry = Object.entries(this.options.thorchainAssets ?? {}).find(([asset]) =>
      thorchainAssetMatches(swap.asset, asset),
    );
    if (!entry) return null;
    const [, { chain, decimals }] = entry;
    const swapped = received - (received * BigInt(thorchainAffiliatesBps(swap.affiliates))) / 10_000n;
    return {
      chain,
      recipient: swap.destination,
      minAmountOut: fromThorchainUnits(swap.limit, decimals),
      amount: usdcForSats(swapped, this.options.bridge),
    };
  }

  private async relayThorchain(
    tx: EsploraTransaction,
    received: bigint,
    deposit: { chain: string; recipient: string; minAmountOut: bigint; amount: bigint } | null,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const destination = deposit ? this.options.destinations[deposit.chain] : undefined;
    if (
      !deposit ||
      !destination ||
      destination.recipient !== 'evm' ||
      !/^0x[0-9a-fA-F]{40}$/.test(deposit.recipient)
    )
      return this.refund(
        tx,
        received,
        'the THORChain memo names no asset and recipient the bridge pays',
        fields,
        'thorchain',
      );
    if (deposit.amount === 0n || deposit.amount < deposit.minAmountOut)
      return this.refund(
        tx,
        received,
        `pays ${deposit.amount}, under the memo's limit ${deposit.minAmountOut}`,
        fields,
        'thorchain',
      );
    this.queueRelease(tx, destination, deposit.recipient, deposit.amount);
  }

  /** A deposit the relayer is to pay out on its destination, the txid as the bridge nonce. */
  private queueRelease(
    tx: EsploraTransaction,
    destination: BitcoinBridgeDestination,
    recipient: string,
    amount: bigint,
  ): void {
    this.unreported.push({
      sourceChain: this.chain,
      sourceBridgeChainId: this.bridgeChainId,
      nonce: bitcoinDepositNonce(tx.txid),
      destinationBridgeChainId: destination.bridgeChainId,
      recipient,
      amount,
      depositTxHash: tx.txid,
    });
  }

  /**
   * THORChain's refund: what the vault received, less the outbound fee, back to the address of the
   * deposit's first input. Kept in the vault (logged) when that leaves dust or the input's address
   * cannot be paid.
   */
  private async refund(
    tx: EsploraTransaction,
    received: bigint,
    reason: string,
    fields: Record<string, unknown>,
    memoFormat: 'devnet' | 'thorchain' = 'devnet',
  ): Promise<void> {
    if (this.refunded.has(tx.txid)) return;
    const spent = tx.vin[0]?.prevout;
    const refundTo = spent?.scriptpubkey_address;
    const sats = received - this.outboundFee();
    const payable =
      spent &&
      refundTo !== undefined &&
      isBitcoinBridgeRecipient(refundTo) &&
      sats >= dustThreshold(Buffer.from(spent.scriptpubkey, 'hex'));
    if (!payable) {
      this.options.logger.warn(
        { msg: `bridge deposit not relayed (${reason}); too small or unpayable to refund, kept`, ...fields },
        CONTEXT,
      );
      this.refunded.add(tx.txid);
      return;
    }
    const memo = memoFormat === 'thorchain' ? thorchainRefundMemo(tx.txid) : bitcoinBridgeRefundMemo(tx.txid);
    const refundTxid = await this.payFromVault(refundTo, sats, memo);
    this.refunded.add(tx.txid);
    this.options.logger.warn(
      {
        msg: `bridge deposit refunded (${reason})`,
        ...fields,
        refundTo,
        refundSats: sats.toString(),
        refundTxid,
      },
      CONTEXT,
    );
  }

  private async payFromVault(address: string, sats: bigint, memo: string): Promise<string> {
    const coins = (await this.options.esplora.utxos(this.options.bridge.vault))
      // Confirmed coins first, largest first: few inputs, so the fixed outbound fee covers the size.
      .sort((a, b) => Number(b.status.confirmed) - Number(a.status.confirmed) || b.value - a.value)
      .map((u) => ({ txid: u.txid, vout: u.vout, value: BigInt(u.value) }));
    const payment = signPayment({
      key: this.options.vaultKey,
      coins,
      outputs: [
        { address, amount: sats },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: this.outboundFee(),
    });
    return this.options.esplora.broadcast(payment.hex);
  }

  private spendsFromVault(tx: EsploraTransaction): boolean {
    return tx.vin.some((input) => input.prevout?.scriptpubkey_address === this.options.bridge.vault);
  }

  /** Only the vault's own spends count as payouts: anyone can write a memo. */
  private recordPayout(tx: EsploraTransaction): void {
    for (const memo of memosOf(tx)) {
      const release = parseBitcoinBridgeReleaseMemo(memo);
      if (release) this.releasedKeys.add(releaseKey(release.sourceChainId, release.nonce));
      const refunded = parseBitcoinBridgeRefundMemo(memo);
      if (refunded) this.refunded.add(refunded);
      const thorchain = parseThorchainOutboundMemo(memo);
      if (thorchain?.kind === 'refund') this.refunded.add(thorchain.inboundHash.toLowerCase());
      if (thorchain?.kind === 'out') this.thorchainOutbounds.set(thorchain.inboundHash, tx.txid);
    }
  }
}

/** Whether `destination` pays `recipient`: its kind of address (a Cosmos account of its prefix). */
function pays(destination: BitcoinBridgeDestination, recipient: string): boolean {
  const named = bitcoinBridgeRecipientKind(recipient);
  if (named.kind !== destination.recipient) return false;
  return (
    destination.recipient !== 'cosmos' ||
    (named.kind === 'cosmos' && named.bech32Prefix === destination.bech32Prefix)
  );
}

function memosOf(tx: EsploraTransaction): string[] {
  return tx.vout
    .filter((o) => o.scriptpubkey_type === 'op_return')
    .map((o) => opReturnText(Buffer.from(o.scriptpubkey, 'hex')))
    .filter((text): text is string => text !== undefined);
}

const releaseKey = (sourceChainId: bigint, nonce: bigint) => `${sourceChainId}:${nonce}`;
