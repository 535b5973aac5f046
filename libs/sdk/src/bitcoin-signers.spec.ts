import { secp256k1, schnorr } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import * as btc from '@scure/btc-signer';
import { base64ToHex, leatherSigner, satsConnectSigner, unisatSigner } from './bitcoin-signers';
import type { SigningPayload } from './signers';

// The adapters against wallets of each shape that sign for real (@scure/btc-signer, as the browser
// wallets' own signers do): a PSBT with the user's Taproot input and the service's fee input; the
// wallet signs its own input only, and the adapter submits what the wallet returns.
describe('Bitcoin wallet adapters', () => {
  const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
  const context = { swapId: 's1', step: { current: 1, total: 1 } };
  const userKey = hex.decode('0101010101010101010101010101010101010101010101010101010101010101');
  const feeKey = hex.decode('0202020202020202020202020202020202020202020202020202020202020202');
  const user = btc.p2tr(schnorr.getPublicKey(userKey), undefined, REGTEST);
  const feeWallet = btc.p2wpkh(secp256k1.getPublicKey(feeKey, true), REGTEST);

  function issuedPayload(): SigningPayload & { type: 'bitcoin-psbt' } {
    const tx = new btc.Transaction();
    tx.addInput({
      txid: hex.decode('aa'.repeat(32)),
      index: 0,
      witnessUtxo: { script: user.script, amount: 100_000n },
      tapInternalKey: user.tapInternalKey,
    });
    tx.addInput({
      txid: hex.decode('bb'.repeat(32)),
      index: 1,
      witnessUtxo: { script: feeWallet.script, amount: 20_000n },
    });
    tx.addOutputAddress(feeWallet.address!, 99_000n, REGTEST);
    tx.addOutputAddress(feeWallet.address!, 19_000n, REGTEST);
    return {
      type: 'bitcoin-psbt',
      psbt: base64.encode(tx.toPSBT()),
      inputsToSign: [{ index: 0, address: user.address!, sighashTypes: [0] }],
      network: 'regtest',
    };
  }

  /** Signs the listed inputs with the user's key, finalizing them when asked, as a wallet does. */
  function signInputs(psbt: Uint8Array, indexes: number[], finalize: boolean): Uint8Array {
    const tx = btc.Transaction.fromPSBT(psbt);
    for (const index of indexes) {
      tx.signIdx(userKey, index);
      if (finalize) tx.finalizeIdx(index);
    }
    return tx.toPSBT();
  }

  /** The submitted PSBT: the user's input carries its Taproot signature, the fee input nothing. */
  function expectOnlyUserInputSigned(rawTx: string) {
    const bytes = /^[0-9a-f]+$/.test(rawTx) ? hex.decode(rawTx) : base64.decode(rawTx);
    const signed = btc.Transaction.fromPSBT(bytes);
    const [mine, fee] = [signed.getInput(0), signed.getInput(1)];
    expect(mine.tapKeySig ?? mine.finalScriptWitness?.[0]).toHaveLength(64);
    expect(fee.partialSig ?? fee.finalScriptWitness).toBeUndefined();
  }

  it('Unisat: hex PSBT in, the inputs to sign with their address and sighash types, not finalized', async () => {
    const payload = issuedPayload();
    const calls: unknown[] = [];
    const signer = unisatSigner({
      async signPsbt(psbtHex, options) {
        calls.push(options);
        const indexes = options!.toSignInputs!.map((input) => input.index);
        return hex.encode(signInputs(hex.decode(psbtHex), indexes, options!.autoFinalized ?? true));
      },
    });
    const { rawTx } = await signer.sign(payload, context);
    expect(calls).toEqual([
      { autoFinalized: false, toSignInputs: [{ index: 0, address: user.address, sighashTypes: [0] }] },
    ]);
    expect(rawTx).toMatch(/^70736274ff/); // the PSBT's magic, in hex as Unisat returns it
    expectOnlyUserInputSigned(rawTx!);
  });

  it('Xverse (sats-connect): base64 PSBT, the indexes each address signs, not broadcast', async () => {
    const payload = issuedPayload();
    const signer = satsConnectSigner(async (method, params) => {
      expect(method).toBe('signPsbt');
      expect(params).toEqual({ psbt: payload.psbt, signInputs: { [user.address!]: [0] }, broadcast: false });
      const indexes = Object.values(params.signInputs).flat();
      return {
        status: 'success',
        result: { psbt: base64.encode(signInputs(base64.decode(params.psbt), indexes, true)) },
      };
    });
    const { rawTx } = await signer.sign(payload, context);
    expectOnlyUserInputSigned(rawTx!);
  });

  it('Xverse (sats-connect): a declined request is thrown with the wallet’s code and message', async () => {
    const signer = satsConnectSigner(async () => ({
      status: 'error',
      error: { code: 4001, message: 'User rejected the request' },
    }));
    await expect(signer.sign(issuedPayload(), context)).rejects.toThrow(
      'the wallet did not sign (4001): User rejected the request',
    );
  });

  it('Leather: hex PSBT, the indexes to sign and the network, not broadcast', async () => {
    const payload = issuedPayload();
    const signer = leatherSigner({
      async request(method, params) {
        expect(method).toBe('signPsbt');
        expect(params).toEqual({
          hex: base64ToHex(payload.psbt),
          signAtIndex: [0],
          network: 'regtest',
          broadcast: false,
        });
        const indexes = [params.signAtIndex].flat() as number[];
        return { result: { hex: hex.encode(signInputs(hex.decode(params.hex), indexes, false)) } };
      },
    });
    const { rawTx } = await signer.sign(payload, context);
    expectOnlyUserInputSigned(rawTx!);
  });

  it('refuses a payload of another family, and base64ToHex is the PSBT’s bytes', async () => {
    const evm = { type: 'evm-typed-data' } as SigningPayload;
    await expect(unisatSigner({ signPsbt: jest.fn() }).sign(evm, context)).rejects.toThrow(
      'the Unisat signer cannot sign a evm-typed-data payload',
    );
    const payload = issuedPayload();
    expect(base64ToHex(payload.psbt)).toBe(hex.encode(base64.decode(payload.psbt)));
  });
});
