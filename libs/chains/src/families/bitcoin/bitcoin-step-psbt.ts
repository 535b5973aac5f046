import * as btc from '@scure/btc-signer';
import { base64 } from '@scure/base';
import type { BitcoinInputToSign, BitcoinPsbtSigningPayload } from '@swapgw/contracts';
import {
  type BitcoinAddress,
  bitcoinSpendOf,
  type BitcoinSpendKind,
  decodeBitcoinAddress,
  equalBytes,
} from './bitcoin-address';

export { equalBytes };
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from './bitcoin-networks';

/** An unspent output: its outpoint, its value in satoshis and the address it pays. */
export interface BitcoinUtxo {
  txid: string;
  vout: number;
  value: bigint;
  address: string;
}

export interface BitcoinStepRequest {
  network: BitcoinNetworkName;
  /**
   * The user's P2WPKH, P2TR or P2SH (nested SegWit, P2SH-P2WPKH) address: every user UTXO is of it,
   * and the user's change goes back to it.
   */
  userAddress: string;
  /**
   * The user's public key (hex): required for a P2TR address (its internal key, x-only 32 bytes or
   * compressed 33; the wallet needs it as `tapInternalKey` to sign) and a P2SH one (compressed 33:
   * the redeem script `OP_0 <HASH160(key)>` is made of it), checked against a P2WPKH one when given.
   * Wallets tell it with the address (Unisat `getPublicKey`, Xverse `publicKey`).
   */
  userPublicKey?: string;
  userUtxos: BitcoinUtxo[];
  /** Any standard address of the network (P2WPKH, P2WSH, P2TR, P2PKH, P2SH): the bridge vault... */
  payment: { address: string; amount: bigint };
  /**
   * The integrator fees: one output per recipient (any standard address of the network) of exactly
   * its amount, each at or above its address's dust threshold, paid by the user on top of `payment`.
   */
  integratorFees?: { address: string; amount: bigint }[];
  /** Text of one OP_RETURN output (UTF-8, 1 to 80 bytes). */
  memo?: string;
  /** The service's fee wallet UTXO (P2WPKH): it pays the whole miner fee. */
  feeUtxo: BitcoinUtxo;
  /** Satoshis per virtual byte. */
  feeRate: number;
  /** The most user inputs the service pays to spend (each adds ~58-68 vB of fee); 20 by default. */
  maxUserInputs?: number;
}

/** The PSBT of a step, with what the service needs to know of it. */
export interface BitcoinStepPsbt {
  psbtBase64: string;
  inputsToSign: BitcoinInputToSign[];
  /** What GET /swap/{id}/signing hands the wallet. */
  payload: BitcoinPsbtSigningPayload;
  /** The user's UTXOs spent, in input order (inputs 0..n-1). */
  userInputs: BitcoinUtxo[];
  /** Always the last input. */
  feeInputIndex: number;
  /** The user's change (0: no change output). The user spends exactly `payment.amount` plus the integrator fees. */
  userChange: bigint;
  /** What the fee wallet gets back: its UTXO's value − minerFee. */
  feeChange: bigint;
  minerFee: bigint;
  /** Virtual size once signed, at most 1 WU per ECDSA signature over (see estimateBitcoinWeight). */
  vsize: number;
  /** Known before signing: a SegWit transaction's id does not cover its witnesses. */
  txid: string;
}

/** Why a step's PSBT cannot be built; the step is `invalid` with the message. */
export type BitcoinStepRefusalReason =
  'invalid-request' | 'insufficient-funds' | 'dust-change' | 'too-many-inputs' | 'fee-utxo-too-small';

export class BitcoinStepNotBuildable extends Error {
  constructor(
    readonly reason: BitcoinStepRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'BitcoinStepNotBuildable';
  }
}

/** Inputs signal replace-by-fee (BIP125): the service may bump a stuck step from its fee input. */
export const RBF_SEQUENCE = 0xfffffffd;
export const BITCOIN_TX_VERSION = 2;
/** The relay limit of an OP_RETURN's data (Bitcoin Core's default -datacarriersize 83 − 3). */
export const MAX_MEMO_BYTES = 80;
const DEFAULT_MAX_USER_INPUTS = 20;

/** How the suite parses its own and wallets' PSBTs: OP_RETURN outputs are "unknown" to the library. */
export const BITCOIN_TX_OPTIONS = { allowUnknownOutputs: true } as const;

// items, <sig 71 DER (low S, high R) + sighash>, <33-byte key>; a low-R signature is 1 byte shorter
const P2WPKH_WITNESS_BYTES = 1 + 1 + 72 + 1 + 33;

/** Witness bytes of an input once signed: an upper bound, exact but for an ECDSA signature's length. */
const WITNESS_BYTES: Record<BitcoinSpendKind, number> = {
  p2wpkh: P2WPKH_WITNESS_BYTES,
  // items, <64-byte Schnorr + sighash byte when not Taproot's default>
  p2tr: 1 + 1 + 65,
  'p2sh-p2wpkh': P2WPKH_WITNESS_BYTES,
};

/** scriptSig bytes of an input (its length byte is counted in the 41): nested SegWit pushes its 22-byte redeem script. */
const SCRIPT_SIG_BYTES: Record<BitcoinSpendKind, number> = { p2wpkh: 0, p2tr: 0, 'p2sh-p2wpkh': 1 + 22 };

const compactSizeLength = (n: number): number => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5);

/** Bytes (= virtual bytes: no witness) of an output paying `script`: 8-byte value, script length, script. */
export function bitcoinOutputVbytes(script: Uint8Array): number {
  return 8 + compactSizeLength(script.length) + script.length;
}

/**
 * The weight of a SegWit transaction spending `inputs` (their kinds) to `outputScripts`, signed:
 * non-witness bytes × 4 (version, counts, 41-byte inputs plus their scriptSig, outputs, locktime)
 * plus the marker, flag and each input's witness. Exact for Taproot key-path default signatures; an
 * ECDSA signature may come out 1 byte shorter than counted, a Taproot one 1 byte shorter when it
 * uses the default sighash.
 */
export function estimateBitcoinWeight(inputs: BitcoinSpendKind[], outputScripts: Uint8Array[]): number {
  const outputs = outputScripts.reduce((sum, s) => sum + bitcoinOutputVbytes(s), 0);
  const base =
    4 +
    compactSizeLength(inputs.length) +
    inputs.reduce((sum, kind) => sum + 41 + SCRIPT_SIG_BYTES[kind], 0) +
    compactSizeLength(outputScripts.length) +
    outputs +
    4;
  const witness = 2 + inputs.reduce((sum, kind) => sum + WITNESS_BYTES[kind], 0);
  return base * 4 + witness;
}

/**
 * Bitcoin Core's dust threshold of an output (at its 3 sat/vB dust relay fee): the output's size plus
 * the size of an input spending it (67 vB for a witness program, 148 otherwise), × 3. P2WPKH 294,
 * P2TR and P2WSH 330, P2SH 540, P2PKH 546.
 */
export function dustThreshold(script: Uint8Array): bigint {
  const size = bitcoinOutputVbytes(script);
  const isWitnessProgram =
    script.length >= 4 &&
    script.length <= 42 &&
    (script[0] === 0 || (script[0] >= 0x51 && script[0] <= 0x60)) &&
    script[1] === script.length - 2;
  return BigInt((size + (isWitnessProgram ? 67 : 148)) * 3);
}

/** `OP_RETURN <data>` for a memo; invalid-request when it is empty or over 80 bytes. */
export function memoScript(memo: string): Uint8Array {
  const data = new TextEncoder().encode(memo);
  if (data.length === 0 || data.length > MAX_MEMO_BYTES)
    refuse(
      'invalid-request',
      `the memo must be 1 to ${MAX_MEMO_BYTES} bytes of UTF-8 (it is ${data.length})`,
    );
  return btc.Script.encode(['RETURN', data]);
}

/**
 * The PSBT of a Bitcoin step: the user pays `payment`, each integrator fee (one output per
 * recipient) and an OP_RETURN `memo` from their UTXOs, the service's fee UTXO pays the whole miner
 * fee, so the user's balance drops by exactly `payment.amount` plus the integrator fees.
 *
 * Order (fixed, so the same request gives the same PSBT): inputs = the user's selected UTXOs (by
 * value, largest first, then txid and vout), then the fee input, last. Outputs = the payment, the
 * integrator fees (in the request's order), the memo (when any), the user's change (when any), the
 * fee wallet's change, last. An integrator fee below its address's dust threshold is refused
 * (`invalid-request`; the quote refuses it first). Version 2,
 * locktime 0, every input's nSequence 0xfffffffd (RBF).
 *
 * Coin selection: the largest UTXOs first until they cover the payment (fewest inputs: the service
 * pays for each). A change below the dust threshold of the user's address cannot be relayed; then
 * one more UTXO is taken to make it an output worth keeping, and when none is left the step is
 * refused (`dust-change`): giving the dust to the payment or to the fee wallet would make the user
 * spend more than the payment, and burning it as fee would too.
 *
 * Each user input carries `witnessUtxo` (and `tapInternalKey` on P2TR, `redeemScript` on
 * P2SH-P2WPKH) for the wallet to sign, the
 * fee input its `witnessUtxo` so the wallet can show the fee. The wallet signs the user inputs with
 * SIGHASH_ALL (P2WPKH, nested or not) or Taproot's default (P2TR): both commit to every input and
 * output.
 *
 * Throws BitcoinStepNotBuildable with the reason.
 */
export function buildBitcoinStepPsbt(request: BitcoinStepRequest): BitcoinStepPsbt {
  const { network } = request;
  const user = walletAddress(request.userAddress, network, 'userAddress');
  const spendOf = bitcoinSpendOf(user, request.userPublicKey);
  if (!spendOf.ok) refuse('invalid-request', spendOf.reason);
  const spend = spendOf.value;
  const paymentScript = paymentScriptOf(request.payment.address, network);
  const feeWallet = walletAddress(request.feeUtxo.address, network, 'feeUtxo.address');
  if (feeWallet.kind !== 'p2wpkh')
    refuse('invalid-request', `the fee UTXO must be P2WPKH; ${feeWallet.address} is ${feeWallet.kind}`);
  if (!Number.isFinite(request.feeRate) || request.feeRate <= 0)
    refuse('invalid-request', `feeRate must be a positive number of sat/vB, not ${request.feeRate}`);
  const amount = request.payment.amount;
  if (amount < dustThreshold(paymentScript))
    refuse('invalid-request', `the payment of ${amount} sat is below the dust threshold of its address`);
  const feeOutputs = integratorFeeOutputsOf(request.integratorFees ?? [], network);
  checkUtxos(request, user);

  const spent = feeOutputs.reduce((total, fee) => total + fee.amount, amount);
  const userInputs = selectUserUtxos(
    request.userUtxos,
    spent,
    dustThreshold(user.script),
    request.maxUserInputs,
  );
  const userChange = sum(userInputs) - spent;

  const outputs: { script: Uint8Array; amount: bigint }[] = [
    { script: paymentScript, amount },
    ...feeOutputs,
  ];
  if (request.memo !== undefined) outputs.push({ script: memoScript(request.memo), amount: 0n });
  if (userChange > 0n) outputs.push({ script: user.script, amount: userChange });
  const feeChangeScript = feeWallet.script;
  const weight = estimateBitcoinWeight(
    [...userInputs.map(() => spend.kind), 'p2wpkh'],
    [...outputs.map((o) => o.script), feeChangeScript],
  );
  const vsize = Math.ceil(weight / 4);
  const minerFee = BigInt(Math.ceil(vsize * request.feeRate));
  const feeChange = request.feeUtxo.value - minerFee;
  if (feeChange < dustThreshold(feeChangeScript))
    refuse(
      'fee-utxo-too-small',
      `the fee UTXO (${request.feeUtxo.value} sat) cannot pay a miner fee of ${minerFee} sat (${vsize} vB at ${request.feeRate} sat/vB) and keep a change above dust`,
    );

  const tx = new btc.Transaction({ version: BITCOIN_TX_VERSION, lockTime: 0, ...BITCOIN_TX_OPTIONS });
  for (const utxo of userInputs) {
    tx.addInput({
      txid: utxo.txid,
      index: utxo.vout,
      sequence: RBF_SEQUENCE,
      witnessUtxo: { script: user.script, amount: utxo.value },
      ...spend.inputFields,
    });
  }
  const feeInputIndex = tx.addInput({
    txid: request.feeUtxo.txid,
    index: request.feeUtxo.vout,
    sequence: RBF_SEQUENCE,
    witnessUtxo: { script: feeWallet.script, amount: request.feeUtxo.value },
  });
  for (const output of outputs) tx.addOutput(output);
  tx.addOutput({ script: feeChangeScript, amount: feeChange });

  const inputsToSign: BitcoinInputToSign[] = userInputs.map((_, index) => ({
    index,
    address: user.address,
    sighashTypes: [spend.kind === 'p2tr' ? btc.SigHash.DEFAULT : btc.SigHash.ALL],
  }));
  const psbtBase64 = base64.encode(tx.toPSBT());
  return {
    psbtBase64,
    inputsToSign,
    payload: { type: 'bitcoin-psbt', psbt: psbtBase64, inputsToSign, network },
    userInputs,
    feeInputIndex,
    userChange,
    feeChange,
    minerFee,
    vsize,
    txid: bitcoinStepTxid(tx),
  };
}

/** The integrator fees' outputs, in order; invalid-request for an address of another network or an amount below dust. */
function integratorFeeOutputsOf(
  fees: { address: string; amount: bigint }[],
  network: BitcoinNetworkName,
): { script: Uint8Array; amount: bigint }[] {
  return fees.map((fee, index) => {
    const script = paymentScriptOf(fee.address, network, `integratorFees[${index}].address`);
    const dust = dustThreshold(script);
    if (fee.amount < dust)
      refuse(
        'invalid-request',
        `the integrator fee of ${fee.amount} sat to ${fee.address} is below the dust threshold of its address (${dust} sat)`,
      );
    return { script, amount: fee.amount };
  });
}

/**
 * The id `tx` will have once signed, known before: a SegWit id covers no witness, and the only
 * scriptSig a step's inputs get is a nested-SegWit input's push of its redeem script, fixed by the
 * PSBT (scure's `id` of an unsigned PSBT leaves it out).
 */
export function bitcoinStepTxid(tx: btc.Transaction): string {
  const final = tx.clone();
  for (let i = 0; i < final.inputsLength; i++) {
    const input = final.getInput(i);
    if (input.redeemScript && !input.finalScriptSig?.length)
      final.updateInput(i, { finalScriptSig: btc.Script.encode([input.redeemScript]) }, true);
  }
  return final.id;
}

function refuse(reason: BitcoinStepRefusalReason, message: string): never {
  throw new BitcoinStepNotBuildable(reason, message);
}

const sum = (utxos: BitcoinUtxo[]): bigint => utxos.reduce((total, u) => total + u.value, 0n);

function walletAddress(address: string, network: BitcoinNetworkName, field: string): BitcoinAddress {
  const result = decodeBitcoinAddress(address, network);
  if (!result.ok) refuse('invalid-request', `${field} ${address}: ${result.reason}`);
  return result.value;
}

function paymentScriptOf(
  address: string,
  network: BitcoinNetworkName,
  field = 'payment.address',
): Uint8Array {
  return (
    standardOutputOf(address, network)?.script ??
    refuse('invalid-request', `${field} ${address} is not a standard ${network} address`)
  );
}

/** The standard outputs a step pays (its payment and integrator fees), by the kind of address they pay. */
export type BitcoinOutputKind = 'p2wpkh' | 'p2wsh' | 'p2tr' | 'p2pkh' | 'p2sh';

const OUTPUT_KINDS: Record<string, BitcoinOutputKind> = {
  wpkh: 'p2wpkh',
  wsh: 'p2wsh',
  tr: 'p2tr',
  pkh: 'p2pkh',
  sh: 'p2sh',
};

/** `address` as a standard output of `network` (its kind and script), or undefined when it is none. */
function standardOutputOf(
  address: string,
  network: BitcoinNetworkName,
): { kind: BitcoinOutputKind; script: Uint8Array } | undefined {
  try {
    const decoded = btc.Address(BITCOIN_NETWORKS[network]).decode(address);
    const kind = OUTPUT_KINDS[decoded.type];
    if (kind) return { kind, script: btc.OutScript.encode(decoded) };
  } catch {
    // not an address of the network
  }
  return undefined;
}

/**
 * The kind of output paying `address`, a standard address of any network (the kind, hence the
 * output's size, does not depend on the network), or undefined when it is none.
 */
export function bitcoinOutputKindOf(address: string): BitcoinOutputKind | undefined {
  for (const network of Object.keys(BITCOIN_NETWORKS) as BitcoinNetworkName[]) {
    const output = standardOutputOf(address, network);
    if (output) return output.kind;
  }
  return undefined;
}

function checkUtxos(request: BitcoinStepRequest, user: BitcoinAddress): void {
  const seen = new Set<string>();
  for (const [field, utxo] of [
    ...request.userUtxos.map((u, i) => [`userUtxos[${i}]`, u] as const),
    ['feeUtxo', request.feeUtxo] as const,
  ]) {
    const outpoint = `${utxo.txid}:${utxo.vout}`;
    if (!/^[0-9a-f]{64}$/.test(utxo.txid) || !Number.isInteger(utxo.vout) || utxo.vout < 0)
      refuse('invalid-request', `${field} has no valid outpoint (${outpoint})`);
    if (typeof utxo.value !== 'bigint' || utxo.value <= 0n)
      refuse('invalid-request', `${field} must have a positive bigint value`);
    if (seen.has(outpoint)) refuse('invalid-request', `${field} ${outpoint} is listed twice`);
    seen.add(outpoint);
    if (field !== 'feeUtxo' && utxo.address !== user.address)
      refuse('invalid-request', `${field} pays ${utxo.address}, not the user's address ${user.address}`);
  }
}

/** Largest first (then txid, vout) until the payment is covered with no change or a change above dust. */
function selectUserUtxos(
  utxos: BitcoinUtxo[],
  amount: bigint,
  changeDust: bigint,
  maxInputs = DEFAULT_MAX_USER_INPUTS,
): BitcoinUtxo[] {
  const candidates = [...utxos].sort(
    (a, b) =>
      (a.value === b.value ? 0 : a.value > b.value ? -1 : 1) ||
      a.txid.localeCompare(b.txid) ||
      a.vout - b.vout,
  );
  const selected: BitcoinUtxo[] = [];
  let total = 0n;
  const done = () => total >= amount && (total === amount || total - amount >= changeDust);
  for (const utxo of candidates) {
    if (done()) break;
    selected.push(utxo);
    total += utxo.value;
  }
  if (total < amount)
    refuse('insufficient-funds', `the user's UTXOs hold ${total} sat, the payment needs ${amount}`);
  if (!done())
    refuse(
      'dust-change',
      `the user's change of ${total - amount} sat would be below the dust threshold (${changeDust} sat) and no other UTXO is left to raise it`,
    );
  if (selected.length > maxInputs)
    refuse(
      'too-many-inputs',
      `the payment needs ${selected.length} of the user's UTXOs; at most ${maxInputs} are spent in one step`,
    );
  return selected;
}
