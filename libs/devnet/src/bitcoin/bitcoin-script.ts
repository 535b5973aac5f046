import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';

/** Esplora's `scriptpubkey_type` names (esplora's script type, as electrs serialises it). */
export type EsploraScriptType =
  'p2pk' | 'p2pkh' | 'p2sh' | 'v0_p2wpkh' | 'v0_p2wsh' | 'v1_p2tr' | 'op_return' | 'multisig' | 'unknown';

const OP_RETURN = 0x6a;
/** Bitcoin Core's default -datacarriersize: an OP_RETURN script of at most 83 bytes is standard. */
export const MAX_OP_RETURN_SCRIPT_BYTES = 83;
/** Bitcoin Core's dust relay fee (DUST_RELAY_TX_FEE): 3 sat/vB. */
const DUST_RELAY_SATS_PER_VBYTE = 3n;

export function scriptType(script: Uint8Array): EsploraScriptType {
  if (script[0] === OP_RETURN) return 'op_return';
  let type: string;
  try {
    type = btc.OutScript.decode(script).type;
  } catch {
    return 'unknown';
  }
  switch (type) {
    case 'pk':
      return 'p2pk';
    case 'pkh':
      return 'p2pkh';
    case 'sh':
      return 'p2sh';
    case 'wpkh':
      return 'v0_p2wpkh';
    case 'wsh':
      return 'v0_p2wsh';
    case 'tr':
      return 'v1_p2tr';
    case 'ms':
      return 'multisig';
    default:
      return 'unknown';
  }
}

/** The address on `network` a script pays, or undefined (OP_RETURN, bare multisig, non-standard). */
export function scriptAddress(script: Uint8Array, network: BitcoinNetworkName): string | undefined {
  const type = scriptType(script);
  if (type === 'op_return' || type === 'unknown' || type === 'multisig' || type === 'p2pk') return undefined;
  return btc.Address(BITCOIN_NETWORKS[network]).encode(btc.OutScript.decode(script));
}

/**
 * Bitcoin Core's GetDustThreshold: an output is dust when spending it would cost more than it is
 * worth at 3 sat/vB, counting the output (8-byte value, length, script) and a typical input
 * spending it (witness programs: 67 vbytes; others 148 bytes). So 294 sats for P2WPKH, 330 for
 * P2TR and P2WSH, 546 for P2PKH. OP_RETURN outputs are never dust (they are unspendable).
 */
export function dustThreshold(script: Uint8Array): bigint {
  if (script[0] === OP_RETURN) return 0n;
  const outputSize = 8 + compactSizeLength(script.length) + script.length;
  const inputSize = isWitnessProgram(script) ? 32 + 4 + 1 + Math.floor(107 / 4) + 4 : 32 + 4 + 1 + 107 + 4;
  return BigInt(outputSize + inputSize) * DUST_RELAY_SATS_PER_VBYTE;
}

/** `OP_n <2..40 bytes>`: BIP141's witness program shape. */
export function isWitnessProgram(script: Uint8Array): boolean {
  if (script.length < 4 || script.length > 42) return false;
  const version = script[0];
  if (version !== 0 && (version < 0x51 || version > 0x60)) return false;
  return script[1] + 2 === script.length;
}

const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_PUSHDATA4 = 0x4e;
const OP_1NEGATE = 0x4f;
const OP_1 = 0x51;
const OP_16 = 0x60;

/**
 * What a push-only script (a scriptSig) leaves on the stack, bottom first; undefined when it is not
 * push-only or a push runs past its end, so Bitcoin Core's IsPushOnly fails. OP_0 pushes an empty
 * item, OP_1NEGATE and OP_1..OP_16 their number. (OP_RESERVED, push-only to IsPushOnly but failing
 * when run, is answered as not push-only: no standard script has it.)
 */
export function pushOnlyStack(script: Uint8Array): Uint8Array[] | undefined {
  const stack: Uint8Array[] = [];
  let i = 0;
  while (i < script.length) {
    const op = script[i++];
    if (op === OP_1NEGATE) stack.push(Uint8Array.of(0x81));
    else if (op >= OP_1 && op <= OP_16) stack.push(Uint8Array.of(op - OP_1 + 1));
    else if (op <= OP_PUSHDATA4) {
      const lengthBytes = op === OP_PUSHDATA1 ? 1 : op === OP_PUSHDATA2 ? 2 : op === OP_PUSHDATA4 ? 4 : 0;
      if (i + lengthBytes > script.length) return undefined;
      let length = lengthBytes === 0 ? op : 0;
      for (let b = 0; b < lengthBytes; b++) length += script[i + b] * 2 ** (8 * b);
      i += lengthBytes;
      if (i + length > script.length) return undefined;
      stack.push(script.subarray(i, i + length));
      i += length;
    } else return undefined;
  }
  return stack;
}

/**
 * `data` as one push, as Bitcoin Core's `CScript() << data` writes it: the shortest push opcode for
 * its length (a direct push up to 75 bytes, then OP_PUSHDATA1/2/4).
 */
export function pushOf(data: Uint8Array): Uint8Array {
  const n = data.length;
  const prefix =
    n < OP_PUSHDATA1
      ? [n]
      : n <= 0xff
        ? [OP_PUSHDATA1, n]
        : n <= 0xffff
          ? [OP_PUSHDATA2, n & 0xff, n >> 8]
          : [OP_PUSHDATA4, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
  return Uint8Array.from([...prefix, ...data]);
}

const OPCODE_NAMES: Record<number, string> = {
  0x61: 'OP_NOP',
  0x63: 'OP_IF',
  0x64: 'OP_NOTIF',
  0x67: 'OP_ELSE',
  0x68: 'OP_ENDIF',
  0x69: 'OP_VERIFY',
  0x6a: 'OP_RETURN',
  0x75: 'OP_DROP',
  0x76: 'OP_DUP',
  0x7c: 'OP_SWAP',
  0x82: 'OP_SIZE',
  0x87: 'OP_EQUAL',
  0x88: 'OP_EQUALVERIFY',
  0xa8: 'OP_SHA256',
  0xa9: 'OP_HASH160',
  0xaa: 'OP_HASH256',
  0xab: 'OP_CODESEPARATOR',
  0xac: 'OP_CHECKSIG',
  0xad: 'OP_CHECKSIGVERIFY',
  0xae: 'OP_CHECKMULTISIG',
  0xaf: 'OP_CHECKMULTISIGVERIFY',
  0xb1: 'OP_CLTV',
  0xb2: 'OP_CSV',
  0xba: 'OP_CHECKSIGADD',
};

/** A script in Esplora's `*_asm` notation (rust-bitcoin's): `OP_0 OP_PUSHBYTES_20 <hex>`. */
export function scriptAsm(script: Uint8Array): string {
  const parts: string[] = [];
  let i = 0;
  const push = (name: string, lengthBytes: number) => {
    let length = 0;
    for (let b = 0; b < lengthBytes; b++) length |= script[i + b] << (8 * b);
    i += lengthBytes;
    const data = script.subarray(i, i + length);
    i += length;
    parts.push(`${name} ${Buffer.from(data).toString('hex')}`.trimEnd());
  };
  while (i < script.length) {
    const op = script[i++];
    if (op === 0) parts.push('OP_0');
    else if (op <= 0x4b) {
      i--;
      const length = script[i++];
      const data = script.subarray(i, i + length);
      i += length;
      parts.push(`OP_PUSHBYTES_${length} ${Buffer.from(data).toString('hex')}`);
    } else if (op === 0x4c) push('OP_PUSHDATA1', 1);
    else if (op === 0x4d) push('OP_PUSHDATA2', 2);
    else if (op === 0x4e) push('OP_PUSHDATA4', 4);
    else if (op === 0x4f) parts.push('OP_PUSHNUM_NEG1');
    else if (op >= 0x51 && op <= 0x60) parts.push(`OP_PUSHNUM_${op - 0x50}`);
    else parts.push(OPCODE_NAMES[op] ?? `OP_RETURN_${op}`);
  }
  return parts.join(' ');
}

function compactSizeLength(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
}
