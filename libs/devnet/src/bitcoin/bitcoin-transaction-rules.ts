import * as btc from '@scure/btc-signer';
import { hash160 } from '@scure/btc-signer/utils.js';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import {
  dustThreshold,
  isWitnessProgram,
  MAX_OP_RETURN_SCRIPT_BYTES,
  pushOf,
  pushOnlyStack,
  scriptType,
} from './bitcoin-script';
import { outputAt, spentOutpoint } from './bitcoin-transaction-parts';

// The rules a Bitcoin node applies to a transaction on its own (no chain state): decoding,
// Bitcoin Core's standardness of scriptSigs and outputs, and the scriptSig and witness of every
// input against what it spends.
// The chain (bitcoin-chain.ts) adds what needs its state: inputs, conflicts, fees.

/**
 * A refusal as bitcoind's sendrawtransaction words it: RPC code (-22 decode failed, -25 missing
 * inputs, -26 rejected by a rule, -27 already in the chain) and the reject reason.
 */
export class BitcoinRejection extends Error {
  constructor(
    readonly code: -22 | -25 | -26 | -27,
    message: string,
  ) {
    super(message);
    this.name = 'BitcoinRejection';
  }
}

/** What an input spends: the previous output's script and value. */
export interface Prevout {
  script: Uint8Array;
  value: bigint;
}

/** Versions Bitcoin Core relays (3: TRUC, BIP431). */
const STANDARD_VERSIONS = new Set([1, 2, 3]);
const MAX_STANDARD_TX_WEIGHT = 400_000;
/** Bitcoin Core's MAX_STANDARD_SCRIPTSIG_SIZE. */
const MAX_STANDARD_SCRIPTSIG_SIZE = 1650;
const WITNESS_SCALE_FACTOR = 4;
const SIGHASH_DEFAULT = 0x00;
const ECDSA_SIGHASH_TYPES = new Set([0x01, 0x02, 0x03, 0x81, 0x82, 0x83]);
const TAPROOT_SIGHASH_TYPES = new Set([0x01, 0x02, 0x03, 0x81, 0x82, 0x83]);
const ANNEX_TAG = 0x50;
export const NULL_TXID = '0'.repeat(64);

/** The raw hex as a transaction; -22 `TX decode failed` when it is not one. */
export function decodeRawTransaction(hex: string): btc.Transaction {
  const text = hex.trim();
  if (!/^([0-9a-fA-F]{2})+$/.test(text)) throw new BitcoinRejection(-22, 'TX decode failed');
  try {
    return btc.Transaction.fromRaw(Buffer.from(text, 'hex'), {
      allowUnknownOutputs: true,
      allowUnknownInputs: true,
      allowUnknownVersion: true,
      disableScriptCheck: true,
    });
  } catch (error) {
    throw new BitcoinRejection(-22, `TX decode failed: ${(error as Error).message}`);
  }
}

/**
 * Context-free checks (CheckTransaction) and Bitcoin Core's standardness (IsStandardTx) of the
 * scriptSigs (at most 1,650 bytes, pushes only) and of the outputs.
 */
export function checkTransactionShape(tx: btc.Transaction): void {
  if (tx.inputsLength === 0) throw new BitcoinRejection(-26, 'bad-txns-vin-empty');
  if (tx.outputsLength === 0) throw new BitcoinRejection(-26, 'bad-txns-vout-empty');
  const seen = new Set<string>();
  for (let i = 0; i < tx.inputsLength; i++) {
    const spent = spentOutpoint(tx, i);
    const key = outpointKey(spent.txid, spent.vout);
    if (key.startsWith(NULL_TXID)) throw new BitcoinRejection(-26, 'coinbase');
    if (seen.has(key)) throw new BitcoinRejection(-26, 'bad-txns-inputs-duplicate');
    seen.add(key);
  }
  if (!STANDARD_VERSIONS.has(tx.version)) throw new BitcoinRejection(-26, 'version');
  if (transactionWeight(tx) > MAX_STANDARD_TX_WEIGHT) throw new BitcoinRejection(-26, 'tx-size');
  for (let i = 0; i < tx.inputsLength; i++) {
    const scriptSig = tx.getInput(i).finalScriptSig ?? new Uint8Array();
    if (scriptSig.length > MAX_STANDARD_SCRIPTSIG_SIZE) throw new BitcoinRejection(-26, 'scriptsig-size');
    if (!pushOnlyStack(scriptSig)) throw new BitcoinRejection(-26, 'scriptsig-not-pushonly');
  }
  let opReturns = 0;
  for (let i = 0; i < tx.outputsLength; i++) {
    const { script, amount } = outputAt(tx, i);
    const type = scriptType(script);
    if (type === 'op_return') {
      opReturns++;
      if (script.length > MAX_OP_RETURN_SCRIPT_BYTES) throw new BitcoinRejection(-26, 'scriptpubkey');
    } else if (type === 'unknown') {
      throw new BitcoinRejection(-26, 'scriptpubkey');
    } else if (amount < dustThreshold(script)) {
      throw new BitcoinRejection(-26, 'dust');
    }
  }
  if (opReturns > 1) throw new BitcoinRejection(-26, 'multi-op-return');
}

/**
 * A transaction's weight (BIP141): its size without witnesses times 3 plus its full size, so the
 * scriptSig counts 4 weight units a byte and the witness 1. Counted from the serialisation, so it
 * is also defined for an input without scriptSig or witness (which the verification then refuses).
 */
export function transactionWeight(tx: btc.Transaction): number {
  const base = tx.toBytes(true, false).length;
  const total = tx.toBytes(true, true).length;
  return base * (WITNESS_SCALE_FACTOR - 1) + total;
}

/** Virtual size, the unit of fee rates: weight / 4, rounded up (Bitcoin Core's GetVirtualTransactionSize). */
export function transactionVsize(tx: btc.Transaction): number {
  return Math.ceil(transactionWeight(tx) / WITNESS_SCALE_FACTOR);
}

/**
 * Verifies every input's scriptSig and witness against what it spends: P2WPKH (BIP143 sighash,
 * ECDSA, the key hashing to the program), P2WPKH nested in P2SH (BIP141: the scriptSig is the one
 * push of the redeem script `OP_0 <key hash>`, then as P2WPKH) and P2TR key path (BIP341 sighash,
 * BIP340 Schnorr). A native witness spend has an empty scriptSig. Anything else the devnet does not
 * verify, so it refuses it rather than accept it unchecked.
 */
export function verifyInputScripts(tx: btc.Transaction, prevouts: Prevout[]): void {
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    const prevout = prevouts[i];
    const scriptSig = input.finalScriptSig ?? new Uint8Array();
    const witness = input.finalScriptWitness ?? [];
    switch (scriptType(prevout.script)) {
      case 'v0_p2wpkh':
        requireEmptyScriptSig(i, scriptSig);
        verifyP2wpkh(tx, i, prevout.script.subarray(2), prevout.value, witness);
        break;
      case 'v1_p2tr':
        requireEmptyScriptSig(i, scriptSig);
        verifyP2trKeyPath(tx, i, prevouts, witness);
        break;
      case 'p2sh':
        verifyP2shP2wpkh(tx, i, prevout, scriptSig, witness);
        break;
      default:
        throw unsupportedSpend(i, `spends a ${scriptType(prevout.script)} output`);
    }
  }
}

/** BIP141: a native witness program is spent by its witness alone; any scriptSig malleates the txid. */
function requireEmptyScriptSig(index: number, scriptSig: Uint8Array): void {
  if (scriptSig.length > 0) throw scriptFailure(index, 'Witness requires empty scriptSig');
}

/**
 * A P2SH output (BIP16) spent as nested SegWit (BIP141's P2WPKH nested in P2SH, BIP49's addresses),
 * checked in bitcoind's order: the scriptSig leaves the redeem script on top of the stack
 * (bad-txns-nonstandard-inputs when it leaves nothing); HASH160 of it must be the output's hash
 * (else the output script ends false); a witness-program redeem script must be the scriptSig's only
 * push, exactly as `CScript() << redeemScript` writes it; then the witness spends the program as a
 * native P2WPKH output would, with the program taken from the redeem script. P2SH spends of other
 * redeem scripts (legacy multisig, P2WSH in P2SH) are refused as not verified by the devnet.
 */
function verifyP2shP2wpkh(
  tx: btc.Transaction,
  index: number,
  prevout: Prevout,
  scriptSig: Uint8Array,
  witness: Uint8Array[],
): void {
  const stack = pushOnlyStack(scriptSig) ?? [];
  if (stack.length === 0) throw new BitcoinRejection(-26, 'bad-txns-nonstandard-inputs');
  const redeemScript = stack[stack.length - 1];
  const scriptHash = prevout.script.subarray(2, 22);
  if (!Buffer.from(hash160(redeemScript)).equals(Buffer.from(scriptHash)))
    throw scriptFailure(
      index,
      'Script evaluated without error but finished with a false/empty top stack element',
    );
  if (!isWitnessProgram(redeemScript))
    throw unsupportedSpend(index, 'spends a P2SH output with a non-witness redeem script');
  if (!Buffer.from(scriptSig).equals(Buffer.from(pushOf(redeemScript))))
    throw scriptFailure(index, 'Witness requires only-redeemscript scriptSig');
  if (scriptType(redeemScript) !== 'v0_p2wpkh')
    throw unsupportedSpend(index, `spends a P2SH-wrapped ${scriptType(redeemScript)} program`);
  verifyP2wpkh(tx, index, redeemScript.subarray(2), prevout.value, witness);
}

/**
 * A P2WPKH spend of `program` (the 20-byte key hash, from the output or a P2SH redeem script) worth
 * `value`: the witness is `<signature> <compressed key>`, the key hashes to the program, and the
 * signature is a low-S ECDSA one over BIP143's sighash.
 */
function verifyP2wpkh(
  tx: btc.Transaction,
  index: number,
  program: Uint8Array,
  value: bigint,
  witness: Uint8Array[],
): void {
  if (witness.length !== 2) throw scriptFailure(index, 'Witness program hash mismatch');
  const [signature, publicKey] = witness;
  if (!Buffer.from(hash160(publicKey)).equals(Buffer.from(program)))
    throw scriptFailure(index, 'Witness program hash mismatch');
  if (publicKey.length !== 33) throw policyFailure(index, 'Using non-compressed keys in segwit');
  if (signature.length === 0)
    throw scriptFailure(
      index,
      'Script evaluated without error but finished with a false/empty top stack element',
    );
  const hashType = signature[signature.length - 1];
  if (!ECDSA_SIGHASH_TYPES.has(hashType))
    throw policyFailure(index, 'Signature hash type missing or not understood');
  // BIP143's scriptCode of a P2WPKH spend is the P2PKH script of the same key hash.
  const scriptCode = btc.OutScript.encode({ type: 'pkh', hash: program });
  const sighash = tx.preimageWitnessV0(index, scriptCode, hashType, value);
  let valid: boolean;
  try {
    valid = secp256k1.verify(signature.subarray(0, -1), sighash, publicKey, {
      prehash: false,
      format: 'der',
      lowS: true,
    });
  } catch {
    valid = false;
  }
  if (!valid) throw scriptFailure(index, 'Signature must be zero for failed CHECK(MULTI)SIG operation');
}

function verifyP2trKeyPath(
  tx: btc.Transaction,
  index: number,
  prevouts: Prevout[],
  witness: Uint8Array[],
): void {
  const hasAnnex = witness.length >= 2 && witness[witness.length - 1][0] === ANNEX_TAG;
  if (hasAnnex) throw policyFailure(index, 'Witness contains an annex');
  if (witness.length === 0) throw scriptFailure(index, 'Witness program was passed an empty witness');
  if (witness.length > 1)
    throw new BitcoinRejection(
      -26,
      `non-mandatory-script-verify-flag (input ${index} is a taproot script-path spend; the devnet verifies key-path spends only)`,
    );
  const signature = witness[0];
  if (signature.length !== 64 && signature.length !== 65)
    throw scriptFailure(index, 'Invalid Schnorr signature size');
  const hashType = signature.length === 65 ? signature[64] : SIGHASH_DEFAULT;
  if (signature.length === 65 && !TAPROOT_SIGHASH_TYPES.has(hashType))
    throw scriptFailure(index, 'Invalid Schnorr signature hash type');
  let sighash: Uint8Array;
  try {
    sighash = tx.preimageWitnessV1(
      index,
      prevouts.map((p) => p.script),
      hashType,
      prevouts.map((p) => p.value),
    );
  } catch {
    // SIGHASH_SINGLE without the matching output: BIP341 defines no message, so no signature is valid.
    throw scriptFailure(index, 'Invalid Schnorr signature hash type');
  }
  const outputKey = prevouts[index].script.subarray(2);
  let valid: boolean;
  try {
    valid = schnorr.verify(signature.subarray(0, 64), sighash, outputKey);
  } catch {
    valid = false;
  }
  if (!valid) throw scriptFailure(index, 'Invalid Schnorr signature');
}

/** A spend the devnet does not verify: refused as non-standard rather than accepted unchecked. */
function unsupportedSpend(index: number, what: string): BitcoinRejection {
  return new BitcoinRejection(
    -26,
    `non-mandatory-script-verify-flag (input ${index} ${what}; the devnet verifies P2WPKH, P2SH-P2WPKH and P2TR key-path spends only)`,
  );
}

/** A consensus failure, as bitcoind words it (the input index added for the caller). */
function scriptFailure(index: number, reason: string): BitcoinRejection {
  return new BitcoinRejection(-26, `mandatory-script-verify-flag-failed (${reason}), input ${index}`);
}

/** A policy (standardness) failure of a script. */
function policyFailure(index: number, reason: string): BitcoinRejection {
  return new BitcoinRejection(-26, `non-mandatory-script-verify-flag (${reason}), input ${index}`);
}

export function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}
