import { Connection, Keypair, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import bs58 from 'bs58';
import { HDNodeWallet, Transaction, TransactionRequest } from 'ethers';
import { solanaConnection, solanaTestWallet } from '@swapgw/devnet';
import { ApiClient, waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { nextSigning, quoteFirstRoute, submitSigned, expectedOutBaseUnits } from '../support/swap-steps';

// EVM ⇄ Solana swaps through HTTP on the devnet. The client holds a Solana Keypair (signs the
// Solana steps with web3.js) and an ethers wallet (signs the EVM steps). The build names the
// source-chain wallet as userAddress and the destination wallet as recipient, which also signs
// the destination-chain steps.
const devnet = new DevnetEvm();
const manifest = devnet.manifest;
const balanceOnA = (symbol: string, holder: string) => devnet.balanceOf('devnet-a', symbol, holder);
const accountWallet = (index: number) => devnet.account(index);
const mint = new PublicKey(manifest.solana.tokens.USDC.mint);
const usdcAccount = (owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true);

interface SolanaPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}
interface SigningBody {
  swapId: string;
  mode: 'sync' | 'async';
  status: string;
  signing: {
    step: { current: number; total: number } | null;
    payload?: { type: 'evm-transaction'; transaction: TransactionRequest } | SolanaPayload;
    clientHints?: Record<string, string>;
  };
}

describe('EVM ⇄ Solana swaps through HTTP on the devnet', () => {
  let swapApi: E2eApi;
  let client: ApiClient;
  let documented: E2eApi['documented'];
  let solana: Connection;

  beforeAll(async () => {
    swapApi = await connectE2eApi('swap-solana-e2e');
    ({ client, documented } = swapApi);
    solana = solanaConnection(manifest.solana.rpcUrl);
  });

  afterAll(() => devnet.destroy());

  const solanaUsdc = async (owner: PublicKey): Promise<bigint> => {
    const account = usdcAccount(owner);
    if (!(await solana.getAccountInfo(account))) return 0n;
    return BigInt((await solana.getTokenAccountBalance(account)).value.amount);
  };

  const quote = (body: Record<string, unknown>) => quoteFirstRoute(swapApi, body);

  const signSolana = (payload: SolanaPayload, keypair: Keypair): string => {
    const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    tx.sign([keypair]);
    return Buffer.from(tx.serialize()).toString('base64');
  };

  /** Signs every step with the wallet of its payload's family; returns what was signed and the end. */
  async function signEveryStep(swapId: string, wallets: { evm: HDNodeWallet; solana: Keypair }) {
    const signed: string[] = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(swapApi, swapId, step);
      if (res.status === 409) return { signed, terminal: res.body.error };
      const { signing } = res.body.data as SigningBody;
      const payload = signing.payload!;
      let rawTx: string;
      let txHash: string;
      if (payload.type === 'solana-versioned-transaction') {
        expect(signing.clientHints).toMatchObject({
          recommendedWallet: 'Phantom',
          network: 'Solana Devnet (local)',
        });
        rawTx = signSolana(payload, wallets.solana);
        txHash = bs58.encode(VersionedTransaction.deserialize(Buffer.from(rawTx, 'base64')).signatures[0]);
      } else {
        expect(payload.transaction.from).toBe(wallets.evm.address); // the EVM side is signed by its own wallet
        rawTx = await wallets.evm.signTransaction(payload.transaction);
        txHash = Transaction.from(rawTx).hash!;
      }
      const submitted = await submitSigned(swapApi, swapId, rawTx);
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted', step: signing.step, txHash });
      signed.push(`${signing.step!.current}/${signing.step!.total} ${payload.type}`);
      step = signing.step!.current;
    }
  }

  it('Solana → devnet-a: the Solana wallet bridges USDC, the EVM recipient approves and swaps it to WETH', async () => {
    const keypair = solanaTestWallet(6);
    const evm = accountWallet(8);
    const { quoteId, route } = await quote({
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: 100,
      recipient: evm.address,
    });
    const usdcBefore = await solanaUsdc(keypair.publicKey);
    const wethBefore = await balanceOnA('WETH', evm.address);

    const build = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', {
        quoteId,
        routeId: route.routeId,
        userAddress: keypair.publicKey.toBase58(),
        recipient: evm.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      }),
    );
    expect([200, 202]).toContain(build.status);
    const { signed, terminal } = await signEveryStep(build.body.data.swapId, { evm, solana: keypair });

    expect(signed).toEqual([
      '1/3 solana-versioned-transaction',
      '2/3 evm-transaction',
      '3/3 evm-transaction',
    ]);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(usdcBefore - (await solanaUsdc(keypair.publicKey))).toBe(20_000_000n);
    expect((await balanceOnA('WETH', evm.address)) - wethBefore).toBeGreaterThanOrEqual(
      (expectedOutBaseUnits(route) * 9_900n) / 10_000n,
    );
  });

  it('devnet-a → Solana: the EVM wallet approves and deposits to the Solana wallet, whose USDC account receives it', async () => {
    const keypair = solanaTestWallet(7);
    const evm = accountWallet(9);
    const { quoteId, route } = await quote({
      fromChain: 'devnet-a',
      toChain: 'solana-devnet',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '15',
      recipient: keypair.publicKey.toBase58(),
    });
    const usdcBeforeA = await balanceOnA('USDC', evm.address);
    const usdcBeforeSolana = await solanaUsdc(keypair.publicKey);

    const build = await client.post('/swap/build', {
      quoteId,
      routeId: route.routeId,
      userAddress: evm.address,
      recipient: keypair.publicKey.toBase58(),
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    expect([200, 202]).toContain(build.status);
    const { signed, terminal } = await signEveryStep(build.body.data.swapId, { evm, solana: keypair });

    expect(signed).toEqual(['1/2 evm-transaction', '2/2 evm-transaction']);
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
    expect(usdcBeforeA - (await balanceOnA('USDC', evm.address))).toBe(15_000_000n);
    // The relayer pays the bridged USDC (minus its fee) into the wallet's associated token account.
    const received = await waitFor(
      async () => {
        const gained = (await solanaUsdc(keypair.publicKey)) - usdcBeforeSolana;
        return gained > 0n ? gained : null;
      },
      { timeoutMs: 30_000, intervalMs: 300, description: 'bridged USDC on Solana' },
    );
    expect(received).toBe(expectedOutBaseUnits(route));
  });

  it('refuses a tampered Solana transaction with 409 and addresses of the wrong family with 400 INVALID_ADDRESS', async () => {
    const keypair = solanaTestWallet(5);
    const evm = accountWallet(8);
    const { quoteId, route } = await quote({
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '3',
      recipient: evm.address,
    });

    const evmOnSolana = documented(
      'POST',
      '/swap/build',
      await client.post('/swap/build', {
        quoteId,
        routeId: route.routeId,
        userAddress: evm.address,
        recipient: evm.address,
      }),
    );
    expect(evmOnSolana.status).toBe(400);
    expect(evmOnSolana.body.error.code).toBe('INVALID_ADDRESS');
    const solanaOnEvm = await client.post('/swap/build', {
      quoteId,
      routeId: route.routeId,
      userAddress: keypair.publicKey.toBase58(),
      recipient: keypair.publicKey.toBase58(),
    });
    expect(solanaOnEvm.status).toBe(400);
    expect(solanaOnEvm.body.error.code).toBe('INVALID_ADDRESS');

    const build = await client.post('/swap/build', {
      quoteId,
      routeId: route.routeId,
      userAddress: keypair.publicKey.toBase58(),
      recipient: evm.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    const swapId = build.body.data.swapId as string;
    const ready = await nextSigning(swapApi, swapId);
    expect(ready.status).toBe(200);
    const issued = VersionedTransaction.deserialize(
      Buffer.from((ready.body.data.signing.payload as SolanaPayload).transaction, 'base64'),
    );
    // Same blockhash and fee payer, the USDC sent to another wallet's account instead of the vault.
    const tampered = new VersionedTransaction(
      new TransactionMessage({
        payerKey: keypair.publicKey,
        recentBlockhash: issued.message.recentBlockhash,
        instructions: [
          createTransferCheckedInstruction(
            usdcAccount(keypair.publicKey),
            mint,
            usdcAccount(Keypair.generate().publicKey),
            keypair.publicKey,
            3_000_000n,
            6,
          ),
        ],
      }).compileToV0Message(),
    );
    tampered.sign([keypair]);
    const refused = documented(
      'POST',
      `/swap/${swapId}/signing`,
      await client.post(`/swap/${swapId}/signing`, {
        rawTx: Buffer.from(tampered.serialize()).toString('base64'),
      }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TX_REQUEST_MISMATCH');
    const garbage = await client.post(`/swap/${swapId}/signing`, { rawTx: 'AAAA' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.code).toBe('INVALID_SIGNED_TX');
  });
});
