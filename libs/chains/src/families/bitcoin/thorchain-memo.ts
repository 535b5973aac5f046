import { getAddress } from 'ethers';

// THORChain's formats, as THORNode's API and its memo parser (x/thorchain/memo) write them: asset
// notation (`BTC.BTC`, `BASE.USDC-0X8335…`), the swap memo
// (`=:ASSET:DESTINATION:LIMIT/INTERVAL/QUANTITY:AFFILIATE:FEE`), the outbound and refund memos
// (`OUT:<inbound hash>`, `REFUND:<inbound hash>`) and its 1e8 fixed-point amounts. Pure encoding,
// shared by quote-service's THORChain adapter, the planner's deposit steps and libs/devnet's local
// THORNode. Imported through @swapgw/chains/bitcoin-bridge.

/** Every amount in THORNode's API and in memos has 8 decimals, whatever the asset's own decimals. */
export const THORCHAIN_DECIMALS = 8;

/** The most bytes of memo a Bitcoin deposit carries (one standard OP_RETURN output). */
export const THORCHAIN_BITCOIN_MEMO_MAX_BYTES = 80;

/** Largest affiliate fee THORChain accepts, in basis points (its MaxAffiliateFeeBasisPoints). */
export const THORCHAIN_MAX_AFFILIATE_BPS = 1000;

/** Most affiliates one swap memo names (THORChain's MultipleAffiliatesMaxCount). */
export const THORCHAIN_MAX_AFFILIATES = 5;

/** One affiliate of a swap memo: a THORName or THOR address, and the bps of the input it is paid. */
export interface ThorchainAffiliate {
  name: string;
  bps: number;
}

/** A THORChain asset: `CHAIN.SYMBOL` for a gas asset, `CHAIN.SYMBOL-CONTRACT` for a token. */
export interface ThorchainAsset {
  /** THORChain's chain prefix: `BTC`, `ETH`, `BASE`, `ARB`, `AVAX`, `BSC`. */
  chain: string;
  /** Upper-case ticker: `BTC`, `ETH`, `USDC`. */
  symbol: string;
  /**
   * A token's contract address as THORChain writes it (upper case, `0X…`), or in a memo its last hex
   * digits (THORChain's fuzzy match, `EB48`); absent for a gas asset.
   */
  contract?: string;
}

/** What a swap memo says. */
export interface ThorchainSwapMemo {
  /** The asset to receive, e.g. `BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913`. */
  asset: string;
  /** Where THORChain pays, in the destination chain's own address format. */
  destination: string;
  /** The least accepted, in 1e8 units of `asset`; 0 = no limit. Below it THORChain refunds. */
  limit: bigint;
  /** Streaming swaps: blocks between sub-swaps (0 = not streaming). */
  streamingInterval: number;
  /** Streaming swaps: number of sub-swaps (0 = THORChain chooses). */
  streamingQuantity: number;
  /**
   * The affiliates paid out of the input, in memo order (`t1/t2:10/20`), each a THORName or THOR
   * address with its bps (0–1000); absent or empty: none.
   */
  affiliates?: ThorchainAffiliate[];
}

const CHAIN = /^[A-Z][A-Z0-9]{1,9}$/;
const SYMBOL = /^[A-Z0-9]{1,20}$/;
const CONTRACT = /^0X[0-9A-F]{40}$/;
/** THORChain's fuzzy asset match: the last hex digits of the contract stand for it (`ETH.USDC-EB48`). */
const CONTRACT_SUFFIX = /^[0-9A-F]{1,40}$/;
/** Hex digits of the contract kept when a memo must be shortened to fit an OP_RETURN. */
const SHORT_CONTRACT_DIGITS = 4;
/** Significant digits a limit keeps when a memo must be shortened further (rounded down: < 0.1 % looser). */
const SHORT_LIMIT_DIGITS = 4;
const AFFILIATE = /^[a-z0-9+_.-]{1,64}$/i;
/** A THORName as THORChain registers one: 1–30 of a-z, 0-9, `+`, `_`, `-` (case-insensitive). */
const THORNAME = /^[a-z0-9+_-]{1,30}$/i;
/** A THORChain account: bech32 `thor1…` of a 20-byte key hash (38 data characters and checksum). */
const THOR_ADDRESS = /^thor1[02-9ac-hj-np-z]{38}$/;
const SWAP_PREFIXES = new Set(['=', 's', 'swap']);
const HASH = /^(?:0x)?([0-9a-fA-F]{64})$/;

/**
 * The asset of a token on a THORChain chain: its gas asset when `address` is null (`BTC.BTC`,
 * `ETH.ETH`), else `CHAIN.SYMBOL-CONTRACT` with the contract upper-cased as THORChain writes it.
 */
export function thorchainAssetOf(chain: string, token: { symbol: string; address: string | null }): string {
  const asset: ThorchainAsset = {
    chain: chain.toUpperCase(),
    symbol: token.symbol.toUpperCase(),
    ...(token.address !== null ? { contract: token.address.toUpperCase() } : {}),
  };
  const text = formatThorchainAsset(asset);
  if (parseThorchainAsset(text) === undefined)
    throw new Error(`${chain} ${token.symbol} cannot be written as a THORChain asset`);
  return text;
}

export function formatThorchainAsset(asset: ThorchainAsset): string {
  return `${asset.chain}.${asset.symbol}${asset.contract !== undefined ? `-${asset.contract}` : ''}`;
}

/**
 * Parses `CHAIN.SYMBOL[-CONTRACT]` (case-insensitive, as THORChain reads it); undefined for
 * anything else. A contract must be a 20-byte EVM address.
 */
export function parseThorchainAsset(text: string): ThorchainAsset | undefined {
  const upper = text.toUpperCase();
  const dot = upper.indexOf('.');
  if (dot < 0) return undefined;
  const chain = upper.slice(0, dot);
  const [symbol, contract, ...rest] = upper.slice(dot + 1).split('-');
  if (rest.length > 0 || !CHAIN.test(chain) || !SYMBOL.test(symbol ?? '')) return undefined;
  if (contract !== undefined && !CONTRACT.test(contract) && !CONTRACT_SUFFIX.test(contract)) return undefined;
  return { chain, symbol, ...(contract !== undefined ? { contract } : {}) };
}

/** Whether two assets are the same, THORChain being case-insensitive about them. */
export function sameThorchainAsset(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}

/** A token contract as an EVM address (checksummed), from THORChain's `0XA0B8…`; undefined for a suffix. */
export function thorchainContractAddress(asset: ThorchainAsset): string | undefined {
  if (asset.contract === undefined || !CONTRACT.test(asset.contract)) return undefined;
  return getAddress(`0x${asset.contract.slice(2).toLowerCase()}`);
}

/**
 * Whether `memoAsset` (perhaps abbreviated, `BASE.USDC-2913`) names `asset` (in full): same chain
 * and symbol, and the contract is the full one or ends with the memo's digits, as THORChain's fuzzy
 * match reads a memo.
 */
export function thorchainAssetMatches(memoAsset: string, asset: string): boolean {
  const short = parseThorchainAsset(memoAsset);
  const full = parseThorchainAsset(asset);
  if (!short || !full || short.chain !== full.chain || short.symbol !== full.symbol) return false;
  if (short.contract === undefined || full.contract === undefined) return short.contract === full.contract;
  return full.contract === short.contract || full.contract.endsWith(short.contract.replace(/^0X/, ''));
}

/**
 * The swap memo, its empty trailing fields left out as THORNode's quote writes it:
 * `=:BTC.BTC:bc1q…:1234567/3/0:myname:30`, `=:ETH.ETH:0x…:0/1/0`, `=:BTC.BTC:bc1q…`. Throws when a
 * field cannot be written or the memo would not fit one OP_RETURN (80 bytes).
 */
export function thorchainSwapMemo(memo: ThorchainSwapMemo): string {
  const asset = parseThorchainAsset(memo.asset);
  if (asset === undefined) throw new Error(`${memo.asset} is not a THORChain asset`);
  if (!/^[0-9A-Za-z]{20,90}$/.test(memo.destination))
    throw new Error(`${memo.destination} cannot be a THORChain destination`);
  if (memo.limit < 0n) throw new Error('the limit cannot be negative');
  for (const [name, value] of [
    ['streamingInterval', memo.streamingInterval],
    ['streamingQuantity', memo.streamingQuantity],
  ] as const)
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0`);
  const affiliates = memo.affiliates ?? [];
  if (affiliates.length > THORCHAIN_MAX_AFFILIATES)
    throw new Error(`a memo names at most ${THORCHAIN_MAX_AFFILIATES} affiliates, not ${affiliates.length}`);
  for (const affiliate of affiliates) {
    if (!Number.isInteger(affiliate.bps) || affiliate.bps < 0 || affiliate.bps > THORCHAIN_MAX_AFFILIATE_BPS)
      throw new Error(`an affiliate's bps must be 0 to ${THORCHAIN_MAX_AFFILIATE_BPS}`);
    if (!AFFILIATE.test(affiliate.name))
      throw new Error(`${affiliate.name} is not a THORName or THOR address`);
  }

  // Shortened only as far as needed to fit: the contract to its last digits (THORChain's fuzzy
  // match), then the limit in THORChain's shorthand, then the limit rounded down to 4 digits.
  const shortAsset =
    asset.contract === undefined
      ? memo.asset
      : formatThorchainAsset({ ...asset, contract: asset.contract.slice(-SHORT_CONTRACT_DIGITS) });
  const attempts: [string, string][] = [
    [memo.asset, `${memo.limit}`],
    [shortAsset, `${memo.limit}`],
    [shortAsset, shorthandAmount(memo.limit)],
    [shortAsset, shorthandAmount(roundDownToDigits(memo.limit, SHORT_LIMIT_DIGITS))],
  ];
  let text = '';
  for (const [assetText, limitText] of attempts) {
    text = memoText(memo, assetText, limitText);
    if (Buffer.byteLength(text) <= THORCHAIN_BITCOIN_MEMO_MAX_BYTES) return text;
  }
  throw new Error(
    `the memo is ${Buffer.byteLength(text)} bytes, more than the ${THORCHAIN_BITCOIN_MEMO_MAX_BYTES} of an OP_RETURN`,
  );
}

function memoText(memo: ThorchainSwapMemo, asset: string, limitText: string): string {
  const streaming = memo.streamingInterval > 0 || memo.streamingQuantity > 0;
  const limit = streaming
    ? `${limitText}/${memo.streamingInterval}/${memo.streamingQuantity}`
    : memo.limit > 0n
      ? limitText
      : '';
  const fields = ['=', asset, memo.destination, limit];
  const affiliates = memo.affiliates ?? [];
  if (affiliates.length > 0) {
    // One bps for all when they are equal (THORChain skims it for each), else one per affiliate.
    const bps = affiliates.map((affiliate) => affiliate.bps);
    const same = bps.every((value) => value === bps[0]);
    fields.push(affiliates.map((affiliate) => affiliate.name).join('/'), (same ? [bps[0]] : bps).join('/'));
  }
  while (fields[fields.length - 1] === '') fields.pop();
  return fields.join(':');
}

/** `882e7` for 8820000000: THORChain's amount shorthand, when it is shorter. */
function shorthandAmount(amount: bigint): string {
  const digits = amount.toString();
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  return zeros > 2 && amount > 0n ? `${digits.slice(0, digits.length - zeros)}e${zeros}` : digits;
}

function roundDownToDigits(amount: bigint, digits: number): bigint {
  const drop = amount.toString().length - digits;
  if (drop <= 0) return amount;
  const unit = 10n ** BigInt(drop);
  return (amount / unit) * unit;
}

/** What a `thorchain` route leg carries for its memo (RouteLeg's `thorchain` and `tokenOut`). */
export interface ThorchainMemoLeg {
  thorchain: {
    asset: string;
    streamingInterval: number;
    streamingQuantity: number;
    affiliates?: ThorchainAffiliate[];
    /** Older messages: one affiliate. */
    affiliate?: string;
    affiliateBps?: number;
  };
  tokenOut: { decimals: number };
}

/** The affiliates a leg's memo names: its `affiliates`, or an older message's single affiliate. */
export function thorchainLegAffiliates(thorchain: ThorchainMemoLeg['thorchain']): ThorchainAffiliate[] {
  if (thorchain.affiliates !== undefined) return thorchain.affiliates;
  return thorchain.affiliate !== undefined
    ? [{ name: thorchain.affiliate, bps: thorchain.affiliateBps ?? 0 }]
    : [];
}

/**
 * Whether the leg's memo names every one of `fees`' recipients as an affiliate: THORChain then takes
 * those integrator fees out of the deposit itself, which carries the gross amount, and nothing
 * else pays them.
 */
export function thorchainAffiliatesTake(
  thorchain: ThorchainMemoLeg['thorchain'],
  fees: readonly { recipient: string }[],
): boolean {
  const names = new Set(thorchainLegAffiliates(thorchain).map((affiliate) => affiliate.name.toLowerCase()));
  return fees.length > 0 && fees.every((fee) => names.has(fee.recipient.toLowerCase()));
}

/**
 * Whether `text` can be paid as a THORChain affiliate: a `thor1…` address, or a THORName (1–30
 * characters of a-z, 0-9, `+`, `_`, `-`). A name starting `0x` is taken for a mistyped EVM address.
 */
export function isThorchainAffiliate(text: string): boolean {
  if (THOR_ADDRESS.test(text)) return true;
  return THORNAME.test(text) && !/^0x/i.test(text);
}

/**
 * The swap memo of a `thorchain` leg, out of Bitcoin (the OP_RETURN) or an EVM chain (the router's
 * `memo`) alike: the asset, streaming and affiliate its quote priced, the recipient, and the leg's
 * minimum out (`minOut`, base units of tokenOut) in THORChain's 1e8 units as the limit.
 */
export function thorchainLegMemo(leg: ThorchainMemoLeg, recipient: string, minOut: bigint): string {
  return thorchainSwapMemo({
    asset: leg.thorchain.asset,
    destination: recipient,
    limit: toThorchainUnits(minOut, leg.tokenOut.decimals),
    streamingInterval: leg.thorchain.streamingInterval,
    streamingQuantity: leg.thorchain.streamingQuantity,
    affiliates: thorchainLegAffiliates(leg.thorchain),
  });
}

/**
 * Parses a swap memo as THORChain's parser reads it: the prefix `=`, `s` or `SWAP` (any case), the
 * asset, the destination, then optional `LIMIT[/INTERVAL[/QUANTITY]]`, affiliate and fee. Undefined
 * for any other memo, or one THORChain would refuse (a bad asset, a non-numeric limit, a fee over
 * 1000 bps). Amount shorthand (`1e6`) is read too, as THORChain reads it.
 */
export function parseThorchainSwapMemo(text: string): ThorchainSwapMemo | undefined {
  const [prefix, asset, destination, limitField = '', affiliate = '', feeField = '', ...rest] =
    text.split(':');
  if (rest.length > 0 || !SWAP_PREFIXES.has((prefix ?? '').toLowerCase())) return undefined;
  if (asset === undefined || parseThorchainAsset(asset) === undefined) return undefined;
  if (destination === undefined || !/^[0-9A-Za-z]{20,90}$/.test(destination)) return undefined;

  const [limitText = '', intervalText = '', quantityText = '', ...more] = limitField.split('/');
  if (more.length > 0) return undefined;
  const limit = limitText === '' ? 0n : parseMemoAmount(limitText);
  const streamingInterval = intervalText === '' ? 0 : Number(parseMemoAmount(intervalText));
  const streamingQuantity = quantityText === '' ? 0 : Number(parseMemoAmount(quantityText));
  if (limit === undefined || Number.isNaN(streamingInterval) || Number.isNaN(streamingQuantity))
    return undefined;

  const affiliates = parseThorchainAffiliates(affiliate, feeField);
  if (affiliates === undefined) return undefined;
  return {
    asset: asset.toUpperCase(),
    destination,
    limit,
    streamingInterval,
    streamingQuantity,
    ...(affiliates.length > 0 ? { affiliates } : {}),
  };
}

/**
 * The affiliates of a memo (or of THORNode's `affiliate` / `affiliate_bps` parameters) as THORChain
 * reads them: `t1/t2/t3` with one bps for each (`10/20/30`) or one for all (`10`), at most
 * THORCHAIN_MAX_AFFILIATES; undefined when THORChain would refuse them.
 */
export function parseThorchainAffiliates(
  namesField: string,
  bpsField: string,
): ThorchainAffiliate[] | undefined {
  if (namesField === '') return [];
  const names = namesField.split('/');
  const bpsTexts = bpsField === '' ? ['0'] : bpsField.split('/');
  if (names.length > THORCHAIN_MAX_AFFILIATES || !names.every((name) => AFFILIATE.test(name)))
    return undefined;
  if (bpsTexts.length !== 1 && bpsTexts.length !== names.length) return undefined;
  const bps = bpsTexts.map(parseMemoAmount);
  if (bps.some((value) => value === undefined || value > BigInt(THORCHAIN_MAX_AFFILIATE_BPS)))
    return undefined;
  return names.map((name, index) => ({ name, bps: Number(bps[bps.length === 1 ? 0 : index]) }));
}

/** The bps THORChain takes out of the input for all of `affiliates` together. */
export function thorchainAffiliatesBps(affiliates: readonly ThorchainAffiliate[] = []): number {
  return affiliates.reduce((sum, affiliate) => sum + affiliate.bps, 0);
}

/** `123`, or THORChain's shorthand `123e4`; undefined for anything else. */
function parseMemoAmount(text: string): bigint | undefined {
  const match = /^([0-9]{1,78})(?:e([0-9]{1,2}))?$/i.exec(text);
  if (!match) return undefined;
  return BigInt(match[1]) * 10n ** BigInt(match[2] ?? '0');
}

/** The memo of THORChain's payout for inbound `hash`: `OUT:<HASH>` (upper-case hex, no 0x). */
export function thorchainOutboundMemo(hash: string): string {
  return `OUT:${inboundHash(hash)}`;
}

/** The memo of THORChain's refund of inbound `hash`: `REFUND:<HASH>`. */
export function thorchainRefundMemo(hash: string): string {
  return `REFUND:${inboundHash(hash)}`;
}

/** The inbound hash an `OUT:` or `REFUND:` memo names, and which it is; undefined otherwise. */
export function parseThorchainOutboundMemo(
  text: string,
): { kind: 'out' | 'refund'; inboundHash: string } | undefined {
  const match = /^(OUT|REFUND):([0-9A-F]{64})$/i.exec(text);
  if (!match) return undefined;
  return { kind: match[1].toUpperCase() === 'OUT' ? 'out' : 'refund', inboundHash: match[2].toUpperCase() };
}

/** A transaction hash as THORNode keys it: upper-case hex without 0x. */
export function inboundHash(hash: string): string {
  const match = HASH.exec(hash);
  if (!match) throw new Error(`${hash} is not a 32-byte transaction hash`);
  return match[1].toUpperCase();
}

/** `amount` base units of a token of `decimals` in THORChain's 1e8 units, rounded down. */
export function toThorchainUnits(amount: bigint, decimals: number): bigint {
  return decimals >= THORCHAIN_DECIMALS
    ? amount / 10n ** BigInt(decimals - THORCHAIN_DECIMALS)
    : amount * 10n ** BigInt(THORCHAIN_DECIMALS - decimals);
}

/** 1e8 units back into base units of a token of `decimals`, rounded down (fewer than 8 decimals). */
export function fromThorchainUnits(units: bigint, decimals: number): bigint {
  return decimals >= THORCHAIN_DECIMALS
    ? units * 10n ** BigInt(decimals - THORCHAIN_DECIMALS)
    : units / 10n ** BigInt(THORCHAIN_DECIMALS - decimals);
}
