import { IncomingMessage, ServerResponse } from 'node:http';
import {
  type BitcoinBridgeTerms,
  inboundHash,
  parseThorchainOutboundMemo,
  thorchainOutboundMemo,
  type ThornodeTx,
  type ThornodePlannedOutTx,
  opReturnText,
  parseThorchainAsset,
  parseThorchainAffiliates,
  parseThorchainSwapMemo,
  sameThorchainAsset,
  thorchainAffiliatesBps,
  type ThorchainAffiliate,
  thorchainAssetMatches,
  thorchainSwapMemo,
  toThorchainUnits,
  fromThorchainUnits,
  thorchainRefundMemo,
  THORCHAIN_POOL_AVAILABLE,
  usdcForSats,
  type ThornodeInboundAddress,
  type ThornodePool,
  type ThornodeQuoteSwap,
  type ThornodeTxStatus,
} from '@swapgw/chains/bitcoin-bridge';
import { EsploraClient, EsploraError, EsploraTransaction } from '../bitcoin/esplora-client';
import { LocalHttpServer } from '../local-http-server';
import {
  type RouterDeposit,
  satsForRouterDeposit,
  swappedOfRouterDeposit,
  THORCHAIN_BTC_DUST_THRESHOLD,
} from './thorchain-router-endpoint';

export { THORCHAIN_BTC_DUST_THRESHOLD };

/** A chain the devnet bridge pays through THORChain's formats: its prefix, its USDC as an asset. */
export interface LocalThornodeDestination {
  /** THORChain's chain prefix the devnet gives the chain (`ETH`, `BASE`). */
  prefix: string;
  /** The USDC the bridge pays there, as a THORChain asset (`ETH.USDC-0X5FBD…`). */
  asset: string;
  decimals: number;
  /** The bridge contract on that chain: its inbound address (and router) in inbound_addresses. */
  inboundAddress: string;
  /**
   * The payout on this chain of the Bitcoin deposit whose inbound hash is given (its txid): its
   * transaction hash and the amount paid in the token's base units; undefined while not paid. On the
   * devnet the bridge's release under the deposit's nonce (bitcoinDepositNonce), on the mainnet
   * replica the vault's `transferOut` through the router with `OUT:<HASH>`.
   */
  payoutOf?: (inboundHash: string) => Promise<{ hash: string; amount: bigint } | undefined>;
  /**
   * THORChain's router on this chain, which takes the USDC for BTC (`depositWithExpiry`): the chain's
   * inbound address is then its vault and `router` the router, as THORNode lists an EVM chain.
   */
  router?: LocalThornodeRouter;
}

/** THORChain's router on a devnet EVM chain and the reads tx/status makes of it. */
export interface LocalThornodeRouter {
  address: string;
  /** The vault the router credits (THORChain's inbound address on the chain). */
  vault: string;
  /** The router's Deposit in a mined transaction (routerDepositLookup). */
  depositOf: (hash: string) => Promise<RouterDeposit | undefined>;
  /** The vault's refund of a deposit through the router (routerRefundLookup). */
  refundOf: (hash: string) => Promise<{ hash: string; to: string; amount: bigint } | undefined>;
}

export interface LocalThornodeOptions {
  /** The devnet bridge's Bitcoin end: its vault (THORChain's BTC inbound address) and terms. */
  bitcoin: {
    vault: string;
    terms: BitcoinBridgeTerms;
    esplora: EsploraClient;
    blockMs: number;
    /** The vault's THORChain outbound (`OUT:<HASH>`) of an inbound hash: its txid, once paid. */
    outboundOf?: (hash: string) => string | undefined;
  };
  destinations: LocalThornodeDestination[];
  /** Seconds a transfer takes end to end (the manifest's estimate), THORNode's total_swap_seconds. */
  estimatedDurationSeconds: number;
  nowMs?: () => number;
}

/** THORChain's flags of one chain's inbound address, which the devnet controls can set. */
type TradingFlags = Pick<
  ThornodeInboundAddress,
  'halted' | 'global_trading_paused' | 'chain_trading_paused' | 'chain_lp_actions_paused'
>;

type Answer = { status: number; body: unknown };

const NORMAL_TRADING: TradingFlags = {
  halted: false,
  global_trading_paused: false,
  chain_trading_paused: false,
  chain_lp_actions_paused: false,
};

/**
 * The THORChain chain prefix the devnet gives its EVM chains, as THORChain's own mocknet calls its
 * local EVM chain ETH: devnet-a is `ETH`, devnet-b `BASE` (their USDC `ETH.USDC-0X…`, `BASE.USDC-0X…`).
 */
export const DEVNET_THORCHAIN_PREFIXES: Readonly<Record<string, string>> = {
  'devnet-a': 'ETH',
  'devnet-b': 'BASE',
};

/** How long THORNode's quotes hold their inbound address (its `expiry`): 15 minutes. */
const QUOTE_EXPIRY_SECONDS = 900;
const BTC_ASSET = 'BTC.BTC';
/** THORChain's unit: every amount of its API is in 1e8 units of the asset. */
const THORCHAIN_UNITS = 100_000_000n;
/** The depth of the local BTC.BTC pool, in BTC: the pools are sized so that no devnet swap moves them. */
const POOL_DEPTH_BTC = 1_000n;

/**
 * THORNode's REST API over the devnet bridge's Bitcoin end, so that the one THORChain adapter
 * drives the devnet as it drives mainnet:
 *   GET /thorchain/inbound_addresses     BTC (the bridge vault, its dust threshold and outbound fee)
 *                                        and each destination chain (the bridge contract)
 *   GET /thorchain/pools                 BTC.BTC and each destination's USDC, Available, their depths
 *                                        at the bridge's price (one RUNE valued at one USDC)
 *   GET /thorchain/quote/swap            BTC.BTC to a destination's USDC at the bridge's price and fee,
 *                                        errors as THORNode answers them ({"error": …}, HTTP 400)
 *   GET /thorchain/tx/status/{hash}      a Bitcoin deposit's stages, read from Esplora, to the
 *                                        relayer's payout (out_txs) or refund
 * plus a devnet-only control (never used by production code):
 *   POST /devnet/thornode/trading        {"chain": "BTC", "halted"?: b, "global_trading_paused"?: b,
 *                                         "chain_trading_paused"?: b} → the chain's flags
 *   POST /devnet/thornode/signing        {"chain": "BTC", "halted": b} → THORChain's HaltSigning<chain>:
 *                                        the swap is done, its outbound on the chain scheduled, not signed
 * The devnet does not stream swaps (max_streaming_quantity 0) and charges no affiliate fee of its
 * own: the affiliates' bps (`affiliate=a/b&affiliate_bps=10/20`, up to 5) come off the input as
 * THORChain takes them.
 */
export class LocalThornode {
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));
  private readonly flags = new Map<string, TradingFlags>();
  /** Chains whose outbounds THORChain does not sign now (its HaltSigning<chain> mimir). */
  private readonly signingHalted = new Set<string>();

  constructor(private readonly options: LocalThornodeOptions) {
    for (const chain of ['BTC', ...options.destinations.map((d) => d.prefix)])
      this.flags.set(chain, { ...NORMAL_TRADING });
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return this.http.listen(port, host);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      answer = await this.route(req);
    } catch (error) {
      answer = { status: 500, body: { error: (error as Error).message } };
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }

  private async route(req: IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://thornode.local');
    if (req.method === 'GET' && url.pathname === '/thorchain/inbound_addresses')
      return { status: 200, body: this.inboundAddresses() };
    if (req.method === 'GET' && url.pathname === '/thorchain/pools')
      return { status: 200, body: this.pools() };
    if (req.method === 'GET' && url.pathname === '/thorchain/quote/swap')
      return this.quoteSwap(url.searchParams);
    const status = /^\/thorchain\/tx\/status\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && status) return this.txStatus(status[1]);
    if (req.method === 'POST' && url.pathname === '/devnet/thornode/trading')
      return this.setTrading(await bodyOf(req));
    if (req.method === 'POST' && url.pathname === '/devnet/thornode/signing')
      return this.setSigning(await bodyOf(req));
    return { status: 501, body: { code: 12, message: 'Not Implemented', details: [] } };
  }

  private inboundAddresses(): ThornodeInboundAddress[] {
    const { bitcoin } = this.options;
    return [
      {
        chain: 'BTC',
        pub_key: '',
        address: bitcoin.vault,
        ...this.flagsOf('BTC'),
        gas_rate: '3',
        gas_rate_units: 'satsperbyte',
        outbound_tx_size: '1000',
        outbound_fee: String(bitcoin.terms.outboundFeeSats),
        dust_threshold: THORCHAIN_BTC_DUST_THRESHOLD.toString(),
      },
      ...this.options.destinations.map((destination) => ({
        chain: destination.prefix,
        pub_key: '',
        address: (destination.router?.vault ?? destination.inboundAddress).toLowerCase(),
        router: destination.router?.address ?? destination.inboundAddress,
        ...this.flagsOf(destination.prefix),
        gas_rate: '1',
        gas_rate_units: 'gwei',
        outbound_tx_size: '100000',
        // The devnet bridge keeps its fee on deposit and pays the release's gas itself.
        outbound_fee: '0',
        dust_threshold: '0',
      })),
    ];
  }

  /**
   * The pools the quotes trade through: BTC.BTC and each destination's USDC, every one Available. A
   * RUNE is valued at one USDC, so BTC.BTC holds usdcPerBtc RUNE per BTC and a USDC pool as many
   * RUNE as USDC: BTC's price through the two pools is the bridge's. Units are all LP units (no
   * synths, no savers), as in a pool nobody minted synths of.
   */
  private pools(): ThornodePool[] {
    const runeDepth = POOL_DEPTH_BTC * BigInt(this.options.bitcoin.terms.usdcPerBtc) * THORCHAIN_UNITS;
    return [
      availablePool(BTC_ASSET, 8, POOL_DEPTH_BTC * THORCHAIN_UNITS, runeDepth),
      ...this.options.destinations.map((d) => availablePool(d.asset, d.decimals, runeDepth, runeDepth)),
    ];
  }

  private quoteSwap(query: URLSearchParams): Answer {
    const fromAsset = query.get('from_asset') ?? '';
    const toAsset = query.get('to_asset') ?? '';
    const amountText = query.get('amount') ?? '';
    if (!parseThorchainAsset(fromAsset)) return thornodeError(`bad from_asset: ${fromAsset}`);
    if (!parseThorchainAsset(toAsset)) return thornodeError(`bad to_asset: ${toAsset}`);
    if (!/^[1-9][0-9]{0,30}$/.test(amountText)) return thornodeError(`bad amount: ${amountText}`);
    const source = this.options.destinations.find((d) => d.router && sameThorchainAsset(d.asset, fromAsset));
    if (source?.router && sameThorchainAsset(toAsset, BTC_ASSET))
      return this.quoteIntoBitcoin(source, source.router, BigInt(amountText), query);
    if (!sameThorchainAsset(fromAsset, BTC_ASSET))
      return thornodeError(
        `failed to simulate swap: pool ${fromAsset.toUpperCase()} is not available on this devnet`,
      );
    const destination = this.options.destinations.find((d) => sameThorchainAsset(d.asset, toAsset));
    if (!destination)
      return thornodeError(`failed to simulate swap: pool ${toAsset.toUpperCase()} does not exist`);
    for (const chain of ['BTC', destination.prefix]) {
      const flags = this.flagsOf(chain);
      if (flags.halted || flags.global_trading_paused || flags.chain_trading_paused)
        return thornodeError(`trading is halted for ${chain}, can't process swap`);
    }
    const amount = BigInt(amountText);
    if (amount < THORCHAIN_BTC_DUST_THRESHOLD)
      return thornodeError(`amount less than dust threshold: ${amount} < ${THORCHAIN_BTC_DUST_THRESHOLD}`);

    const affiliates = affiliatesOf(query);
    if (affiliates === undefined)
      return thornodeError(
        `invalid affiliate or affiliate_bps: ${query.get('affiliate')} ${query.get('affiliate_bps')}`,
      );
    const affiliateBps = thorchainAffiliatesBps(affiliates);
    const affiliateSats = (amount * BigInt(affiliateBps)) / 10_000n;
    const swapped = amount - affiliateSats;
    const { terms } = this.options.bitcoin;
    const toUnits = (usdc: bigint) => toThorchainUnits(usdc, destination.decimals);
    const out = toUnits(usdcForSats(swapped, terms));
    const gross = toUnits(usdcForSats(swapped, { ...terms, feeBps: 0 }));
    const affiliate = toUnits(usdcForSats(affiliateSats, terms));
    if (out === 0n) return thornodeError('not enough asset to pay for fees');

    const destinationAddress = query.get('destination');
    const interval = Number(query.get('streaming_interval') ?? '0');
    const quantity = Number(query.get('streaming_quantity') ?? '0');
    const tolerance = Number(query.get('tolerance_bps') ?? query.get('liquidity_tolerance_bps') ?? '0');
    const limit = tolerance > 0 ? (out * BigInt(10_000 - tolerance)) / 10_000n : 0n;
    const confirmationSeconds = Math.ceil(this.options.bitcoin.blockMs / 1000);
    const quote: ThornodeQuoteSwap = {
      inbound_address: this.options.bitcoin.vault,
      inbound_confirmation_blocks: 1,
      inbound_confirmation_seconds: confirmationSeconds,
      outbound_delay_blocks: 0,
      outbound_delay_seconds: 0,
      fees: {
        asset: destination.asset,
        affiliate: affiliate.toString(),
        outbound: '0',
        liquidity: (gross - out).toString(),
        total: (gross - out + affiliate).toString(),
        slippage_bps: 0,
        total_bps: Number(((gross - out + affiliate) * 10_000n) / (gross + affiliate || 1n)),
      },
      expiry: Math.floor(this.nowMs() / 1000) + QUOTE_EXPIRY_SECONDS,
      warning: 'Do not cache this response. Do not send funds after the expiry.',
      notes:
        'First output should be to inbound_address, second output should be change back to self, third output should be OP_RETURN, limited to 80 bytes. Do not send below the dust threshold. Do not use exotic spend scripts, locks or address formats.',
      dust_threshold: THORCHAIN_BTC_DUST_THRESHOLD.toString(),
      recommended_min_amount_in: THORCHAIN_BTC_DUST_THRESHOLD.toString(),
      recommended_gas_rate: '3',
      gas_rate_units: 'satsperbyte',
      expected_amount_out: out.toString(),
      max_streaming_quantity: 0,
      streaming_swap_blocks: 0,
      total_swap_seconds: this.options.estimatedDurationSeconds,
    };
    if (destinationAddress) {
      try {
        quote.memo = thorchainSwapMemo({
          asset: destination.asset,
          destination: destinationAddress,
          limit,
          streamingInterval: Number.isSafeInteger(interval) && interval > 0 ? interval : 0,
          streamingQuantity: Number.isSafeInteger(quantity) && quantity > 0 ? quantity : 0,
          affiliates,
        });
      } catch (error) {
        return memoError(error as Error);
      }
    }
    return { status: 200, body: quote };
  }

  /**
   * A quote from a chain's USDC, deposited through its router, to BTC.BTC: the sats
   * satsForRouterDeposit pays (the bridge's price after its fee, less the Bitcoin outbound fee), an
   * affiliate's bps off the input; the source's inbound address (the vault) and router; errors as
   * THORNode answers them. The Bitcoin payout must clear Bitcoin's dust threshold.
   */
  private quoteIntoBitcoin(
    source: LocalThornodeDestination,
    router: LocalThornodeRouter,
    amount: bigint,
    query: URLSearchParams,
  ): Answer {
    for (const chain of [source.prefix, 'BTC']) {
      const flags = this.flagsOf(chain);
      if (flags.halted || flags.global_trading_paused || flags.chain_trading_paused)
        return thornodeError(`trading is halted for ${chain}, can't process swap`);
    }
    const affiliates = affiliatesOf(query);
    if (affiliates === undefined)
      return thornodeError(
        `invalid affiliate or affiliate_bps: ${query.get('affiliate')} ${query.get('affiliate_bps')}`,
      );
    const affiliateBps = thorchainAffiliatesBps(affiliates);
    const { terms } = this.options.bitcoin;
    const units = fromThorchainUnits(amount, source.decimals);
    const affiliateUnits = (units * BigInt(affiliateBps)) / 10_000n;
    let out = satsForRouterDeposit(units - affiliateUnits, terms);
    const gross = satsForRouterDeposit(units - affiliateUnits, { ...terms, feeBps: 0, outboundFeeSats: 0 });
    const affiliate = satsForRouterDeposit(affiliateUnits, { ...terms, outboundFeeSats: 0 });
    // The least deposit whose payout clears Bitcoin's dust threshold (in 1e8 units of the source).
    let recommended = toThorchainUnits(
      (usdcForSats(THORCHAIN_BTC_DUST_THRESHOLD + BigInt(terms.outboundFeeSats) + 1n, {
        ...terms,
        feeBps: 0,
      }) *
        10_000n) /
        BigInt(10_000 - terms.feeBps) +
        1n,
      source.decimals,
    );
    while (
      satsForRouterDeposit(fromThorchainUnits(recommended, source.decimals), terms) <
      THORCHAIN_BTC_DUST_THRESHOLD
    )
      recommended += toThorchainUnits(1n, source.decimals) || 1n;
    // Under what pays Bitcoin's dust, THORNode still quotes: expected_amount_out says what it would
    // pay (nothing) and recommended_min_amount_in the least deposit that pays.
    if (out < THORCHAIN_BTC_DUST_THRESHOLD) out = 0n;
    const destinationAddress = query.get('destination');
    const interval = Number(query.get('streaming_interval') ?? '0');
    const quantity = Number(query.get('streaming_quantity') ?? '0');
    const tolerance = Number(query.get('tolerance_bps') ?? query.get('liquidity_tolerance_bps') ?? '0');
    const limit = tolerance > 0 ? (out * BigInt(10_000 - tolerance)) / 10_000n : 0n;
    const quote: ThornodeQuoteSwap = {
      inbound_address: router.vault.toLowerCase(),
      inbound_confirmation_blocks: 1,
      inbound_confirmation_seconds: 1,
      outbound_delay_blocks: 0,
      outbound_delay_seconds: 0,
      fees: {
        asset: BTC_ASSET,
        affiliate: affiliate.toString(),
        outbound: String(terms.outboundFeeSats),
        liquidity: (out > 0n ? gross - out - BigInt(terms.outboundFeeSats) : 0n).toString(),
        total: (gross - out + affiliate).toString(),
        slippage_bps: 0,
        total_bps: Number(((gross - out + affiliate) * 10_000n) / (gross + affiliate || 1n)),
      },
      router: router.address,
      expiry: Math.floor(this.nowMs() / 1000) + QUOTE_EXPIRY_SECONDS,
      warning: 'Do not cache this response. Do not send funds after the expiry.',
      notes:
        'Base Asset: Send the inbound_address the asset with the memo encoded in hex in the data field. Tokens: First approve router to spend tokens from user: asset.approve(router, amount). Then call router.depositWithExpiry(inbound_address, asset, amount, memo, expiry). Asset is the token contract address. Amount should be in native asset decimals (eg 1e18 for most tokens). Do not swap to smart contract addresses.',
      dust_threshold: '0',
      recommended_min_amount_in: recommended.toString(),
      recommended_gas_rate: '1',
      gas_rate_units: 'gwei',
      expected_amount_out: out.toString(),
      max_streaming_quantity: 0,
      streaming_swap_blocks: 0,
      total_swap_seconds: this.options.estimatedDurationSeconds,
    };
    if (destinationAddress) {
      try {
        quote.memo = thorchainSwapMemo({
          asset: BTC_ASSET,
          destination: destinationAddress,
          limit,
          streamingInterval: Number.isSafeInteger(interval) && interval > 0 ? interval : 0,
          streamingQuantity: Number.isSafeInteger(quantity) && quantity > 0 ? quantity : 0,
          affiliates,
        });
      } catch (error) {
        return memoError(error as Error);
      }
    }
    return { status: 200, body: quote };
  }

  /**
   * A Bitcoin deposit's stages: unknown to Esplora, not observed; in the mempool, observed but its
   * confirmation not counted; confirmed with a swap memo to the vault, counted and finalised, the
   * swap pending until the relayer pays: then the swap is finalised and the outbound signed, with
   * the payout in `out_txs` (the destination's release, memo `OUT:<HASH>`), or, when the relayer
   * refunded the deposit, the vault's `REFUND:<HASH>` payment to the sender (the one planned
   * outbound then a refund).
   */
  private async txStatus(hashText: string): Promise<Answer> {
    let hash: string;
    try {
      hash = inboundHash(hashText);
    } catch {
      return thornodeError(`invalid tx hash: ${hashText}`);
    }
    let tx: EsploraTransaction & { status?: { confirmed: boolean; block_height?: number } };
    try {
      tx = await this.options.bitcoin.esplora.json(`/tx/${hash.toLowerCase()}`);
    } catch (error) {
      if (error instanceof EsploraError && error.status === 404)
        return { status: 200, body: await this.routerTxStatus(hash) };
      throw error;
    }
    const vault = this.options.bitcoin.vault;
    const paid = paidTo(tx, vault);
    const memo = memoOf(tx);
    if (paid === 0n || memo === undefined)
      return {
        status: 200,
        body: { stages: { inbound_observed: { completed: false } } } satisfies ThornodeTxStatus,
      };
    const confirmed = tx.status?.confirmed === true;
    const from = tx.vin[0]?.prevout?.scriptpubkey_address;
    const body: ThornodeTxStatus = {
      tx: {
        id: hash,
        chain: 'BTC',
        ...(from ? { from_address: from } : {}),
        to_address: vault,
        coins: [{ asset: BTC_ASSET, amount: paid.toString() }],
        gas: [{ asset: BTC_ASSET, amount: '0' }],
        memo,
      },
      stages: {
        inbound_observed: { started: true, final_count: confirmed ? 1 : 0, completed: true },
        inbound_confirmation_counted: {
          chain: 'BTC',
          ...(tx.status?.block_height !== undefined
            ? { external_observed_height: tx.status.block_height }
            : {}),
          remaining_confirmation_seconds: confirmed ? 0 : Math.ceil(this.options.bitcoin.blockMs / 1000),
          completed: confirmed,
        },
        inbound_finalised: { completed: confirmed },
        swap_status: { pending: true },
        swap_finalised: { completed: false },
      },
    };
    const swap = parseThorchainSwapMemo(memo);
    const destination =
      swap && this.options.destinations.find((d) => thorchainAssetMatches(swap.asset, d.asset));
    if (swap && destination)
      body.planned_out_txs = [
        {
          chain: destination.prefix,
          to_address: swap.destination,
          coin: {
            asset: destination.asset,
            amount: toThorchainUnits(
              usdcForSats(paid, this.options.bitcoin.terms),
              destination.decimals,
            ).toString(),
          },
          refund: false,
        },
      ];
    const out =
      confirmed && from !== undefined
        ? ((await this.refundOf(hash, from)) ??
          (swap && destination ? await this.payoutOf(hash, swap.destination, destination) : undefined))
        : undefined;
    if (out) {
      // A refund is the swap's one outbound (THORChain plans it in place of the swap's).
      if (out.refund) body.planned_out_txs = [out.refund];
      body.out_txs = [out.tx];
      body.stages = {
        ...body.stages,
        swap_status: { pending: false },
        swap_finalised: { completed: true },
        outbound_signed: { completed: true },
      };
    }
    return { status: 200, body };
  }

  /**
   * An EVM deposit's stages, read from the router it went through: not observed until mined with a
   * Deposit to the vault; then counted and finalised (one block), swapping with its planned BTC
   * outbound until the vault paid it (`OUT:<HASH>`: swap finalised, outbound signed, the payout in
   * out_txs, amounts in sats), or refunded it through the router (`REFUND:<HASH>`, its one planned
   * outbound then a refund).
   */
  private async routerTxStatus(hash: string): Promise<ThornodeTxStatus> {
    for (const source of this.options.destinations) {
      const router = source.router;
      const deposit = router ? await router.depositOf(hash) : undefined;
      if (!router || !deposit || deposit.vault.toLowerCase() !== router.vault.toLowerCase()) continue;
      const amount = toThorchainUnits(deposit.amount, source.decimals).toString();
      const status: ThornodeTxStatus = {
        tx: {
          id: hash,
          chain: source.prefix,
          from_address: deposit.from.toLowerCase(),
          to_address: router.vault.toLowerCase(),
          coins: [{ asset: source.asset, amount }],
          gas: [{ asset: `${source.prefix}.ETH`, amount: '0' }],
          memo: deposit.memo,
        },
        stages: {
          inbound_observed: { started: true, final_count: 1, completed: true },
          inbound_confirmation_counted: {
            chain: source.prefix,
            external_observed_height: deposit.blockNumber,
            remaining_confirmation_seconds: 0,
            completed: true,
          },
          inbound_finalised: { completed: true },
          swap_status: { pending: true },
          swap_finalised: { completed: false },
        },
      };
      const swap = parseThorchainSwapMemo(deposit.memo);
      if (swap && sameThorchainAsset(swap.asset, BTC_ASSET))
        status.planned_out_txs = [
          {
            chain: 'BTC',
            to_address: swap.destination,
            coin: {
              asset: BTC_ASSET,
              amount: satsForRouterDeposit(
                swappedOfRouterDeposit(deposit.amount, swap),
                this.options.bitcoin.terms,
              ).toString(),
            },
            refund: false,
          },
        ];
      const refund = await router.refundOf(hash);
      const payoutTxid = refund ? undefined : this.options.bitcoin.outboundOf?.(hash);
      let out: ThornodeTx | undefined;
      if (refund) {
        const coin = {
          asset: source.asset,
          amount: toThorchainUnits(refund.amount, source.decimals).toString(),
        };
        status.planned_out_txs = [
          { chain: source.prefix, to_address: refund.to.toLowerCase(), coin, refund: true },
        ];
        out = {
          id: inboundHash(refund.hash),
          chain: source.prefix,
          from_address: router.vault.toLowerCase(),
          to_address: refund.to.toLowerCase(),
          coins: [coin],
          gas: [{ asset: `${source.prefix}.ETH`, amount: '0' }],
          memo: thorchainRefundMemo(hash),
        };
      } else if (payoutTxid && swap) {
        const payout = await this.options.bitcoin.esplora.json<EsploraTransaction>(`/tx/${payoutTxid}`);
        out = {
          id: inboundHash(payoutTxid),
          chain: 'BTC',
          from_address: this.options.bitcoin.vault,
          to_address: swap.destination,
          coins: [{ asset: BTC_ASSET, amount: paidTo(payout, swap.destination).toString() }],
          gas: [{ asset: BTC_ASSET, amount: String(payout.fee) }],
          memo: thorchainOutboundMemo(hash),
        };
      }
      if (out) {
        status.out_txs = [out];
        status.stages = {
          ...status.stages,
          swap_status: { pending: false },
          swap_finalised: { completed: true },
          outbound_signed: { completed: true },
        };
      } else if (status.planned_out_txs && this.signingStopped('BTC')) {
        // Swapped, its BTC outbound scheduled: THORChain's signers hold it while signing is halted.
        status.stages = {
          ...status.stages,
          swap_status: { pending: false },
          swap_finalised: { completed: true },
          outbound_signed: { completed: false },
        };
      }
      return status;
    }
    return { stages: { inbound_observed: { completed: false } } };
  }

  /** The relayer's payout of deposit `hash` on the destination, as THORNode lists an outbound. */
  private async payoutOf(
    hash: string,
    recipient: string,
    destination: LocalThornodeDestination,
  ): Promise<{ tx: ThornodeTx; refund?: undefined } | undefined> {
    const paid = await destination.payoutOf?.(hash);
    if (!paid) return undefined;
    return {
      tx: {
        id: inboundHash(paid.hash),
        chain: destination.prefix,
        from_address: destination.inboundAddress,
        to_address: recipient,
        coins: [
          {
            asset: destination.asset,
            amount: toThorchainUnits(paid.amount, destination.decimals).toString(),
          },
        ],
        gas: [{ asset: `${destination.prefix}.ETH`, amount: '0' }],
        memo: thorchainOutboundMemo(hash),
      },
    };
  }

  /** The vault's refund of deposit `hash` to `sender` (`REFUND:<HASH>`), in its mempool or blocks. */
  private async refundOf(
    hash: string,
    sender: string,
  ): Promise<{ tx: ThornodeTx; refund: ThornodePlannedOutTx } | undefined> {
    const esplora = this.options.bitcoin.esplora;
    const vault = this.options.bitcoin.vault;
    const txs = [
      ...(await esplora.json<EsploraTransaction[]>(`/address/${sender}/txs/mempool`)),
      ...(await esplora.json<EsploraTransaction[]>(`/address/${sender}/txs/chain`)),
    ];
    for (const tx of txs) {
      if (tx.vin[0]?.prevout?.scriptpubkey_address !== vault) continue;
      const memo = memoOf(tx);
      const outbound = memo === undefined ? undefined : parseThorchainOutboundMemo(memo);
      if (memo === undefined || outbound?.kind !== 'refund' || outbound.inboundHash !== hash) continue;
      const coin = { asset: BTC_ASSET, amount: paidTo(tx, sender).toString() };
      return {
        refund: { chain: 'BTC', to_address: sender, coin, refund: true },
        tx: {
          id: inboundHash(tx.txid),
          chain: 'BTC',
          from_address: vault,
          to_address: sender,
          coins: [coin],
          gas: [{ asset: BTC_ASSET, amount: String(tx.fee) }],
          memo,
        },
      };
    }
    return undefined;
  }

  private setTrading(body: unknown): Answer {
    const request = (body ?? {}) as Partial<TradingFlags> & { chain?: string };
    const chain = String(request.chain ?? '').toUpperCase();
    const flags = this.flags.get(chain);
    if (!flags) return thornodeError(`unknown chain: ${request.chain}`);
    for (const flag of [
      'halted',
      'global_trading_paused',
      'chain_trading_paused',
      'chain_lp_actions_paused',
    ] as const)
      if (typeof request[flag] === 'boolean') flags[flag] = request[flag];
    return { status: 200, body: { chain, ...flags } };
  }

  private setSigning(body: unknown): Answer {
    const request = (body ?? {}) as { chain?: string; halted?: unknown };
    const chain = String(request.chain ?? '').toUpperCase();
    if (!this.flags.has(chain)) return thornodeError(`unknown chain: ${request.chain}`);
    if (typeof request.halted !== 'boolean') return thornodeError('halted must be a boolean');
    if (request.halted) this.signingHalted.add(chain);
    else this.signingHalted.delete(chain);
    return { status: 200, body: { chain, signing_halted: request.halted } };
  }

  /** Whether THORChain's outbounds on `chain` (a THORChain prefix) wait for signing to resume. */
  signingStopped(chain: string): boolean {
    return this.signingHalted.has(chain.toUpperCase());
  }

  /** Whether trading on `chain` (a THORChain prefix) is halted or paused now: THORChain refunds such swaps. */
  tradingStopped(chain: string): boolean {
    const flags = this.flagsOf(chain.toUpperCase());
    return flags.halted || flags.global_trading_paused || flags.chain_trading_paused;
  }

  private flagsOf(chain: string): TradingFlags {
    const global = [...this.flags.values()].some((flags) => flags.global_trading_paused);
    const flags = this.flags.get(chain) ?? NORMAL_TRADING;
    return { ...flags, global_trading_paused: global };
  }

  private nowMs(): number {
    return (this.options.nowMs ?? Date.now)();
  }
}

/** An Available pool as THORNode lists it (amounts in 1e8 units), all of its units its LPs'. */
function availablePool(
  asset: string,
  decimals: number,
  balanceAsset: bigint,
  balanceRune: bigint,
): ThornodePool {
  return {
    asset: asset.toUpperCase(),
    status: THORCHAIN_POOL_AVAILABLE,
    decimals,
    pending_inbound_asset: '0',
    pending_inbound_rune: '0',
    balance_asset: balanceAsset.toString(),
    balance_rune: balanceRune.toString(),
    pool_units: balanceRune.toString(),
    LP_units: balanceRune.toString(),
    synth_units: '0',
    synth_supply: '0',
    savers_depth: '0',
    savers_units: '0',
    synth_mint_paused: true,
    synth_supply_remaining: '0',
  };
}

/**
 * The quote's `affiliate` and `affiliate_bps` as THORNode reads them: several separated by `/`, one
 * bps for all or one each, at most 5; undefined when THORNode would refuse them.
 */
function affiliatesOf(query: URLSearchParams): ThorchainAffiliate[] | undefined {
  const names = query.get('affiliate') ?? '';
  const bps = query.get('affiliate_bps') ?? '';
  if (names === '') return bps === '' || /^0+$/.test(bps) ? [] : undefined;
  return parseThorchainAffiliates(names, bps);
}

/** THORNode's answer to a memo it cannot write: too long for the source chain (80 bytes), or a bad field. */
function memoError(error: Error): Answer {
  return thornodeError(
    /more than the \d+ of an OP_RETURN/.test(error.message)
      ? 'generated memo too long for source chain'
      : `failed to build memo: ${error.message}`,
  );
}

/** THORNode's error answer: `{"error": "..."}` with HTTP 400. */
function thornodeError(error: string): Answer {
  return { status: 400, body: { error } };
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/** What a transaction pays `address`, in sats. */
function paidTo(tx: EsploraTransaction, address: string): bigint {
  return tx.vout
    .filter((o) => o.scriptpubkey_address === address)
    .reduce((sum, o) => sum + BigInt(o.value), 0n);
}

/** The text of a transaction's first OP_RETURN output, if any. */
function memoOf(tx: EsploraTransaction): string | undefined {
  return tx.vout
    .filter((o) => o.scriptpubkey_type === 'op_return')
    .map((o) => opReturnText(Buffer.from(o.scriptpubkey, 'hex')))
    .find((text) => text !== undefined);
}
