import { createPublicKey, verify } from 'node:crypto';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { Transaction, verifyTypedData, Wallet } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { createWalletClient, custom } from 'viem';
import { customSigner, ethersSigner, SigningPayload, viemSigner } from './signers';
import { solanaSigner } from './solana';

// The adapters with the real libraries (no network): what they submit is what the gateway checks.
// ethers and viem sign deterministically (RFC 6979), so both must produce the same bytes.
describe('signer adapters', () => {
  const privateKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
  const wallet = new Wallet(privateKey);
  const context = { swapId: 's1', step: { current: 1, total: 2 } };
  const evmTransaction: SigningPayload = {
    type: 'evm-transaction',
    transaction: {
      chainId: '31337',
      from: wallet.address,
      to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      data: '0x095ea7b3000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f05120000000000000000000000000000000000000000000000000000000001312d00',
      value: '0',
      nonce: '7',
      gasLimit: '60000',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000',
    },
  };
  const typedData: SigningPayload = {
    type: 'evm-typed-data',
    typedData: {
      domain: {
        name: 'USD Coin',
        version: '2',
        chainId: 31337,
        verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      },
      primaryType: 'Permit',
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      message: {
        owner: wallet.address,
        spender: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
        value: '20000000',
        nonce: '0',
        deadline: '1767225600',
      },
    },
  };

  it('ethers signs the evm-transaction as given: every field, type 2, from the wallet', async () => {
    const { rawTx } = await ethersSigner(wallet).sign(evmTransaction, context);
    const tx = Transaction.from(rawTx!);
    const fields = evmTransaction.type === 'evm-transaction' ? evmTransaction.transaction : undefined;
    expect(tx).toMatchObject({
      type: 2,
      chainId: 31337n,
      nonce: 7,
      gasLimit: 60000n,
      maxFeePerGas: 2000000000n,
      maxPriorityFeePerGas: 1000000n,
      value: 0n,
      data: fields!.data,
      from: wallet.address,
    });
    expect(tx.to?.toLowerCase()).toBe(fields!.to.toLowerCase());
  });

  it('viem (LocalAccount and WalletClient) signs the same bytes as ethers', async () => {
    const account = privateKeyToAccount(privateKey);
    const { rawTx: byEthers } = await ethersSigner(wallet).sign(evmTransaction, context);
    expect(await viemSigner(account).sign(evmTransaction, context)).toEqual({ rawTx: byEthers });
    // A WalletClient whose account is local signs itself; viem asks its transport only the chain id.
    const asked: string[] = [];
    const transport = custom({
      request: async ({ method }: { method: string }) => {
        asked.push(method);
        if (method === 'eth_chainId') return '0x7a69';
        throw new Error(`unexpected ${method}`);
      },
    });
    const client = createWalletClient({ account, transport });
    expect(await viemSigner(client).sign(evmTransaction, context)).toEqual({ rawTx: byEthers });
    expect(asked).toEqual(['eth_chainId']);
  });

  it('signs evm-typed-data with ethers and viem alike; the signature recovers the wallet', async () => {
    const { rawTx: byEthers } = await ethersSigner(wallet).sign(typedData, context);
    const byViem = await viemSigner(privateKeyToAccount(privateKey)).sign(typedData, context);
    expect(byViem).toEqual({ rawTx: byEthers });
    const { domain, types, message } =
      typedData.type === 'evm-typed-data' ? typedData.typedData : ({} as never);
    const { EIP712Domain: _, ...structs } = types;
    expect(verifyTypedData(domain, structs, message, byEthers!)).toBe(wallet.address);
  });

  it('ethers in send mode sends the transaction itself and submits its hash', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const injected = {
      signTransaction: () => Promise.reject(new Error('an injected wallet does not sign alone')),
      sendTransaction: async (tx: Record<string, unknown>) => (sent.push(tx), { hash: '0xabc' }),
      signTypedData: () => Promise.reject(new Error('unused')),
    };
    expect(await ethersSigner(injected, { mode: 'send' }).sign(evmTransaction, context)).toEqual({
      txHash: '0xabc',
    });
    expect(sent).toEqual([
      {
        to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        data: expect.stringMatching(/^0x095ea7b3/),
        value: 0n,
        chainId: 31337n,
      },
    ]);
  });

  it('solana: a Keypair signs its own slot of the versioned transaction, the fee payer slot stays empty', async () => {
    const user = Keypair.generate();
    const feePayer = Keypair.generate().publicKey;
    const message = new TransactionMessage({
      payerKey: feePayer,
      recentBlockhash: new PublicKey(Buffer.alloc(32, 7)).toBase58(),
      instructions: [
        SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: feePayer, lamports: 1000 }),
      ],
    }).compileToV0Message();
    const unsigned = Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
    const { rawTx } = await solanaSigner(user).sign(
      { type: 'solana-versioned-transaction', transaction: unsigned },
      context,
    );
    const signed = VersionedTransaction.deserialize(Buffer.from(rawTx!, 'base64'));
    const slot = signed.message.staticAccountKeys.findIndex((k) => k.equals(user.publicKey));
    expect(slot).toBe(1);
    // Ed25519 over the message, by the wallet's key (an SPKI wrapper around the 32 raw bytes).
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), user.publicKey.toBuffer()]);
    const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(verify(null, signed.message.serialize(), publicKey, signed.signatures[slot])).toBe(true);
    expect(signed.signatures[0].every((b) => b === 0)).toBe(true);
  });

  it('refuses payload types it does not sign; a custom signer wraps a string as rawTx', async () => {
    await expect(
      ethersSigner(wallet).sign(
        { type: 'bitcoin-psbt', psbt: 'cHNidP8=', network: 'regtest', inputsToSign: [] },
        context,
      ),
    ).rejects.toThrow('cannot sign a bitcoin-psbt payload');
    const psbt = customSigner(['bitcoin-psbt'], async () => 'cHNidP8BAA==');
    expect(psbt.handles).toEqual(['bitcoin-psbt']);
    expect(
      await psbt.sign(
        { type: 'bitcoin-psbt', psbt: 'cHNidP8=', network: 'regtest', inputsToSign: [] },
        context,
      ),
    ).toEqual({
      rawTx: 'cHNidP8BAA==',
    });
  });
});
