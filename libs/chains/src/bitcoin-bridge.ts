import { bech32 } from '@scure/base';
import * as btc from '@scure/btc-signer';
import bs58 from 'bs58';
import { getAddress } from 'ethers';
import {
  anyNetworkBitcoinAddressOf,
  bitcoinNetworkOfAddress,
  decodeBitcoinAddress,
  scriptProgramOf,
} from './families/bitcoin/bitcoin-address';
import {
  BITCOIN_NETWORKS,
  bip84CoinType,
  SATS_PER_BTC,
  type BitcoinNetworkName,
} from './families/bitcoin/bitcoin-networks';

// The on-chain format of the devnet bridge's Bitcoin end, which takes native BTC as THORChain and
// Chainflip do: a deposit is a payment to the vault plus one OP_RETURN memo naming the destination;
// the bridge pays USDC for it on the destination at a fixed price. Pure encoding, shared by the
// services (they build deposits) and libs/devnet (its relayer reads them). Imported as
// @swapgw/chains/bitcoin-bridge, not through the index: only those need @scure/btc-signer.

export * from './families/bitcoin/thorchain-memo';
export * from './families/bitcoin/thornode-api';

export { BITCOIN_NETWORKS, bip84CoinType, bitcoinNetworkOfAddress, SATS_PER_BTC, type BitcoinNetworkName };

/**
 * The bridge's id for Bitcoin: `destinationChainId` of an EVM `depositTo` paying BTC, and
 * `sourceChainId` of the release paying a Bitcoin deposit. Bitcoin has no chain id; this is the one
 * LI.FI gives it, and it differs from every devnet EVM chain id and from Solana's.
 */
export const BITCOIN_BRIDGE_CHAIN_ID = 20000000000001;

/** The most bytes of memo one standard OP_RETURN output carries (THORChain's memo limit too). */
export const BITCOIN_BRIDGE_MEMO_MAX_BYTES = 80;

/** The price and fee of the bridge's Bitcoin end: the manifest's `bitcoin.bridge` section. */
export interface BitcoinBridgeTerms {
  /** Whole USDC per BTC, fixed on the devnet. */
  usdcPerBtc: number;
  /** Fee kept on a deposit, in basis points, as the EVM bridges keep it. */
  feeBps: number;
  /**
   * The miner fee each BTC payout (release or refund) bears, taken from what it pays: fixed per
   * payout, as THORChain's outbound fee is, so a quote knows it in advance.
   */
  outboundFeeSats: number;
}

/** What a Bitcoin deposit's memo says. */
export interface BitcoinBridgeDeposit {
  /** API chain id of the destination, e.g. `devnet-a` or `solana-devnet`. */
  destinationChain: string;
  /** What the bridge pays there: `USDC`. */
  asset: string;
  /** Checksummed EVM address, a base58 Solana address, or a bech32 Cosmos account (`noble1…`). */
  recipient: string;
  /** The least the recipient accepts, in the asset's base units; below it the deposit is refunded. */
  minAmountOut: bigint;
}

const USDC_UNITS_PER_USDC = 1_000_000n;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const DEPOSIT_MEMO =
  /^=:([a-z0-9][a-z0-9-]{0,31})\.([A-Z0-9]{1,10}):([0-9A-Za-z]{32,44}):(0|[1-9][0-9]{0,77})$/;
const RELEASE_MEMO = /^swapgw-bridge-release:(\d{1,14}):([A-Za-z0-9_-]{43})$/;
const REFUND_MEMO = /^swapgw-bridge-refund:([A-Za-z0-9_-]{43})$/;
const OP_RETURN = 0x6a;

/**
 * THORChain's swap memo with our API chain ids: `=:<destinationChain>.<asset>:<recipient>:<minAmountOut>`,
 * e.g. `=:devnet-a.USDC:0x70997970C51812dc3A010C7d01b50e0d17dc79C8:88200000`. The recipient is an
 * EVM address (checksummed here), a base58 Solana address or a lower-case bech32 Cosmos account of
 * 20 bytes (`noble1…`, 44 characters); the minimum is in the asset's base units. Throws when the memo
 * would not fit one OP_RETURN output.
 */
export function bitcoinBridgeDepositMemo(deposit: BitcoinBridgeDeposit): string {
  const recipient = normalizeRecipient(deposit.recipient);
  if (recipient === undefined)
    throw new Error(`bridge recipient ${deposit.recipient} is not an EVM, Solana or Cosmos address`);
  if (deposit.minAmountOut < 0n) throw new Error('minAmountOut cannot be negative');
  const memo = `=:${deposit.destinationChain}.${deposit.asset}:${recipient}:${deposit.minAmountOut}`;
  if (parseBitcoinBridgeDepositMemo(memo) === undefined)
    throw new Error(`destination ${deposit.destinationChain}.${deposit.asset} cannot be written in a memo`);
  if (Buffer.byteLength(memo) > BITCOIN_BRIDGE_MEMO_MAX_BYTES)
    throw new Error(
      `bridge memo is ${Buffer.byteLength(memo)} bytes, more than ${BITCOIN_BRIDGE_MEMO_MAX_BYTES}`,
    );
  return memo;
}

/** Parses a deposit memo; undefined when the text is not exactly one (strict: no THORChain aliases). */
export function parseBitcoinBridgeDepositMemo(text: string): BitcoinBridgeDeposit | undefined {
  if (Buffer.byteLength(text) > BITCOIN_BRIDGE_MEMO_MAX_BYTES) return undefined;
  const match = DEPOSIT_MEMO.exec(text);
  if (!match) return undefined;
  const recipient = normalizeRecipient(match[3]);
  // A mixed-case EVM address with a wrong checksum is a typo, not a recipient.
  if (recipient === undefined || (EVM_ADDRESS.test(match[3]) && !sameCaseOrChecksummed(match[3])))
    return undefined;
  return { destinationChain: match[1], asset: match[2], recipient, minAmountOut: BigInt(match[4]) };
}

/**
 * The memo of each vault payout, the on-chain record that makes a release idempotent:
 * `swapgw-bridge-release:<sourceChainId>:<nonce>`, the nonce as 32 bytes in base64url (43
 * characters). Not in decimal as on Solana: a Solana or Bitcoin source's nonce is 256 bits, 78
 * digits, and the memo must fit one OP_RETURN (80 bytes).
 */
export function bitcoinBridgeReleaseMemo(sourceChainId: bigint, nonce: bigint): string {
  return `swapgw-bridge-release:${sourceChainId}:${uint256Base64url(nonce)}`;
}

export function parseBitcoinBridgeReleaseMemo(
  text: string,
): { sourceChainId: bigint; nonce: bigint } | undefined {
  const match = RELEASE_MEMO.exec(text);
  return match ? { sourceChainId: BigInt(match[1]), nonce: base64urlUint256(match[2]) } : undefined;
}

/**
 * The memo of a refund of deposit `txid` (THORChain's refund), recorded so it is paid once:
 * `swapgw-bridge-refund:<txid as base64url>`, short enough for one OP_RETURN.
 */
export function bitcoinBridgeRefundMemo(txid: string): string {
  return `swapgw-bridge-refund:${uint256Base64url(bitcoinDepositNonce(txid))}`;
}

/** The txid a refund memo names, or undefined. */
export function parseBitcoinBridgeRefundMemo(text: string): string | undefined {
  const match = REFUND_MEMO.exec(text);
  return match ? base64urlUint256(match[1]).toString(16).padStart(64, '0') : undefined;
}

function uint256Base64url(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new Error(`${value} is not a uint256`);
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex').toString('base64url');
}

function base64urlUint256(text: string): bigint {
  return BigInt(`0x${Buffer.from(text, 'base64url').toString('hex')}`);
}

/** `OP_RETURN <text>`: one push of the UTF-8 bytes (≤ 80, so a direct push or OP_PUSHDATA1). */
export function opReturnScript(text: string): Uint8Array {
  const data = Buffer.from(text, 'utf8');
  if (data.length > BITCOIN_BRIDGE_MEMO_MAX_BYTES)
    throw new Error(`OP_RETURN data is ${data.length} bytes, more than ${BITCOIN_BRIDGE_MEMO_MAX_BYTES}`);
  return Uint8Array.from([OP_RETURN, ...(data.length > 75 ? [0x4c] : []), data.length, ...data]);
}

/** The text of an `OP_RETURN <one push>` script, or undefined for any other script. */
export function opReturnText(script: Uint8Array): string | undefined {
  if (script[0] !== OP_RETURN) return undefined;
  let offset = 1;
  let length = script[offset++];
  if (length === 0x4c) length = script[offset++];
  else if (length === undefined || length > 75) return undefined;
  if (offset + length !== script.length) return undefined;
  return Buffer.from(script.subarray(offset)).toString('utf8');
}

/**
 * USDC base units the bridge pays for `sats` BTC: at the fixed price, rounded down, then less the
 * bridge fee, rounded down as the EVM bridge rounds it (amountAfterBridgeFee). So 1 BTC at 90,000
 * USDC and 5 bps pays 89,955 USDC.
 */
export function usdcForSats(sats: bigint, terms: Pick<BitcoinBridgeTerms, 'usdcPerBtc' | 'feeBps'>): bigint {
  const gross = (sats * usdcPerBtcOf(terms) * USDC_UNITS_PER_USDC) / SATS_PER_BTC;
  return gross - (gross * BigInt(terms.feeBps)) / 10_000n;
}

/**
 * Sats the bridge pays for `units` USDC base units at the fixed price, rounded down. No bridge fee:
 * a transfer into Bitcoin had it taken on its source chain (the EVM or Solana deposit). The payout's
 * own miner fee comes off separately (the outbound fee).
 */
export function satsForUsdc(units: bigint, terms: Pick<BitcoinBridgeTerms, 'usdcPerBtc'>): bigint {
  return (units * SATS_PER_BTC) / (usdcPerBtcOf(terms) * USDC_UNITS_PER_USDC);
}

/** The 12th byte of a P2SH recipient's 32 bytes (11 zero bytes, this marker, the 20-byte script hash). */
const P2SH_RECIPIENT_MARKER = 0x01;

/**
 * A Bitcoin address as the `bytes32 recipient` of the EVM bridge's `depositTo`:
 *  - P2WPKH: its key hash left-padded with 12 zero bytes;
 *  - P2SH: 11 zero bytes, 0x01, its 20-byte script hash;
 *  - P2TR: its output key as it is.
 * P2WSH (also 32 bytes) cannot be told from P2TR in 32 bytes and is not supported, nor is P2PKH.
 */
export function bitcoinRecipientToBytes32(address: string): string {
  const decoded = anyNetworkBitcoinAddressOf(address);
  if (decoded === null)
    throw new Error(`bridge recipient ${address} is not a P2WPKH, P2TR or P2SH Bitcoin address`);
  const program = Buffer.from(scriptProgramOf(decoded)).toString('hex');
  if (decoded.kind === 'p2sh') return `0x${'00'.repeat(11)}${hexByte(P2SH_RECIPIENT_MARKER)}${program}`;
  return `0x${program.padStart(64, '0')}`;
}

const hexByte = (byte: number): string => byte.toString(16).padStart(2, '0');

/**
 * The inverse, on `network`: 32 bytes whose first 12 are zero read as a P2WPKH key hash, whose first
 * 11 are zero and 12th P2SH_RECIPIENT_MARKER as a P2SH script hash (a P2TR output key with 88
 * leading zero bits would need 2^88 tries to find), anything else as a P2TR output key. Throws when
 * the 32 bytes are not a valid output key.
 */
export function bytes32ToBitcoinAddress(raw: string, network: BitcoinNetworkName): string {
  const hex = raw.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${raw} is not 32 bytes of hex`);
  const bytes = Buffer.from(hex, 'hex');
  const params = BITCOIN_NETWORKS[network];
  const zeroLead = bytes.subarray(0, 11).every((b) => b === 0);
  const script =
    zeroLead && bytes[11] === 0
      ? btc.OutScript.encode({ type: 'wpkh', hash: bytes.subarray(12) })
      : zeroLead && bytes[11] === P2SH_RECIPIENT_MARKER
        ? btc.OutScript.encode({ type: 'sh', hash: bytes.subarray(12) })
        : btc.OutScript.encode({ type: 'tr', pubkey: bytes });
  return btc.Address(params).encode(btc.OutScript.decode(script));
}

/**
 * Whether `address` is a P2WPKH, P2TR (lower-case bech32) or P2SH address: of `network` when given,
 * else of any Bitcoin network.
 */
export function isBitcoinBridgeRecipient(address: string, network?: BitcoinNetworkName): boolean {
  if (network !== undefined) return decodeBitcoinAddress(address, network).ok;
  return anyNetworkBitcoinAddressOf(address) !== null;
}

/**
 * The bridge nonce of a Bitcoin deposit: its txid (as Esplora shows it) as an unsigned integer. The
 * same on every scan and unique, as the EVM bridge needs of a uint256 nonce.
 */
export function bitcoinDepositNonce(txid: string): bigint {
  if (!/^[0-9a-f]{64}$/.test(txid)) throw new Error(`${txid} is not a Bitcoin txid`);
  return BigInt(`0x${txid}`);
}

/**
 * What kind of recipient a deposit memo names: an EVM address, a bech32 Cosmos account (with its
 * prefix, `noble`), else a Solana key (parseBitcoinBridgeDepositMemo admits nothing else).
 */
export function bitcoinBridgeRecipientKind(
  recipient: string,
): { kind: 'evm' } | { kind: 'solana' } | { kind: 'cosmos'; bech32Prefix: string } {
  if (EVM_ADDRESS.test(recipient)) return { kind: 'evm' };
  const cosmos = cosmosAccountOf(recipient);
  return cosmos ? { kind: 'cosmos', bech32Prefix: cosmos.prefix } : { kind: 'solana' };
}

/** A lower-case bech32 address of 20 bytes (a Cosmos account), or undefined. */
function cosmosAccountOf(text: string): { prefix: string } | undefined {
  if (!/^[a-z]{1,20}1[02-9ac-hj-np-z]{38}$/.test(text)) return undefined;
  try {
    const decoded = bech32.decode(text as `${string}1${string}`);
    return bech32.fromWords(decoded.words).length === 20 ? { prefix: decoded.prefix } : undefined;
  } catch {
    return undefined;
  }
}

function normalizeRecipient(recipient: string): string | undefined {
  if (cosmosAccountOf(recipient)) return recipient;
  if (EVM_ADDRESS.test(recipient)) {
    try {
      return getAddress(recipient.toLowerCase());
    } catch {
      return undefined;
    }
  }
  if (!BASE58_KEY.test(recipient)) return undefined;
  try {
    return bs58.decode(recipient).length === 32 ? recipient : undefined;
  } catch {
    return undefined;
  }
}

function sameCaseOrChecksummed(address: string): boolean {
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  try {
    return getAddress(address) === address;
  } catch {
    return false;
  }
}

function usdcPerBtcOf(terms: Pick<BitcoinBridgeTerms, 'usdcPerBtc'>): bigint {
  if (!Number.isSafeInteger(terms.usdcPerBtc) || terms.usdcPerBtc <= 0)
    throw new Error(`usdcPerBtc must be a positive integer, not ${terms.usdcPerBtc}`);
  return BigInt(terms.usdcPerBtc);
}
