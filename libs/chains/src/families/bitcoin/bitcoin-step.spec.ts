import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { base64, hex } from '@scure/base';
import { ErrorCodes } from '@swapgw/contracts';
import { BITCOIN_NETWORKS, type BitcoinNetworkName } from './bitcoin-networks';
import { completeSponsoredBitcoinStep } from './bitcoin-sponsored-step';
import {
  BITCOIN_TX_OPTIONS,
  type BitcoinStepRequest,
  type BitcoinUtxo,
  buildBitcoinStepPsbt,
  estimateBitcoinWeight,
  RBF_SEQUENCE,
} from './bitcoin-step-psbt';
import { verifySignedBitcoinStep } from './bitcoin-step-verification';

const key = (byte: number) => new Uint8Array(32).fill(byte);
const USER_KEY = key(1);
const FEE_KEY = key(2);
const OTHER_KEY = key(3);
const VAULT_KEY = key(4);
const network: BitcoinNetworkName = 'regtest';
const params = BITCOIN_NETWORKS[network];

const wpkh = (priv: Uint8Array) => btc.p2wpkh(secp256k1.getPublicKey(priv, true), params);
const tr = (priv: Uint8Array) => btc.p2tr(schnorr.getPublicKey(priv), undefined, params);
const USER_WPKH = wpkh(USER_KEY).address!;
const USER_TR = tr(USER_KEY).address!;
const USER_NESTED = btc.p2sh(btc.p2wpkh(secp256k1.getPublicKey(USER_KEY, true), params), params).address!;
const FEE_WALLET = wpkh(FEE_KEY).address!;
const VAULT = tr(VAULT_KEY).address!;
const MEMO = '=:ETH.USDC:0x8ba1f109551bD432803012645Ac136ddd64DBA72:990000';

const utxo = (byte: string, vout: number, value: bigint, address: string): BitcoinUtxo => ({
  txid: byte.repeat(64),
  vout,
  value,
  address,
});

function request(userAddress: string, overrides: Partial<BitcoinStepRequest> = {}): BitcoinStepRequest {
  return {
    network,
    userAddress,
    userPublicKey: hex.encode(secp256k1.getPublicKey(USER_KEY, true)),
    userUtxos: [
      utxo('a', 0, 40_000n, userAddress),
      utxo('b', 1, 70_000n, userAddress),
      utxo('c', 2, 5_000n, userAddress),
    ],
    payment: { address: VAULT, amount: 100_000n },
    memo: MEMO,
    feeUtxo: utxo('f', 0, 50_000n, FEE_WALLET),
    feeRate: 3,
    ...overrides,
  };
}

/** What a wallet does with signPsbt: signs the inputs it is asked to, with the sighash types given. */
function signAsWallet(
  psbtBase64: string,
  inputs: number[],
  options: { key?: Uint8Array; sighash?: number; finalize?: boolean } = {},
): string {
  const tx = btc.Transaction.fromPSBT(base64.decode(psbtBase64), BITCOIN_TX_OPTIONS);
  for (const index of inputs) {
    if (options.sighash !== undefined) tx.updateInput(index, { sighashType: options.sighash });
    tx.signIdx(options.key ?? USER_KEY, index, options.sighash === undefined ? undefined : [options.sighash]);
    if (options.finalize) tx.finalizeIdx(index);
  }
  return base64.encode(tx.toPSBT());
}

/** An issued PSBT changed the way a malicious front end would, then signed by the user's wallet. */
function tamperedAndSigned(
  psbtBase64: string,
  change: (tx: btc.Transaction) => void,
  inputs = [0, 1],
): string {
  const issued = btc.Transaction.fromPSBT(base64.decode(psbtBase64), BITCOIN_TX_OPTIONS);
  const tx = new btc.Transaction({
    version: issued.version,
    lockTime: issued.lockTime,
    ...BITCOIN_TX_OPTIONS,
  });
  for (let i = 0; i < issued.inputsLength; i++) tx.addInput(issued.getInput(i));
  for (let i = 0; i < issued.outputsLength; i++) tx.addOutput(issued.getOutput(i));
  change(tx);
  return signAsWallet(
    base64.encode(tx.toPSBT()),
    inputs.filter((i) => i < tx.inputsLength),
  );
}

const mismatch = (field: string | RegExp) =>
  expect.objectContaining({
    code: ErrorCodes.TX_REQUEST_MISMATCH,
    details: {
      mismatches: expect.arrayContaining([
        expect.objectContaining({ field: typeof field === 'string' ? field : expect.stringMatching(field) }),
      ]),
    },
  });

describe.each([
  ['P2WPKH', USER_WPKH, 'p2wpkh' as const],
  ['P2TR', USER_TR, 'p2tr' as const],
  ['P2SH-P2WPKH', USER_NESTED, 'p2sh-p2wpkh' as const],
])('a %s user pays a Bitcoin step the fee wallet pays the fee of', (_, userAddress, kind) => {
  const built = buildBitcoinStepPsbt(request(userAddress));

  it('selects the largest UTXOs, orders inputs and outputs as documented, and asks for the right sighash', () => {
    expect(built.userInputs.map((u) => u.value)).toEqual([70_000n, 40_000n]);
    expect(built.feeInputIndex).toBe(2);
    expect(built.userChange).toBe(10_000n);
    const tx = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);
    expect([tx.version, tx.lockTime]).toEqual([2, 0]);
    expect([0, 1, 2].map((i) => tx.getInput(i).sequence)).toEqual([RBF_SEQUENCE, RBF_SEQUENCE, RBF_SEQUENCE]);
    expect([0, 1, 2].map((i) => tx.getInput(i).witnessUtxo?.amount)).toEqual([70_000n, 40_000n, 50_000n]);
    expect(tx.getInput(0).tapInternalKey !== undefined).toBe(kind === 'p2tr');
    expect(tx.getInput(0).redeemScript !== undefined).toBe(kind === 'p2sh-p2wpkh');
    expect([0, 1, 2, 3].map((i) => tx.getOutput(i).amount)).toEqual([
      100_000n,
      0n,
      10_000n,
      50_000n - built.minerFee,
    ]);
    expect(tx.getOutputAddress(0, params)).toBe(VAULT);
    expect(tx.getOutputAddress(2, params)).toBe(userAddress);
    expect(tx.getOutputAddress(3, params)).toBe(FEE_WALLET);
    expect(built.payload).toEqual({
      type: 'bitcoin-psbt',
      psbt: built.psbtBase64,
      network,
      inputsToSign: [0, 1].map((index) => ({
        index,
        address: userAddress,
        sighashTypes: [kind === 'p2tr' ? 0 : 1],
      })),
    });
    expect(built.minerFee).toBe(BigInt(built.vsize * 3));
  });

  it('verifies the wallet-signed PSBT and completes it: the issued transaction, the user spending exactly the payment', () => {
    const verified = verifySignedBitcoinStep(built.psbtBase64, signAsWallet(built.psbtBase64, [0, 1]));
    expect(verified).toMatchObject({ txid: built.txid, feeInputIndex: 2, userInputIndexes: [0, 1] });
    const completed = completeSponsoredBitcoinStep(verified, FEE_KEY);
    expect(completed.txid).toBe(built.txid);
    const final = btc.Transaction.fromRaw(hex.decode(completed.rawTxHex), BITCOIN_TX_OPTIONS);
    expect(final.id).toBe(built.txid);
    const spent = [0, 1, 2].map((i) => hex.encode(final.getInput(i).txid!) + ':' + final.getInput(i).index);
    expect(spent).toEqual([`${'b'.repeat(64)}:1`, `${'a'.repeat(64)}:0`, `${'f'.repeat(64)}:0`]);
    const outputs = [0, 1, 2, 3].map((i) => final.getOutput(i));
    const userIn = 110_000n;
    expect(userIn - outputs[2].amount!).toBe(100_000n);
    expect(completed.fee).toBe(50_000n - outputs[3].amount!);
    expect(completed.fee).toBe(built.minerFee);
    expect(hex.encode(outputs[1].script!)).toBe(
      hex.encode(btc.Script.encode(['RETURN', new TextEncoder().encode(MEMO)])),
    );
    // the estimate is an upper bound of at most 1 WU per signature
    expect(completed.vsize).toBeLessThanOrEqual(built.vsize);
    expect(built.vsize - completed.vsize).toBeLessThanOrEqual(1);
  });

  it('accepts user inputs the wallet finalized, and the finalized transaction in hex', () => {
    const finalized = signAsWallet(built.psbtBase64, [0, 1], { finalize: true });
    expect(verifySignedBitcoinStep(built.psbtBase64, finalized).txid).toBe(built.txid);
    const tx = btc.Transaction.fromPSBT(base64.decode(finalized), BITCOIN_TX_OPTIONS);
    const rawHex = hex.encode(tx.toBytes(true, true));
    const verified = verifySignedBitcoinStep(built.psbtBase64, rawHex);
    expect(completeSponsoredBitcoinStep(verified, FEE_KEY).txid).toBe(built.txid);
    // a PSBT in hex (Leather returns that) is a PSBT too
    expect(verifySignedBitcoinStep(built.psbtBase64, hex.encode(base64.decode(finalized))).txid).toBe(
      built.txid,
    );
  });

  it('accepts a signature with an explicit SIGHASH_ALL (a 65-byte one on Taproot)', () => {
    const signed = signAsWallet(built.psbtBase64, [0, 1], { sighash: btc.SigHash.ALL, finalize: true });
    const verified = verifySignedBitcoinStep(built.psbtBase64, signed);
    expect(completeSponsoredBitcoinStep(verified, FEE_KEY).txid).toBe(built.txid);
  });

  it('refuses a signature by another key and a missing signature', () => {
    // a wallet's library will not sign an input of another key: the signature is made by hand
    const forged = forgeSignature(built.psbtBase64, kind);
    expect(() => verifySignedBitcoinStep(built.psbtBase64, forged)).toThrow(
      mismatch(/inputs\[0\]\.signature/),
    );
    expect(() => verifySignedBitcoinStep(built.psbtBase64, signAsWallet(built.psbtBase64, [0]))).toThrow(
      mismatch(/inputs\[1\]\.signature/),
    );
  });

  it.each([
    ['SIGHASH_NONE', btc.SigHash.NONE],
    ['SIGHASH_SINGLE', btc.SigHash.SINGLE],
    ['SIGHASH_ALL|ANYONECANPAY', btc.SigHash.ALL_ANYONECANPAY],
  ])('refuses a signature with %s', (name, sighash) => {
    const signed = signAsWallet(built.psbtBase64, [0, 1], { sighash });
    expect(() => verifySignedBitcoinStep(built.psbtBase64, signed)).toThrow(
      expect.objectContaining({
        code: ErrorCodes.TX_REQUEST_MISMATCH,
        message: expect.stringContaining(name),
      }),
    );
  });

  it.each<[string, (tx: btc.Transaction) => void, string | RegExp]>([
    ['a tampered payment amount', (tx) => tx.updateOutput(0, { amount: 99_000n }), /outputs\[0\]\.amount/],
    [
      'a tampered memo',
      (tx) =>
        tx.updateOutput(1, { script: btc.Script.encode(['RETURN', new TextEncoder().encode('=:BTC')]) }),
      /outputs\[1\]\.script/,
    ],
    [
      'a swapped payment script',
      (tx) => tx.updateOutput(0, { script: wpkh(OTHER_KEY).script }),
      /outputs\[0\]\.script/,
    ],
    [
      'an extra output',
      (tx) => tx.addOutput({ script: wpkh(OTHER_KEY).script, amount: 1_000n }),
      'outputs.length',
    ],
    ['a changed sequence', (tx) => tx.updateInput(0, { sequence: 0xffffffff }), /inputs\[0\]\.sequence/],
  ])('refuses %s', (_, change, field) => {
    expect(() =>
      verifySignedBitcoinStep(built.psbtBase64, tamperedAndSigned(built.psbtBase64, change)),
    ).toThrow(mismatch(field));
  });

  it('refuses a dropped input and another locktime', () => {
    const issued = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);
    const dropped = new btc.Transaction({ ...BITCOIN_TX_OPTIONS });
    for (const i of [0, 2]) dropped.addInput(issued.getInput(i));
    for (let i = 0; i < issued.outputsLength; i++) dropped.addOutput(issued.getOutput(i));
    expect(() =>
      verifySignedBitcoinStep(built.psbtBase64, signAsWallet(base64.encode(dropped.toPSBT()), [0])),
    ).toThrow(mismatch('inputs.length'));
    const locked = new btc.Transaction({ ...BITCOIN_TX_OPTIONS, lockTime: 800_000 });
    for (let i = 0; i < issued.inputsLength; i++) locked.addInput(issued.getInput(i));
    for (let i = 0; i < issued.outputsLength; i++) locked.addOutput(issued.getOutput(i));
    expect(() =>
      verifySignedBitcoinStep(built.psbtBase64, signAsWallet(base64.encode(locked.toPSBT()), [0, 1])),
    ).toThrow(mismatch('lockTime'));
  });
});

/** The PSBT with input 0 signed over the issued transaction by another key than the user's. */
function forgeSignature(psbtBase64: string, kind: 'p2wpkh' | 'p2tr' | 'p2sh-p2wpkh'): string {
  const tx = btc.Transaction.fromPSBT(base64.decode(psbtBase64), BITCOIN_TX_OPTIONS);
  const prevOuts = [0, 1, 2].map((i) => tx.getInput(i).witnessUtxo!);
  if (kind !== 'p2tr') {
    const otherPub = secp256k1.getPublicKey(OTHER_KEY, true);
    const digest = tx.preimageWitnessV0(0, btc.p2pkh(otherPub).script, btc.SigHash.ALL, prevOuts[0].amount);
    const der = secp256k1.sign(digest, OTHER_KEY, { prehash: false, format: 'der' });
    tx.updateInput(0, { partialSig: [[otherPub, new Uint8Array([...der, btc.SigHash.ALL])]] }, true);
  } else {
    const digest = tx.preimageWitnessV1(
      0,
      prevOuts.map((p) => p.script),
      btc.SigHash.DEFAULT,
      prevOuts.map((p) => p.amount),
    );
    tx.updateInput(0, { tapKeySig: schnorr.sign(digest, OTHER_KEY) }, true);
  }
  tx.signIdx(USER_KEY, 1);
  return base64.encode(tx.toPSBT());
}

describe('a nested-SegWit (P2SH-P2WPKH) user', () => {
  const built = buildBitcoinStepPsbt(request(USER_NESTED));

  it('has the txid the transaction gets once signed, its scriptSig included', () => {
    const signed = signAsWallet(built.psbtBase64, [0, 1], { finalize: true });
    const completed = completeSponsoredBitcoinStep(
      verifySignedBitcoinStep(built.psbtBase64, signed),
      FEE_KEY,
    );
    const final = btc.Transaction.fromRaw(hex.decode(completed.rawTxHex), BITCOIN_TX_OPTIONS);
    expect(final.id).toBe(built.txid);
    expect(hex.encode(final.getInput(0).finalScriptSig!)).toBe(
      hex.encode(btc.Script.encode([btc.p2wpkh(secp256k1.getPublicKey(USER_KEY, true)).script])),
    );
    // the estimate holds the scriptSig too
    expect(built.vsize - completed.vsize).toBeGreaterThanOrEqual(0);
    expect(built.vsize - completed.vsize).toBeLessThanOrEqual(1);
  });

  it('refuses a finalized transaction whose scriptSig is not the push of the issued redeem script', () => {
    const signed = btc.Transaction.fromPSBT(
      base64.decode(signAsWallet(built.psbtBase64, [0, 1], { finalize: true })),
      BITCOIN_TX_OPTIONS,
    );
    const otherRedeem = btc.p2wpkh(secp256k1.getPublicKey(OTHER_KEY, true)).script;
    signed.updateInput(0, { finalScriptSig: btc.Script.encode([otherRedeem]) }, true);
    expect(() => verifySignedBitcoinStep(built.psbtBase64, hex.encode(signed.toBytes(true, true)))).toThrow(
      mismatch('inputs[0].signature'),
    );
  });
});

describe('verifying what a wallet returned', () => {
  const built = buildBitcoinStepPsbt(request(USER_WPKH));

  it.each([
    ['text', 'not a transaction'],
    ['base64 that is no PSBT', base64.encode(new TextEncoder().encode('garbage bytes here'))],
    ['hex that is no transaction', 'deadbeef'],
    ['a truncated PSBT', built.psbtBase64.slice(0, 120)],
    ['nothing', ''],
  ])('answers INVALID_SIGNED_TX to %s', (_, artifact) => {
    expect(() => verifySignedBitcoinStep(built.psbtBase64, artifact)).toThrow(
      expect.objectContaining({ code: ErrorCodes.INVALID_SIGNED_TX }),
    );
  });

  it('ignores whatever the wallet put on the fee input and signs it itself', () => {
    const tx = btc.Transaction.fromPSBT(
      base64.decode(signAsWallet(built.psbtBase64, [0, 1])),
      BITCOIN_TX_OPTIONS,
    );
    tx.updateInput(2, { finalScriptWitness: [new Uint8Array(71), new Uint8Array(33)] }, true);
    const verified = verifySignedBitcoinStep(built.psbtBase64, base64.encode(tx.toPSBT()));
    const completed = completeSponsoredBitcoinStep(verified, FEE_KEY);
    const final = btc.Transaction.fromRaw(hex.decode(completed.rawTxHex), BITCOIN_TX_OPTIONS);
    expect(final.getInput(2).finalScriptWitness?.[1]).toEqual(secp256k1.getPublicKey(FEE_KEY, true));
  });

  it('refuses a wallet PSBT whose witnessUtxo is not the issued one', () => {
    const tx = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);
    tx.updateInput(0, { witnessUtxo: { script: tx.getInput(0).witnessUtxo!.script, amount: 1n } });
    tx.signIdx(USER_KEY, 0);
    tx.signIdx(USER_KEY, 1);
    expect(() => verifySignedBitcoinStep(built.psbtBase64, base64.encode(tx.toPSBT()))).toThrow(
      mismatch('inputs[0].witnessUtxo.amount'),
    );
  });

  it('will not complete with a key that does not own the fee input', () => {
    const verified = verifySignedBitcoinStep(built.psbtBase64, signAsWallet(built.psbtBase64, [0, 1]));
    expect(() => completeSponsoredBitcoinStep(verified, OTHER_KEY)).toThrow(/does not own the fee input/);
  });
});

describe('building a step', () => {
  it('refuses addresses of another network', () => {
    const mainnetUser = btc.p2wpkh(secp256k1.getPublicKey(USER_KEY, true)).address!;
    expect(() => buildBitcoinStepPsbt(request(mainnetUser))).toThrow(/userAddress .* is a mainnet address/);
    const mainnetVault = btc.p2tr(schnorr.getPublicKey(VAULT_KEY)).address!;
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { payment: { address: mainnetVault, amount: 1_000n } })),
    ).toThrow(
      expect.objectContaining({
        reason: 'invalid-request',
        message: expect.stringMatching(/payment.address/),
      }),
    );
    expect(() =>
      buildBitcoinStepPsbt({
        ...request(USER_WPKH, { network: 'mainnet', payment: { address: mainnetVault, amount: 1_000n } }),
        userAddress: mainnetUser,
        userUtxos: [utxo('a', 0, 200_000n, mainnetUser)],
      }),
    ).toThrow(/feeUtxo.address .* is a regtest address/);
  });

  it.each([
    ['P2TR', USER_TR],
    ['P2SH', USER_NESTED],
  ])('refuses a %s user without the key, or with another key', (_, userAddress) => {
    expect(() => buildBitcoinStepPsbt(request(userAddress, { userPublicKey: undefined }))).toThrow(
      /needs userPublicKey/,
    );
    expect(() =>
      buildBitcoinStepPsbt(
        request(userAddress, { userPublicKey: hex.encode(secp256k1.getPublicKey(OTHER_KEY, true)) }),
      ),
    ).toThrow(/not the key of/);
  });

  it('takes a P2WPKH user without the key, and refuses another key', () => {
    expect(buildBitcoinStepPsbt(request(USER_WPKH, { userPublicKey: undefined })).txid).toMatch(
      /^[0-9a-f]{64}$/,
    );
    expect(() =>
      buildBitcoinStepPsbt(
        request(USER_WPKH, { userPublicKey: hex.encode(secp256k1.getPublicKey(OTHER_KEY, true)) }),
      ),
    ).toThrow(/not the key of/);
  });

  it('pays with no change when the UTXOs cover the payment exactly', () => {
    const built = buildBitcoinStepPsbt(request(USER_WPKH, { payment: { address: VAULT, amount: 110_000n } }));
    expect(built.userChange).toBe(0n);
    expect(btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS).outputsLength).toBe(
      3,
    );
  });

  it('takes one more UTXO rather than leave a dust change, and refuses when none is left', () => {
    const lifted = buildBitcoinStepPsbt(
      request(USER_WPKH, { payment: { address: VAULT, amount: 109_900n } }),
    );
    expect(lifted.userInputs.map((u) => u.value)).toEqual([70_000n, 40_000n, 5_000n]);
    expect(lifted.userChange).toBe(5_100n);
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { payment: { address: VAULT, amount: 114_900n } })),
    ).toThrow(expect.objectContaining({ reason: 'dust-change' }));
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { payment: { address: VAULT, amount: 115_001n } })),
    ).toThrow(expect.objectContaining({ reason: 'insufficient-funds' }));
  });

  it('refuses a fee UTXO that cannot pay the fee, a memo over 80 bytes, a foreign UTXO, a payment below dust', () => {
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { feeUtxo: utxo('f', 0, 1_000n, FEE_WALLET) })),
    ).toThrow(expect.objectContaining({ reason: 'fee-utxo-too-small' }));
    expect(() => buildBitcoinStepPsbt(request(USER_WPKH, { memo: 'x'.repeat(81) }))).toThrow(
      /memo must be 1 to 80 bytes/,
    );
    expect(buildBitcoinStepPsbt(request(USER_WPKH, { memo: 'x'.repeat(80) })).txid).toMatch(/^[0-9a-f]{64}$/);
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { userUtxos: [utxo('a', 0, 200_000n, USER_TR)] })),
    ).toThrow(/not the user's address/);
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { payment: { address: VAULT, amount: 329n } })),
    ).toThrow(/below the dust threshold/);
  });

  it('counts the weight of what it builds', () => {
    // 1 P2WPKH input, 1 P2WPKH output: 82 non-witness bytes (4 + 1 + 41 + 1 + 31 + 4), 2 + 108 witness bytes
    expect(estimateBitcoinWeight(['p2wpkh'], [wpkh(OTHER_KEY).script])).toBe(82 * 4 + 110);
    // 1 P2TR input: its witness is 1 + 1 + 65 bytes
    expect(estimateBitcoinWeight(['p2tr'], [wpkh(OTHER_KEY).script])).toBe(82 * 4 + 2 + 67);
    // 1 P2SH-P2WPKH input: its scriptSig (1 + 22 bytes) is non-witness, its witness is P2WPKH's
    expect(estimateBitcoinWeight(['p2sh-p2wpkh'], [wpkh(OTHER_KEY).script])).toBe((82 + 23) * 4 + 110);
  });
});

describe('a step that pays integrator fees', () => {
  const FEE_A = wpkh(key(5)).address!;
  const FEE_B = tr(key(6)).address!;
  const fees = [
    { address: FEE_A, amount: 1_200n },
    { address: FEE_B, amount: 800n },
  ];
  const built = buildBitcoinStepPsbt(request(USER_WPKH, { integratorFees: fees }));
  const issued = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);

  it('pays each recipient an output of exactly its fee after the deposit, the user spending the deposit plus the fees', () => {
    expect(issued.outputsLength).toBe(6);
    expect([0, 1, 2].map((i) => issued.getOutputAddress(i, params))).toEqual([VAULT, FEE_A, FEE_B]);
    expect([0, 1, 2].map((i) => issued.getOutput(i).amount)).toEqual([100_000n, 1_200n, 800n]);
    expect(hex.encode(issued.getOutput(3).script!)).toBe(
      hex.encode(btc.Script.encode(['RETURN', new TextEncoder().encode(MEMO)])),
    );
    const userIn = built.userInputs.reduce((sum, u) => sum + u.value, 0n);
    expect(userIn - built.userChange).toBe(100_000n + 1_200n + 800n);
    expect(issued.getOutput(4).amount).toBe(built.userChange);
    expect(issued.getOutputAddress(5, params)).toBe(FEE_WALLET);
    const verified = verifySignedBitcoinStep(built.psbtBase64, signAsWallet(built.psbtBase64, [0, 1]));
    const completed = completeSponsoredBitcoinStep(verified, FEE_KEY);
    expect(completed.fee).toBe(built.minerFee);
    expect(completed.vsize).toBeLessThanOrEqual(built.vsize);
  });

  it('takes one more UTXO when the fees are what the selected ones no longer cover', () => {
    const exact = buildBitcoinStepPsbt(
      request(USER_WPKH, { payment: { address: VAULT, amount: 108_000n }, integratorFees: fees }),
    );
    expect(exact.userChange).toBe(0n);
    const more = buildBitcoinStepPsbt(
      request(USER_WPKH, { payment: { address: VAULT, amount: 108_001n }, integratorFees: fees }),
    );
    expect(more.userInputs).toHaveLength(3);
    expect(more.userChange).toBe(4_999n);
  });

  it('refuses a signed transaction that drops, lowers or redirects a fee output', () => {
    expect(() =>
      verifySignedBitcoinStep(
        built.psbtBase64,
        tamperedAndSigned(built.psbtBase64, (tx) => tx.updateOutput(1, { amount: 1_000n })),
      ),
    ).toThrow(mismatch('outputs[1].amount'));
    expect(() =>
      verifySignedBitcoinStep(
        built.psbtBase64,
        tamperedAndSigned(built.psbtBase64, (tx) => tx.updateOutput(2, { script: wpkh(OTHER_KEY).script })),
      ),
    ).toThrow(mismatch('outputs[2].script'));
    const dropped = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);
    const withoutFee = new btc.Transaction({ version: 2, lockTime: 0, ...BITCOIN_TX_OPTIONS });
    for (let i = 0; i < dropped.inputsLength; i++) withoutFee.addInput(dropped.getInput(i));
    for (let i = 0; i < dropped.outputsLength; i++) if (i !== 1) withoutFee.addOutput(dropped.getOutput(i));
    expect(() =>
      verifySignedBitcoinStep(built.psbtBase64, signAsWallet(base64.encode(withoutFee.toPSBT()), [0, 1])),
    ).toThrow(mismatch('outputs.length'));
  });

  it('refuses a fee below its address dust threshold or to an address of another network', () => {
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { integratorFees: [{ address: FEE_A, amount: 293n }] })),
    ).toThrow(
      expect.objectContaining({ reason: 'invalid-request', message: expect.stringMatching(/294 sat/) }),
    );
    expect(
      buildBitcoinStepPsbt(request(USER_WPKH, { integratorFees: [{ address: FEE_A, amount: 294n }] })).txid,
    ).toMatch(/^[0-9a-f]{64}$/);
    const mainnet = btc.p2wpkh(secp256k1.getPublicKey(key(5), true)).address!;
    expect(() =>
      buildBitcoinStepPsbt(request(USER_WPKH, { integratorFees: [{ address: mainnet, amount: 1_000n }] })),
    ).toThrow(/integratorFees\[0\].address/);
  });
});
