import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { base64, hex } from '@scure/base';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { decodeBitcoinArtifact } from './bitcoin-artifact';
import { BITCOIN_TX_OPTIONS, bitcoinStepTxid, equalBytes } from './bitcoin-step-psbt';

/**
 * A wallet's signed step checked against the PSBT issued: the issued PSBT with the user's
 * signatures in place, which the service completes (signs its fee input) and broadcasts.
 */
export interface VerifiedBitcoinStep {
  /** Base64 of the issued PSBT plus the user's verified signatures (nothing else of the wallet's). */
  psbt: string;
  /** The transaction's id, already fixed: SegWit ids do not cover witnesses. */
  txid: string;
  feeInputIndex: number;
  userInputIndexes: number[];
}

/** One way the signed transaction differs from the one issued (EVM's FieldMismatch, per input / output). */
export interface BitcoinStepMismatch {
  field: string;
  expected: string;
  actual: string | null;
}

/**
 * Checks what a wallet returned for a Bitcoin step against the PSBT issued (`issuedPsbtBase64`, as
 * buildBitcoinStepPsbt made it: the user's inputs first, the service's fee input last).
 *
 * `signedArtifact`: the signed PSBT, base64 (Unisat, Xverse) or hex (Leather), its user inputs
 * finalized or only signed; or the finalized transaction, hex. Refusals:
 *  - INVALID_SIGNED_TX: none of these forms, or not decodable;
 *  - TX_REQUEST_MISMATCH with `mismatches`: a version, locktime, input (outpoint, sequence), output
 *    (amount, script: payment, memo, change) or count that is not the issued one, a PSBT whose
 *    `witnessUtxo` differs; a user input not signed, signed by another key, with a signature that
 *    does not verify (BIP143 / BIP341 sighash over the issued amounts and scripts), with another
 *    sighash than SIGHASH_ALL (Taproot: its default or ALL), or spent another way than the issued
 *    one (a Taproot script path, an annex, extra witness items, a scriptSig other than a nested
 *    SegWit input's redeem script push).
 *
 * The fee input is the service's: whatever the wallet put there is ignored, the service signs it.
 * Nothing of the artifact is kept but the user's signatures: the transaction completed is the issued
 * one.
 */
export function verifySignedBitcoinStep(
  issuedPsbtBase64: string,
  signedArtifact: string,
): VerifiedBitcoinStep {
  const issued = btc.Transaction.fromPSBT(base64.decode(issuedPsbtBase64), BITCOIN_TX_OPTIONS);
  const signed = decodeBitcoinArtifact(signedArtifact);
  const feeInputIndex = issued.inputsLength - 1;
  const userInputIndexes = Array.from({ length: feeInputIndex }, (_, i) => i);

  const mismatches = compareTransactions(issued, signed.tx, signed.isPsbt ? userInputIndexes : []);
  if (mismatches.length === 0 && !equalBytes(issued.unsignedTx, signed.tx.unsignedTx))
    mismatches.push({ field: 'transaction', expected: bitcoinStepTxid(issued), actual: signed.tx.id });
  if (mismatches.length > 0)
    throw new CodedError(
      ErrorCodes.TX_REQUEST_MISMATCH,
      `The signed transaction differs from the payload in ${mismatches.map((m) => m.field).join(', ')}`,
      { mismatches },
    );

  const prevOuts = Array.from({ length: issued.inputsLength }, (_, i) => prevOutOf(issued, i));
  const completed = issued.clone();
  for (const index of userInputIndexes) {
    const witness = userWitnessOf(signed.tx.getInput(index), index, issuedScriptSigOf(issued, index));
    const signature = checkUserSignature(issued, index, witness, prevOuts);
    completed.updateInput(
      index,
      signature.kind === 'ecdsa'
        ? { partialSig: [[signature.publicKey, signature.signature]] }
        : { tapKeySig: signature.signature },
      true,
    );
  }
  return {
    psbt: base64.encode(completed.toPSBT()),
    txid: bitcoinStepTxid(issued),
    feeInputIndex,
    userInputIndexes,
  };
}

const outpointOf = (input: btc.Transaction['getInput'] extends (i: number) => infer I ? I : never): string =>
  `${input.txid ? hex.encode(input.txid) : '?'}:${input.index ?? '?'}`;

function describeScript(script: Uint8Array | undefined): string {
  if (!script) return 'none';
  if (script[0] === 0x6a) return `OP_RETURN ${hex.encode(script.subarray(2))}`;
  return hex.encode(script);
}

/** Every field in which `signed` differs from `issued`; `psbtInputs`: inputs whose witnessUtxo is compared. */
function compareTransactions(
  issued: btc.Transaction,
  signed: btc.Transaction,
  psbtInputs: number[],
): BitcoinStepMismatch[] {
  const mismatches: BitcoinStepMismatch[] = [];
  const check = (field: string, expected: string, actual: string) => {
    if (expected !== actual) mismatches.push({ field, expected, actual });
  };
  check('version', String(issued.version), String(signed.version));
  check('lockTime', String(issued.lockTime), String(signed.lockTime));
  check('inputs.length', String(issued.inputsLength), String(signed.inputsLength));
  check('outputs.length', String(issued.outputsLength), String(signed.outputsLength));
  const inputs = Math.min(issued.inputsLength, signed.inputsLength);
  for (let i = 0; i < inputs; i++) {
    const [a, b] = [issued.getInput(i), signed.getInput(i)];
    check(`inputs[${i}].outpoint`, outpointOf(a), outpointOf(b));
    check(`inputs[${i}].sequence`, String(a.sequence), String(b.sequence));
  }
  for (const i of psbtInputs.filter((i) => i < inputs)) {
    const [a, b] = [issued.getInput(i).witnessUtxo, signed.getInput(i).witnessUtxo];
    if (b) {
      check(`inputs[${i}].witnessUtxo.amount`, String(a?.amount), String(b.amount));
      check(`inputs[${i}].witnessUtxo.script`, describeScript(a?.script), describeScript(b.script));
    }
  }
  const outputs = Math.min(issued.outputsLength, signed.outputsLength);
  for (let i = 0; i < outputs; i++) {
    const [a, b] = [issued.getOutput(i), signed.getOutput(i)];
    check(`outputs[${i}].amount`, String(a.amount), String(b.amount));
    check(`outputs[${i}].script`, describeScript(a.script), describeScript(b.script));
  }
  return mismatches;
}

type PrevOut = { script: Uint8Array; amount: bigint };

function prevOutOf(tx: btc.Transaction, index: number): PrevOut {
  const utxo = tx.getInput(index).witnessUtxo;
  if (!utxo) throw new Error(`the issued PSBT's input ${index} has no witnessUtxo`);
  return utxo;
}

/**
 * The scriptSig the issued input's spend has once finalized: one push of its redeem script when it
 * is nested SegWit (P2SH-P2WPKH), else none (native SegWit).
 */
function issuedScriptSigOf(issued: btc.Transaction, index: number): Uint8Array {
  const redeemScript = issued.getInput(index).redeemScript;
  return redeemScript ? btc.Script.encode([redeemScript]) : new Uint8Array(0);
}

/**
 * The witness of a user input as the wallet left it: finalized (PSBT finalScriptWitness, or a raw
 * transaction's witness), or the PSBT's signature fields put in witness order. A finalized scriptSig
 * must be the issued spend's (`scriptSig`: empty for native SegWit, the redeem script's push for
 * nested SegWit): nothing else is ever in it.
 */
function userWitnessOf(
  input: ReturnType<btc.Transaction['getInput']>,
  index: number,
  scriptSig: Uint8Array,
): Uint8Array[] {
  if (input.finalScriptSig && input.finalScriptSig.length > 0 && !equalBytes(input.finalScriptSig, scriptSig))
    refused(
      index,
      `the scriptSig ${hex.encode(input.finalScriptSig)}`,
      scriptSig.length === 0
        ? 'an empty scriptSig (native SegWit)'
        : `the push of the issued redeem script (${hex.encode(scriptSig)})`,
    );
  if (input.finalScriptWitness && input.finalScriptWitness.length > 0) return input.finalScriptWitness;
  if (input.tapKeySig) return [input.tapKeySig];
  if (input.tapScriptSig?.length) refused(index, 'a Taproot script-path signature', 'key path only');
  if (input.partialSig?.length === 1) {
    const [[publicKey, signature]] = input.partialSig;
    return [signature, publicKey];
  }
  if (input.partialSig && input.partialSig.length > 1)
    refused(index, `${input.partialSig.length} signatures`, 'one');
  return refused(index, 'missing', 'the signature of the user');
}

function refused(index: number, actual: string, expected: string): never {
  throw new CodedError(
    ErrorCodes.TX_REQUEST_MISMATCH,
    `The signature of input ${index} (the user's) is refused: ${actual}, where ${expected} is needed`,
    { mismatches: [{ field: `inputs[${index}].signature`, expected, actual }] },
  );
}

const SIGHASH_NAMES: Record<number, string> = { 0: 'DEFAULT', 1: 'ALL', 2: 'NONE', 3: 'SINGLE' };
const sighashName = (byte: number): string =>
  `SIGHASH_${SIGHASH_NAMES[byte & 0x7f] ?? `0x${byte.toString(16)}`}${byte & 0x80 ? '|ANYONECANPAY' : ''}`;

/** A user input's verified signature: ECDSA with its key (P2WPKH, nested or not) or Schnorr (P2TR key path). */
type UserSignature =
  | { kind: 'ecdsa'; publicKey: Uint8Array; signature: Uint8Array }
  | { kind: 'schnorr'; signature: Uint8Array };

/** Verifies a user input's witness against the issued transaction, amounts and scripts. */
function checkUserSignature(
  issued: btc.Transaction,
  index: number,
  witness: Uint8Array[],
  prevOuts: PrevOut[],
): UserSignature {
  const prevOut = prevOuts[index];
  const spent = btc.OutScript.decode(prevOut.script);
  // Nested SegWit: the P2SH output is spent as the P2WPKH program of its redeem script.
  const redeemScript = spent.type === 'sh' ? issued.getInput(index).redeemScript : undefined;
  const program = redeemScript ? btc.OutScript.decode(redeemScript) : spent;
  if (program.type === 'wpkh') {
    if (witness.length !== 2) refused(index, `${witness.length} witness items`, '<signature> <public key>');
    const [signature, publicKey] = witness;
    const programScript = redeemScript ?? prevOut.script;
    let ownKey: boolean;
    try {
      ownKey = publicKey.length === 33 && equalBytes(btc.p2wpkh(publicKey).script, programScript);
    } catch {
      ownKey = false;
    }
    if (!ownKey)
      refused(
        index,
        'a signature by another key',
        redeemScript ? 'the key of the spent P2SH-P2WPKH output' : 'the key of the spent P2WPKH output',
      );
    const sighash = signature[signature.length - 1];
    if (sighash !== btc.SigHash.ALL) refused(index, sighashName(sighash), 'SIGHASH_ALL');
    const digest = issued.preimageWitnessV0(
      index,
      btc.OutScript.encode({ type: 'pkh', hash: program.hash }),
      btc.SigHash.ALL,
      prevOut.amount,
    );
    let valid: boolean;
    try {
      valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, {
        prehash: false,
        format: 'der',
        lowS: true,
      });
    } catch {
      valid = false;
    }
    if (!valid)
      refused(index, 'a signature that does not verify', 'a low-S ECDSA signature of the issued transaction');
    return { kind: 'ecdsa', publicKey, signature };
  }
  if (program.type === 'tr') {
    if (witness.length !== 1)
      refused(index, `${witness.length} witness items (script path or annex)`, 'a key-path signature alone');
    const [signature] = witness;
    if (signature.length !== 64 && signature.length !== 65)
      refused(index, `a ${signature.length}-byte signature`, 'a 64-byte Schnorr signature');
    const sighash = signature.length === 65 ? signature[64] : btc.SigHash.DEFAULT;
    if (sighash !== btc.SigHash.DEFAULT && sighash !== btc.SigHash.ALL)
      refused(index, sighashName(sighash), 'SIGHASH_DEFAULT or SIGHASH_ALL');
    const digest = issued.preimageWitnessV1(
      index,
      prevOuts.map((p) => p.script),
      sighash,
      prevOuts.map((p) => p.amount),
    );
    let valid: boolean;
    try {
      valid = schnorr.verify(signature.subarray(0, 64), digest, program.pubkey);
    } catch {
      valid = false;
    }
    if (!valid)
      refused(
        index,
        'a signature that does not verify (another key, or not of the issued transaction)',
        'the output key',
      );
    return { kind: 'schnorr', signature };
  }
  throw new Error(`the issued PSBT's input ${index} is neither P2WPKH (nested or not) nor P2TR`);
}
