import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { parseUnits, Wallet } from 'ethers';
import { solanaConnection, solanaTestWallet } from '@swapgw/devnet';
import { waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import { freshSolanaWalletWith, splBalanceOf, tokenAccountOf } from '@swapgw/testing/solana';
import {
  buildSwapId,
  expectedOutBaseUnits,
  FeeRoute,
  nextSigning,
  quoteFirstRoute,
  submitSigned,
} from '../support/swap-steps';

// Integrator fees on routes that start on Solana: the bridge deposit the wallet signs also pays each
// fee recipient, in the same transaction (a TransferChecked per recipient before the deposit, the
// recipient's USDC account created by the transaction's fee payer when it has none). Each
// recipient's USDC rises by exactly the route's `integratorFee[].amount`, and the wallet spends
// exactly the quoted `amount` (the fee plus what the bridge takes), sponsored or user-paid.
const devnet = new DevnetEvm();
const manifest = devnet.manifest;
const mint = new PublicKey(manifest.solana.tokens.USDC.mint);
const balanceOnA = (symbol: string, holder: string) => devnet.balanceOf('devnet-a', symbol, holder);

/** Funder of fresh wallets, and the user-paid wallet (e2e files run one at a time). */
const solanaFunder = () => solanaTestWallet(8);
const userPaidWallet = () => solanaTestWallet(9);

interface SolanaPayload {
  type: 'solana-versioned-transaction';
  transaction: string;
}

describe('integrator fees on routes from Solana', () => {
  let api: E2eApi;
  let solana: Connection;

  beforeAll(async () => {
    api = await connectE2eApi('solana-integrator-fee-e2e');
    solana = solanaConnection(manifest.solana.rpcUrl);
  });

  afterAll(() => devnet.destroy());

  const solanaUsdc = (owner: PublicKey) => splBalanceOf(solana, mint, owner);
  const lamportsOf = async (owner: PublicKey) => BigInt(await solana.getBalance(owner, 'confirmed'));
  const feeBaseUnits = (route: FeeRoute) => route.integratorFee.map((fee) => parseUnits(fee.amount, 6));

  /**
   * Signs the swap's Solana steps with `wallet` until the swap ends; the transactions' messages, as
   * the wallet signed them, and the terminal answer.
   */
  async function signSolanaSteps(swapId: string, wallet: Keypair) {
    const signed: VersionedTransaction[] = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(api, swapId, step);
      if (res.status === 409) return { signed, terminal: res.body.error };
      const { signing } = res.body.data;
      const payload = signing.payload as SolanaPayload;
      expect(payload.type).toBe('solana-versioned-transaction');
      const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
      tx.sign([wallet]);
      const submitted = await submitSigned(api, swapId, Buffer.from(tx.serialize()).toString('base64'));
      expect(submitted.status).toBe(200);
      signed.push(tx);
      step = signing.step.current;
    }
  }

  it('sponsored Solana → devnet-a WETH: a wallet with 0 SOL pays two recipients without USDC accounts in its deposit; each gets exactly its quoted fee, the fee payer pays their accounts’ rent', async () => {
    const amount = 20_000_000n;
    const wallet = await freshSolanaWalletWith(solana, mint, solanaFunder(), amount);
    const [first, second] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const evmRecipient = Wallet.createRandom();
    expect(await solana.getAccountInfo(tokenAccountOf(mint, first))).toBeNull();

    const { quoteId, route } = await quoteFirstRoute<FeeRoute>(api, {
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '20',
      slippageBps: 100,
      recipient: evmRecipient.address,
      integratorFee: [
        { bps: 50, recipient: first.toBase58() },
        { bps: 25, recipient: second.toBase58() },
      ],
    });
    expect(route.integratorFee).toEqual([
      { bps: 50, amount: '0.1', token: 'USDC', chain: 'solana-devnet', recipient: first.toBase58() },
      { bps: 25, amount: '0.05', token: 'USDC', chain: 'solana-devnet', recipient: second.toBase58() },
    ]);

    const swapId = await buildSwapId(api, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.publicKey.toBase58(),
      recipient: evmRecipient.address,
      waitForTxRequestMs: 20_000,
    });
    const { signed, terminal } = await signSolanaSteps(swapId, wallet);
    expect(signed).toHaveLength(1); // one signature: fees, deposit and the destination swap's memo
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });

    const [firstFee, secondFee] = feeBaseUnits(route);
    expect([firstFee, secondFee]).toEqual([100_000n, 50_000n]);
    expect(await solanaUsdc(first)).toBe(firstFee);
    expect(await solanaUsdc(second)).toBe(secondFee);
    expect(await solanaUsdc(wallet.publicKey)).toBe(0n); // exactly `amount`: fees + deposit
    expect(await lamportsOf(wallet.publicKey)).toBe(0n); // the fee payer paid fees and rent
    const weth = await waitFor(
      async () => {
        const balance = await balanceOnA('WETH', evmRecipient.address);
        return balance > 0n ? balance : null;
      },
      { timeoutMs: 60_000, intervalMs: 300, description: 'the WETH of the destination swap' },
    );
    expect(weth).toBeGreaterThanOrEqual((expectedOutBaseUnits(route) * 9_900n) / 10_000n);
  });

  it('user-paid Solana → devnet-a USDC: the wallet’s own deposit pays the recipient, whose balance rises by exactly the quoted fee', async () => {
    const wallet = userPaidWallet();
    const recipient = Keypair.generate().publicKey;
    const evmRecipient = Wallet.createRandom();
    const { quoteId, route } = await quoteFirstRoute<FeeRoute>(api, {
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '12.5',
      integratorFee: { bps: 300, recipient: recipient.toBase58() },
    });
    expect(route.integratorFee).toEqual([
      { bps: 300, amount: '0.375', token: 'USDC', chain: 'solana-devnet', recipient: recipient.toBase58() },
    ]);
    const usdcBefore = await solanaUsdc(wallet.publicKey);

    const swapId = await buildSwapId(api, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.publicKey.toBase58(),
      recipient: evmRecipient.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    const { signed, terminal } = await signSolanaSteps(swapId, wallet);
    expect(signed).toHaveLength(1);
    expect(signed[0].message.staticAccountKeys[0].toBase58()).toBe(wallet.publicKey.toBase58()); // the wallet pays
    expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });

    expect(await solanaUsdc(recipient)).toBe(375_000n);
    expect(feeBaseUnits(route)).toEqual([375_000n]);
    expect(usdcBefore - (await solanaUsdc(wallet.publicKey))).toBe(12_500_000n);
    const bridged = await waitFor(
      async () => {
        const balance = await balanceOnA('USDC', evmRecipient.address);
        return balance > 0n ? balance : null;
      },
      { timeoutMs: 60_000, intervalMs: 300, description: 'the bridged USDC on devnet-a' },
    );
    // The bridge is quoted for what is left after the fee: 12.125 USDC less the bridge's own fee.
    expect(bridged).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 6));
    expect(bridged).toBeLessThan(12_125_000n);
  });
});
