import { Transaction, Wallet } from 'ethers';
import type { TransactionRequest } from 'ethers';

// The payload carries nonce as a decimal string, which ethers accepts at run time but not in its
// TypeScript types: a TypeScript client casts, exactly as here.
const signable = (tx: object): TransactionRequest => tx as TransactionRequest;
import { buildEvmSigningPayload, EvmPayloadChainState } from './evm-payload';

const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
const call = {
  to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  data: '0xa9059cbb0001',
  value: '1000000000000000',
};
const state: EvmPayloadChainState = {
  chainId: 31337n,
  nonce: 7,
  gasEstimate: 50_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
};
const policy = { gasLimitPercent: 120, feeSafetyPercent: 125 };

describe('buildEvmSigningPayload', () => {
  it('issues the documented evm-transaction shape with decimal strings', () => {
    const { payload, executionHints } = buildEvmSigningPayload(wallet.address, call, state, policy);
    expect(payload).toEqual({
      type: 'evm-transaction',
      transaction: {
        chainId: '31337',
        from: wallet.address,
        to: call.to,
        data: call.data,
        value: '1000000000000000',
        nonce: '7',
        gasLimit: '60000',
        maxFeePerGas: '2500000000',
        maxPriorityFeePerGas: '1000000000',
      },
    });
    expect(executionHints).toEqual({
      gasEstimate: '50000',
      gasLimit: '60000',
      maxFeePerGas: '2500000000',
      maxPriorityFeePerGas: '1000000000',
      estimatedFeeWei: (60_000n * 2_500_000_000n).toString(),
    });
  });

  it('is signed as-is by ethers Wallet.signTransaction into a type-2 transaction with the same fields', async () => {
    const { payload } = buildEvmSigningPayload(wallet.address, call, state, policy);
    const rawTx = await wallet.signTransaction(signable(payload.transaction));
    const signed = Transaction.from(rawTx);
    expect(signed.type).toBe(2);
    expect(signed.from).toBe(wallet.address);
    expect(signed.chainId).toBe(31337n);
    expect(signed.to).toBe(call.to);
    expect(signed.data).toBe(call.data);
    expect(signed.value).toBe(1_000_000_000_000_000n);
    expect(signed.nonce).toBe(7);
    expect(signed.gasLimit).toBe(60_000n);
    expect(signed.maxFeePerGas).toBe(2_500_000_000n);
    expect(signed.maxPriorityFeePerGas).toBe(1_000_000_000n);
  });

  it('never issues a max fee below the priority fee', () => {
    const { payload } = buildEvmSigningPayload(
      wallet.address,
      call,
      { ...state, maxFeePerGas: 10n, maxPriorityFeePerGas: 1_000n },
      policy,
    );
    expect(payload.transaction.maxFeePerGas).toBe('1000');
  });
});
