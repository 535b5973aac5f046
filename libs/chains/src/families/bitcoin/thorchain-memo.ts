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
  /** A THORName or THOR address paid the affiliate fee. */
  affiliate?: string;
  /** Affiliate fee in basis points of the input (0–1000). */
  affiliateBps?: number;
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
  const fee = memo.affiliateBps ?? 0;
  if (!Number.isInteger(fee) || fee < 0 || fee > THORCHAIN_MAX_AFFILIATE_BPS)
    throw new Error(`affiliateBps must be 0 to ${THORCHAIN_MAX_AFFILIATE_BPS}`);
  if (memo.affiliate !== undefined && !AFFILIATE.test(memo.affiliate))
    throw new Error(`${memo.affiliate} is not a THORName or THOR address`);
  if (fee > 0 && memo.affiliate === undefined) throw new Error('an affiliate fee needs an affiliate');

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
    text = memoText(memo, assetText, limitText, fee);
    if (Buffer.byteLength(text) <= THORCHAIN_BITCOIN_MEMO_MAX_BYTES) return text;
  }
  throw new Error(
    `the memo is ${Buffer.byteLength(text)} bytes, more than the ${THORCHAIN_BITCOIN_MEMO_MAX_BYTES} of an OP_RETURN`,
  );
}

function memoText(memo: ThorchainSwapMemo, asset: string, limitText: string, fee: number): string {
  const streaming = memo.streamingInterval > 0 || memo.streamingQuantity > 0;
  const limit = streaming
    ? `${limitText}/${memo.streamingInterval}/${memo.streamingQuantity}`
    : memo.limit > 0n
      ? limitText
      : '';
  const fields = ['=', asset, memo.destination, limit];
  if (memo.affiliate !== undefined) fields.push(memo.affiliate, `${fee}`);
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
    affiliate?: string;
    affiliateBps?: number;
  };
  tokenOut: { decimals: number };
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
    ...(leg.thorchain.affiliate !== undefined
      ? { affiliate: leg.thorchain.affiliate, affiliateBps: leg.thorchain.affiliateBps ?? 0 }
      : {}),
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

  if (affiliate !== '' && !AFFILIATE.test(affiliate)) return undefined;
  const fee = feeField === '' ? undefined : parseMemoAmount(feeField);
  if (fee === undefined && feeField !== '') return undefined;
  if (fee !== undefined && fee > BigInt(THORCHAIN_MAX_AFFILIATE_BPS)) return undefined;
  return {
    asset: asset.toUpperCase(),
    destination,
    limit,
    streamingInterval,
    streamingQuantity,
    ...(affiliate !== '' ? { affiliate } : {}),
    ...(affiliate !== '' ? { affiliateBps: Number(fee ?? 0n) } : {}),
  };
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
