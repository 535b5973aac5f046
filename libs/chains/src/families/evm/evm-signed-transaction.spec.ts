import { CodedError, EvmTransactionPayload } from '@swapgw/contracts';
import { HDNodeWallet, Transaction, Wallet } from 'ethers';
import type { TransactionLike, TransactionRequest, TransactionResponse } from 'ethers';

// The payload carries nonce as a decimal string, which ethers accepts at run time but not in its
// TypeScript types: a TypeScript client casts, exactly as here.
const signable = (tx: object): TransactionRequest => tx as TransactionRequest;
import {
  assertNoMismatch,
  compareSentWithPayload,
  compareWithPayload,
  decodeSignedEvmTransaction,
  sentEvmTransactionOf,
} from './evm-signed-transaction';

const mnemonic = 'test test test test test test test test test test test junk';
const wallet = Wallet.fromPhrase(mnemonic);
const otherWallet = HDNodeWallet.fromPhrase(mnemonic, undefined, "m/44'/60'/0'/0/1");

const payload: EvmTransactionPayload = {
  chainId: '31337',
  from: wallet.address,
  to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  data: '0x095ea7b3',
  value: '0',
  nonce: '3',
  gasLimit: '60000',
  maxFeePerGas: '2500000000',
  maxPriorityFeePerGas: '1000000000',
};

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof CodedError ? error.code : `not coded: ${(error as Error).message}`;
  }
  return undefined;
};

describe('decodeSignedEvmTransaction', () => {
  it('decodes a signed type-2 transaction with its hash and recovered signer', async () => {
    const rawTx = await wallet.signTransaction(signable(payload));
    const decoded = decodeSignedEvmTransaction(rawTx);
    expect(decoded.hash).toBe(Transaction.from(rawTx).hash);
    expect(decoded.from).toBe(wallet.address);
    expect(decoded.type).toBe(2);
    expect(decoded.serialized).toBe(rawTx);
  });

  it('rejects garbage, non-hex and truncated input as INVALID_SIGNED_TX', async () => {
    const rawTx = await wallet.signTransaction(signable(payload));
    expect(codeOf(() => decodeSignedEvmTransaction('hello'))).toBe('INVALID_SIGNED_TX');
    expect(codeOf(() => decodeSignedEvmTransaction('0xdeadbeef'))).toBe('INVALID_SIGNED_TX');
    expect(codeOf(() => decodeSignedEvmTransaction(rawTx.slice(0, rawTx.length - 20)))).toBe(
      'INVALID_SIGNED_TX',
    );
  });

  it('rejects an unsigned serialized transaction as INVALID_SIGNED_TX', () => {
    const unsigned = Transaction.from({
      ...payload,
      from: undefined,
      type: 2,
    } as unknown as TransactionLike<string>).unsignedSerialized;
    expect(codeOf(() => decodeSignedEvmTransaction(unsigned))).toBe('INVALID_SIGNED_TX');
  });
});

describe('compareWithPayload', () => {
  it('finds no difference when the payload was signed as issued', async () => {
    const decoded = decodeSignedEvmTransaction(await wallet.signTransaction(signable(payload)));
    expect(compareWithPayload(decoded, payload)).toEqual([]);
  });

  it('accepts addresses in another letter case', async () => {
    const decoded = decodeSignedEvmTransaction(await wallet.signTransaction(signable(payload)));
    expect(
      compareWithPayload(decoded, {
        ...payload,
        to: payload.to.toLowerCase(),
        from: payload.from.toLowerCase(),
      }),
    ).toEqual([]);
  });

  const tampered: Array<[keyof EvmTransactionPayload, string]> = [
    ['chainId', '31338'],
    ['to', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'],
    ['data', '0x095ea7b4'],
    ['value', '1'],
    ['nonce', '4'],
    ['gasLimit', '60001'],
    ['maxFeePerGas', '2500000001'],
    ['maxPriorityFeePerGas', '999999999'],
  ];
  it.each(tampered)('names %s when only that field was changed before signing', async (field, value) => {
    const decoded = decodeSignedEvmTransaction(
      await wallet.signTransaction(signable({ ...payload, [field]: value })),
    );
    expect(compareWithPayload(decoded, payload)).toEqual([
      { field, expected: payload[field], actual: value },
    ]);
  });

  it('names from when another wallet signed the same transaction', async () => {
    const decoded = decodeSignedEvmTransaction(
      await otherWallet.signTransaction(signable({ ...payload, from: otherWallet.address })),
    );
    expect(compareWithPayload(decoded, payload)).toEqual([
      { field: 'from', expected: wallet.address, actual: otherWallet.address },
    ]);
  });

  it('names the fee fields when a legacy (gasPrice) transaction was signed instead', async () => {
    const legacy = {
      chainId: payload.chainId,
      to: payload.to,
      data: payload.data,
      value: payload.value,
      nonce: payload.nonce,
      gasLimit: payload.gasLimit,
      gasPrice: '2500000000',
      type: 0,
    };
    const decoded = decodeSignedEvmTransaction(await wallet.signTransaction(signable(legacy)));
    expect(compareWithPayload(decoded, payload).map((m) => m.field)).toEqual([
      'maxFeePerGas',
      'maxPriorityFeePerGas',
    ]);
  });
});

describe('a transaction the wallet sent itself', () => {
  const sent = async (overrides: Partial<EvmTransactionPayload>) =>
    decodeSignedEvmTransaction(await wallet.signTransaction(signable({ ...payload, ...overrides })));

  it('matches on from, chainId, to, data and value; nonce and gas are the wallet’s', async () => {
    const tx = await sent({ nonce: '5', gasLimit: '90000', maxFeePerGas: '9', maxPriorityFeePerGas: '1' });
    expect(compareWithPayload(tx, payload).map((m) => m.field)).toEqual([
      'nonce',
      'gasLimit',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
    ]);
    expect(compareSentWithPayload(tx, payload)).toEqual([]);
  });

  it('names every field the wallet may not change', async () => {
    const tx = await sent({ to: otherWallet.address, data: '0x095ea7b4', value: '1', chainId: '1' });
    expect(compareSentWithPayload(tx, payload)).toEqual([
      { field: 'chainId', expected: '31337', actual: '1' },
      { field: 'to', expected: payload.to, actual: otherWallet.address },
      { field: 'data', expected: payload.data, actual: '0x095ea7b4' },
      { field: 'value', expected: '0', actual: '1' },
    ]);
    const other = decodeSignedEvmTransaction(
      await otherWallet.signTransaction(signable({ ...payload, from: otherWallet.address })),
    );
    expect(compareSentWithPayload(other, payload).map((m) => m.field)).toEqual(['from']);
  });

  it('refuses a nonce below the payload’s: sent before the payload was issued', async () => {
    const tx = await sent({ nonce: '2' });
    expect(compareSentWithPayload(tx, payload)).toEqual([{ field: 'nonce', expected: '>= 3', actual: '2' }]);
    expect(codeOf(() => assertNoMismatch(compareSentWithPayload(tx, payload)))).toBe('TX_REQUEST_MISMATCH');
  });

  it('serializes the node’s copy again, recovering its sender, and checks it hashes to the hash asked for', async () => {
    const rawTx = await wallet.signTransaction(signable(payload));
    const signed = Transaction.from(rawTx);
    // What eth_getTransactionByHash answers for a type-2 transaction: its fields, the signature, and
    // the effective gasPrice, which is no field of the transaction.
    const response = {
      type: 2,
      chainId: signed.chainId,
      nonce: signed.nonce,
      to: signed.to,
      data: signed.data,
      value: signed.value,
      gasLimit: signed.gasLimit,
      gasPrice: 1_500_000_000n,
      maxFeePerGas: signed.maxFeePerGas,
      maxPriorityFeePerGas: signed.maxPriorityFeePerGas,
      accessList: [],
      signature: signed.signature,
    } as unknown as TransactionResponse;
    const decoded = sentEvmTransactionOf(response, signed.hash!);
    expect(decoded).toMatchObject({ hash: signed.hash, from: wallet.address, serialized: rawTx, nonce: '3' });
    expect(
      codeOf(() => sentEvmTransactionOf({ ...response, value: 1n } as TransactionResponse, signed.hash!)),
    ).toBe('TX_REQUEST_MISMATCH');
  });
});
