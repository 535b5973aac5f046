import * as btc from '@scure/btc-signer';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type { AddressCheckedChain, AddressValidation } from '../family-traits';
import { BITCOIN_NETWORKS, type BitcoinNetworkName, bitcoinNetworksOfChain } from './bitcoin-networks';

/**
 * The address kinds a wallet of the suite spends from and is paid to: native SegWit v0 (Leather,
 * Ledger), Taproot (Unisat's default) and P2SH (Xverse's payment address, SegWit nested in P2SH:
 * the suite spends a P2SH address only as P2SH-P2WPKH, whose key the wallet tells; any P2SH is paid).
 */
export type BitcoinAddressKind = 'p2wpkh' | 'p2tr' | 'p2sh';

/** A decoded wallet address: its kind and the output script that pays it. */
export interface BitcoinAddress {
  address: string;
  network: BitcoinNetworkName;
  kind: BitcoinAddressKind;
  /**
   * The scriptPubKey: `OP_0 <20-byte key hash>`, `OP_1 <32-byte output key>` or
   * `OP_HASH160 <20-byte script hash> OP_EQUAL`.
   */
  script: Uint8Array;
}

const PREFIXES = Object.entries(BITCOIN_NETWORKS).map(([name, params]) => ({
  name: name as BitcoinNetworkName,
  hrp: `${params.bech32}1`,
}));

/** Base58 of a 25-byte P2SH address: `3…` on mainnet, `2…` on the test networks. */
const BASE58_P2SH = /^[23][1-9A-HJ-NP-Za-km-z]{32,34}$/;

/**
 * `address` decoded as an address of `network` the suite's wallets use, or the reason it is not
 * one: P2WPKH (bech32 `…1q…`), P2TR (bech32m `…1p…`) or P2SH (base58 `3…` on mainnet, `2…` on
 * testnet and regtest, which share its version byte). Bech32 only in lower case (the form wallets
 * show; an all-upper-case QR form would be a second spelling of one address in our records). P2PKH,
 * P2WSH and other witness versions are refused: the wallets the suite serves do not use them.
 */
export function decodeBitcoinAddress(
  address: string,
  network: BitcoinNetworkName,
): { ok: true; value: BitcoinAddress } | { ok: false; reason: string } {
  if (typeof address !== 'string' || address.length === 0)
    return { ok: false, reason: 'a Bitcoin address is required' };
  if (BASE58_P2SH.test(address)) return decodeP2shAddress(address, network);
  const params = BITCOIN_NETWORKS[network];
  const hrp = `${params.bech32}1`;
  if (address.toLowerCase().startsWith(hrp) && address !== address.toLowerCase())
    return { ok: false, reason: 'write the bech32 address in lower case' };
  if (!address.startsWith(hrp)) {
    // bcrt1 starts with bc: the longest prefix names the network the address is of.
    const other = PREFIXES.filter((p) => address.toLowerCase().startsWith(p.hrp)).sort(
      (a, b) => b.hrp.length - a.hrp.length,
    )[0];
    const reason =
      other && other.name !== network
        ? `it is a ${other.name} address (${other.hrp}…); this chain is ${network} (${hrp}…)`
        : `a ${network} address is bech32 ${hrp}… (P2WPKH or P2TR) or base58 ${p2shLeadOf(network)}… (P2SH)`;
    return { ok: false, reason };
  }
  let decoded: ReturnType<ReturnType<typeof btc.Address>['decode']>;
  try {
    decoded = btc.Address(params).decode(address);
  } catch (error) {
    return { ok: false, reason: `not a valid bech32 address (${(error as Error).message})` };
  }
  if (decoded.type !== 'wpkh' && decoded.type !== 'tr')
    return { ok: false, reason: 'only P2WPKH (…1q…), P2TR (…1p…) and P2SH addresses are accepted' };
  return {
    ok: true,
    value: {
      address,
      network,
      kind: decoded.type === 'wpkh' ? 'p2wpkh' : 'p2tr',
      script: btc.OutScript.encode(decoded),
    },
  };
}

const p2shLeadOf = (network: BitcoinNetworkName): string => (network === 'mainnet' ? '3' : '2');

function decodeP2shAddress(
  address: string,
  network: BitcoinNetworkName,
): { ok: true; value: BitcoinAddress } | { ok: false; reason: string } {
  if (address[0] !== p2shLeadOf(network)) {
    const other = address[0] === '3' ? 'mainnet' : 'test-network';
    return {
      ok: false,
      reason: `it is a ${other} P2SH address (${address[0]}…); this chain is ${network} (${p2shLeadOf(network)}…)`,
    };
  }
  let decoded: ReturnType<ReturnType<typeof btc.Address>['decode']>;
  try {
    decoded = btc.Address(BITCOIN_NETWORKS[network]).decode(address);
  } catch (error) {
    return { ok: false, reason: `not a valid base58check address (${(error as Error).message})` };
  }
  if (decoded.type !== 'sh') return { ok: false, reason: `a ${network} P2SH address was expected` };
  return { ok: true, value: { address, network, kind: 'p2sh', script: btc.OutScript.encode(decoded) } };
}

/**
 * The network an address is of: by its bech32 prefix (the longest matching: bcrt1 before bc1), or
 * its P2SH version (`3…` mainnet; `2…` is testnet's and regtest's alike, and answers `testnet`:
 * ask decodeBitcoinAddress whether it is of a given network).
 */
export function bitcoinNetworkOfAddress(address: string): BitcoinNetworkName | undefined {
  if (BASE58_P2SH.test(address)) return address[0] === '3' ? 'mainnet' : 'testnet';
  return PREFIXES.filter((p) => address.startsWith(p.hrp)).sort((a, b) => b.hrp.length - a.hrp.length)[0]
    ?.name;
}

/** A P2WPKH, P2TR or P2SH address of whichever network its form names, or null. */
export function anyNetworkBitcoinAddressOf(address: string): BitcoinAddress | null {
  const network = bitcoinNetworkOfAddress(address);
  return network === undefined ? null : bitcoinAddressOf(address, network);
}

/**
 * What identifies an address's output script in the fewest bytes: a P2WPKH key hash or a P2SH
 * script hash (20 bytes), a P2TR output key (32).
 */
export function scriptProgramOf(address: BitcoinAddress): Uint8Array {
  // OP_0 <20>, OP_1 <32>: one opcode, one push length, then the program;
  // OP_HASH160 <20> OP_EQUAL: the same, then OP_EQUAL.
  return address.kind === 'p2sh' ? address.script.subarray(2, 22) : address.script.subarray(2);
}

/** The decoded address, or null when it is not a P2WPKH, P2TR or P2SH address of `network`. */
export function bitcoinAddressOf(address: string, network: BitcoinNetworkName): BitcoinAddress | null {
  const result = decodeBitcoinAddress(address, network);
  return result.ok ? result.value : null;
}

/** How an input is spent, which sets its size: native P2WPKH, Taproot's key path, P2WPKH nested in P2SH. */
export type BitcoinSpendKind = 'p2wpkh' | 'p2tr' | 'p2sh-p2wpkh';

/** How a wallet's inputs are spent, and what each carries in a PSBT for the wallet to sign it. */
export interface BitcoinSpend {
  kind: BitcoinSpendKind;
  /** P2TR: `tapInternalKey` (x-only); P2SH-P2WPKH: `redeemScript`; P2WPKH: nothing. */
  inputFields: { tapInternalKey?: Uint8Array; redeemScript?: Uint8Array };
}

/**
 * How `address` spends, from its kind and the wallet's public key (hex): a P2TR input needs the
 * x-only internal key, a P2SH one is spent as P2SH-P2WPKH (nested SegWit, the only P2SH spend the
 * suite builds), whose redeem script is made of the key; a P2WPKH one needs no key (one given must
 * be the address's). The reason when the key is missing or not the address's. Network-free: the key
 * hashes are the same on every network.
 */
export function bitcoinSpendOf(
  address: BitcoinAddress,
  publicKeyHex: string | undefined,
): { ok: true; value: BitcoinSpend } | { ok: false; reason: string } {
  if (publicKeyHex === undefined) {
    if (address.kind === 'p2wpkh') return { ok: true, value: { kind: 'p2wpkh', inputFields: {} } };
    return {
      ok: false,
      reason:
        address.kind === 'p2tr'
          ? 'a P2TR address needs userPublicKey (the wallet signs with its internal key)'
          : "a P2SH address needs userPublicKey (its redeem script, nested SegWit's, is made of the key)",
    };
  }
  if (!/^[0-9a-fA-F]*$/.test(publicKeyHex) || publicKeyHex.length % 2 !== 0)
    return { ok: false, reason: 'userPublicKey must be hexadecimal' };
  const key = Uint8Array.from(Buffer.from(publicKeyHex, 'hex'));
  try {
    if (address.kind === 'p2tr') {
      const xOnly = key.length === 33 ? key.slice(1) : key;
      if (equalBytes(btc.p2tr(xOnly).script, address.script))
        return { ok: true, value: { kind: 'p2tr', inputFields: { tapInternalKey: xOnly } } };
    } else if (address.kind === 'p2sh') {
      const nested = btc.p2sh(btc.p2wpkh(key));
      if (equalBytes(nested.script, address.script))
        return {
          ok: true,
          value: { kind: 'p2sh-p2wpkh', inputFields: { redeemScript: nested.redeemScript } },
        };
    } else if (equalBytes(btc.p2wpkh(key).script, address.script)) {
      return { ok: true, value: { kind: 'p2wpkh', inputFields: {} } };
    }
  } catch {
    // not a valid key: refused below
  }
  return {
    ok: false,
    reason:
      address.kind === 'p2sh'
        ? `userPublicKey is not the key of ${address.address} spent as P2SH-P2WPKH (nested SegWit, the only P2SH spend supported)`
        : `userPublicKey is not the key of ${address.address}`,
  };
}

/** Byte-for-byte equality of two scripts, keys or transactions. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The decoded address; INVALID_ADDRESS (with the reason) when it is not one of `network`. */
export function assertBitcoinAddress(
  address: string,
  network: BitcoinNetworkName,
  field = 'address',
): BitcoinAddress {
  const result = decodeBitcoinAddress(address, network);
  if (!result.ok)
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `${field} ${address} is not a Bitcoin ${network} address: ${result.reason}`,
      { field, network },
    );
  return result.value;
}

/**
 * Bitcoin: a P2WPKH or P2TR address (lower-case bech32 / bech32m) of one of `networks` (`bc1…`
 * mainnet, `tb1…` testnet, `bcrt1…` regtest); of any of them by default (a caller that knows only
 * the family).
 */
export function validateBitcoinAddress(
  address: string,
  networks: readonly BitcoinNetworkName[] = ['mainnet', 'testnet', 'regtest'],
): AddressValidation {
  const results = networks.map((network) => decodeBitcoinAddress(address, network));
  if (results.some((result) => result.ok)) return { ok: true };
  const [only] = results;
  if (results.length === 1 && only && !only.ok) return { ok: false, reason: only.reason };
  return {
    ok: false,
    reason: `a Bitcoin address here is a lower-case P2WPKH or P2TR bech32 address of ${networks.join(' or ')}`,
  };
}

/**
 * A Bitcoin Taproot or nested-SegWit (P2SH-P2WPKH) address needs its `publicKey` to sign, and a key
 * given for a Bitcoin address must be that address's.
 */
export function validateBitcoinSignerKey(
  chain: AddressCheckedChain,
  address: string,
  publicKey: string | undefined,
): AddressValidation {
  const decoded = bitcoinNetworksOfChain(chain)
    .map((network) => decodeBitcoinAddress(address, network))
    .find((result) => result.ok);
  if (!decoded?.ok) return { ok: false, reason: `${address} is not a Bitcoin address of ${chain.id}` };
  const spend = bitcoinSpendOf(decoded.value, publicKey);
  return spend.ok ? { ok: true } : { ok: false, reason: spend.reason };
}
