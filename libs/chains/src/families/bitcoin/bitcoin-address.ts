import * as btc from '@scure/btc-signer';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from './bitcoin-networks';

/** The address kinds a wallet of the suite spends from and is paid to: native SegWit v0 and Taproot. */
export type BitcoinAddressKind = 'p2wpkh' | 'p2tr';

/** A decoded wallet address: its kind and the output script that pays it. */
export interface BitcoinAddress {
  address: string;
  network: BitcoinNetworkName;
  kind: BitcoinAddressKind;
  /** The scriptPubKey (`OP_0 <20-byte key hash>` or `OP_1 <32-byte output key>`). */
  script: Uint8Array;
}

const PREFIXES = Object.entries(BITCOIN_NETWORKS).map(([name, params]) => ({
  name: name as BitcoinNetworkName,
  hrp: `${params.bech32}1`,
}));

/**
 * `address` decoded as a P2WPKH (bech32 `…1q…`) or P2TR (bech32m `…1p…`) address of `network`, or
 * the reason it is not one. Only lower case is accepted (the form wallets show; an all-upper-case
 * QR form would be a second spelling of one address in our records). P2PKH, P2SH, P2WSH and other
 * witness versions are refused: the wallets the suite serves spend and receive with these two.
 */
export function decodeBitcoinAddress(
  address: string,
  network: BitcoinNetworkName,
): { ok: true; value: BitcoinAddress } | { ok: false; reason: string } {
  const params = BITCOIN_NETWORKS[network];
  const hrp = `${params.bech32}1`;
  if (typeof address !== 'string' || address.length === 0)
    return { ok: false, reason: 'a Bitcoin address is required' };
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
        : `a ${network} address is bech32 ${hrp}… (P2WPKH or P2TR)`;
    return { ok: false, reason };
  }
  let decoded: ReturnType<ReturnType<typeof btc.Address>['decode']>;
  try {
    decoded = btc.Address(params).decode(address);
  } catch (error) {
    return { ok: false, reason: `not a valid bech32 address (${(error as Error).message})` };
  }
  if (decoded.type !== 'wpkh' && decoded.type !== 'tr')
    return { ok: false, reason: 'only P2WPKH (…1q…) and P2TR (…1p…) addresses are accepted' };
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

/** The network an address is of, by its bech32 prefix (the longest matching: bcrt1 before bc1). */
export function bitcoinNetworkOfAddress(address: string): BitcoinNetworkName | undefined {
  return PREFIXES.filter((p) => address.startsWith(p.hrp)).sort((a, b) => b.hrp.length - a.hrp.length)[0]
    ?.name;
}

/** A P2WPKH or P2TR address of whichever network its prefix names, or null. */
export function anyNetworkBitcoinAddressOf(address: string): BitcoinAddress | null {
  const network = bitcoinNetworkOfAddress(address);
  return network === undefined ? null : bitcoinAddressOf(address, network);
}

/** The witness program of an address: a P2WPKH key hash (20 bytes) or a P2TR output key (32). */
export function witnessProgramOf(address: BitcoinAddress): Uint8Array {
  // OP_0 <20> or OP_1 <32>: one opcode, one push length, then the program.
  return address.script.subarray(2);
}

/** The decoded address, or null when it is not a P2WPKH / P2TR address of `network`. */
export function bitcoinAddressOf(address: string, network: BitcoinNetworkName): BitcoinAddress | null {
  const result = decodeBitcoinAddress(address, network);
  return result.ok ? result.value : null;
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
