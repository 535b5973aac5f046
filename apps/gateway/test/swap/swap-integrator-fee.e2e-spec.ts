import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { Interface, parseUnits, Transaction, TransactionRequest, Wallet } from 'ethers';
import { evmIntegratorFeeGas, SPONSORED_EVM_GAS, type TypedDataV4 } from '@swapgw/chains';
import { solanaConnection } from '@swapgw/devnet';
import { testEnv, waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { collectedFeesOf } from '../support/integrator-fees-collected';
import { connectE2eApi, E2eApi } from '../support/e2e-api';
import {
  buildSwapId,
  expectedOutBaseUnits,
  FeeRoute,
  nextSigning,
  RouteIntegratorFee,
  signTypedDataUntilCompleted,
  submitSigned,
} from '../support/swap-steps';

// Integrator fees paid on chain (issue 30): a route quoted with integratorFee is built and run
// through the real stack on devnet-a, and each recipient's USDC balance rises by exactly the
// route's integratorFee[].amount in the swap's own transaction (the SwapGatewayRouter pays it out
// of the input before it swaps), sponsored (the fees are in the signed Permit2 witness) or user-paid
// (the wallet's approve of the router, then its swapWithFees). Fresh wallets and fresh recipients:
// no shared account's allowance or balance is touched beyond the funder's transfers.
const devnet = new DevnetEvm();
const CHAIN = 'devnet-a';
const chainA = devnet.chain(CHAIN);
const usdcOf = (holder: string) => devnet.balanceOf(CHAIN, 'USDC', holder);
const wethOf = (holder: string) => devnet.balanceOf(CHAIN, 'WETH', holder);
/** Account 6 of the devnet mnemonic funds the fresh wallets (as the gasless suite; e2e files run one at a time). */
const funder = () => devnet.account(6).connect(devnet.provider(CHAIN));
const feePaid = new Interface([
  'event IntegratorFeePaid(address indexed recipient, address indexed token, address indexed payer, uint256 amount)',
]);

/** A gateway counter summed over the stack's gateway instances (whichever projected the event counted it). */
async function gatewayCounter(name: string, labels: Record<string, string>): Promise<number> {
  const urls = (process.env.GATEWAY_METRICS_URLS ?? '').split(',').filter(Boolean);
  if (urls.length === 0) throw new Error('GATEWAY_METRICS_URLS is not set: run through the e2e project');
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const url of urls) {
    const text = await (await fetch(url)).text();
    for (const line of text.split('\n')) {
      const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
      if (match?.[1] === name && wanted.every((w) => match[2].split(',').includes(w)))
        sum += Number(match[3]);
    }
  }
  return sum;
}

/** The operator's command: `npm run keys -- fees <owner>` (the built CLI, on the stack's database). */
async function keysFees(owner: string): Promise<string> {
  const root = path.resolve(__dirname, '../../../..');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, 'dist/apps/gateway/src/cli/keys.js'), 'fees', owner],
    { cwd: root, env: { ...process.env, ...testEnv().env }, timeout: 60_000 },
  );
  return stdout;
}

async function freshWalletWithUsdc(amount: bigint, ethWei = 0n): Promise<Wallet> {
  const wallet = Wallet.createRandom() as unknown as Wallet;
  const usdc = devnet.token(CHAIN, 'USDC', funder());
  await (await usdc.getFunction('transfer')(wallet.address, amount)).wait();
  if (ethWei > 0n)
    await devnet.provider(CHAIN).send('anvil_setBalance', [wallet.address, `0x${ethWei.toString(16)}`]);
  return wallet;
}

/** The USDC the bridge relayer paid into a Solana wallet's associated token account, once it has. */
async function bridgedUsdcOnSolana(wallet: PublicKey): Promise<bigint> {
  const solana = solanaConnection(devnet.manifest.solana.rpcUrl);
  const usdcAccount = getAssociatedTokenAddressSync(
    new PublicKey(devnet.manifest.solana.tokens.USDC.mint),
    wallet,
    true,
  );
  return waitFor(
    async () =>
      (await solana.getAccountInfo(usdcAccount))
        ? BigInt((await solana.getTokenAccountBalance(usdcAccount)).value.amount)
        : null,
    { timeoutMs: 30_000, intervalMs: 300, description: 'bridged USDC on Solana' },
  );
}

describe('integrator fees paid on chain in the swap transaction (devnet-a USDC → WETH)', () => {
  let e2e: E2eApi;

  beforeAll(async () => {
    e2e = await connectE2eApi('integrator-fee-swap-e2e');
  });

  afterAll(() => devnet.destroy());

  /**
   * The route `pick` chooses (default: the uniswap-v2 one, whose first leg goes through the router)
   * of a quote with these fees: 20 USDC → WETH on devnet-a unless `request` says otherwise.
   */
  async function quoteWithFee(
    integratorFee: unknown,
    request: Record<string, unknown> = {},
    pick: (route: FeeRoute) => boolean = (r) => r.provider === 'uniswap-v2',
  ): Promise<{ quoteId: string; route: FeeRoute }> {
    const res = e2e.documented(
      'POST',
      '/quote',
      await e2e.client.post('/quote', {
        fromChain: CHAIN,
        toChain: CHAIN,
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '20',
        slippageBps: 100,
        ...request,
        integratorFee,
      }),
    );
    expect(res.status).toBe(200);
    const route = (res.body.data.routes as FeeRoute[]).find(pick);
    expect(route).toBeDefined();
    return { quoteId: res.body.data.quoteId as string, route: route! };
  }

  /**
   * Signs and submits every step of a user-paid swap as the wallet's own transaction until the swap
   * completes; each transaction's chain, `to` and hash, in order.
   */
  async function signTransactionsUntilCompleted(
    swapId: string,
    wallet: Wallet,
  ): Promise<Array<{ chain: string; to: string; txHash: string }>> {
    const sent: Array<{ chain: string; to: string; txHash: string }> = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning(e2e, swapId, step);
      if (res.status === 409) {
        expect(res.body.error).toMatchObject({
          code: 'EXECUTION_TERMINAL',
          details: { status: 'completed' },
        });
        return sent;
      }
      const { signing } = res.body.data as {
        signing: { step: { current: number }; payload: { transaction: TransactionRequest } };
      };
      const rawTx = await wallet.signTransaction(signing.payload.transaction);
      const submitted = await submitSigned(e2e, swapId, rawTx);
      expect(submitted.status).toBe(200);
      const tx = Transaction.from(rawTx);
      sent.push({
        chain: devnet.manifest.chains.find((c) => BigInt(c.chainId) === tx.chainId)!.id,
        to: String(tx.to),
        txHash: submitted.body.data.txHash as string,
      });
      step = signing.step.current;
    }
  }

  /** Builds the route user-paid for the wallet and runs it to its end (signTransactionsUntilCompleted). */
  async function runUserPaid(quoteId: string, route: FeeRoute, wallet: Wallet) {
    const swapId = await buildSwapId(e2e, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    return signTransactionsUntilCompleted(swapId, wallet);
  }

  /** The IntegratorFeePaid events the chain's SwapGatewayRouter emitted in a transaction. */
  async function feesPaidIn(chain: string, txHash: string): Promise<unknown[][]> {
    const receipt = await devnet.provider(chain).getTransactionReceipt(txHash);
    return receipt!.logs
      .filter((log) => log.address === devnet.chain(chain).permits!.permitRouter)
      .flatMap((log) => {
        const parsed = feePaid.parseLog(log);
        return parsed ? [parsed.args.toArray()] : [];
      });
  }

  const feeBaseUnits = (fee: RouteIntegratorFee) => parseUnits(fee.amount, 6);

  /**
   * A sponsored bridge-first swap's signed Permit2 witness (its type and message) and the relayed
   * deposit transaction of its bridge step.
   */
  async function signedFeeDeposit(swapId: string, signed: TypedDataV4[]) {
    const intent = signed.find((td) => td.primaryType === 'PermitWitnessTransferFrom')!;
    const witnessType = intent.types.PermitWitnessTransferFrom.find(
      (field) => field.name === 'witness',
    )?.type;
    const message = intent.message as {
      permitted: { amount: string };
      witness: { integratorFees: Array<{ recipient: string; amount: string }> };
    };
    const view = await e2e.client.get(`/swap/${swapId}`);
    const depositTx = (view.body.data.steps as Array<{ kind: string | null; txHash: string | null }>).find(
      (s) => s.kind === 'bridge' && s.txHash,
    )?.txHash;
    expect(depositTx).toMatch(/^0x[0-9a-f]{64}$/);
    return { witnessType, message, depositTx: depositTx! };
  }

  it('sponsored, two recipients: the Permit2 witness binds both fees and each recipient gets exactly its amount', async () => {
    const [first, second] = [Wallet.createRandom().address, Wallet.createRandom().address];
    const { quoteId, route } = await quoteWithFee([
      { bps: 200, recipient: first },
      { bps: 50, recipient: second },
    ]);
    expect(route.integratorFee.map((fee) => [fee.recipient, fee.amount])).toEqual([
      [first, '0.4'],
      [second, '0.1'],
    ]);
    const wallet = await freshWalletWithUsdc(50_000_000n);
    const usdcLabels = { chain: CHAIN, token: 'USDC' };
    const collectedBefore = await gatewayCounter('swapgw_integrator_fees_collected_total', usdcLabels);
    const paymentsBefore = await gatewayCounter('swapgw_integrator_fee_payments_total', usdcLabels);
    const swapId = await buildSwapId(e2e, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      waitForTxRequestMs: 20_000,
    });
    const signed = await signTypedDataUntilCompleted(e2e, swapId, wallet);

    // What the wallet signed: Permit2 moves the whole 20 USDC, the witness names both fees.
    const intent = signed.find((td: TypedDataV4) => td.primaryType === 'PermitWitnessTransferFrom')!;
    const message = intent.message as {
      permitted: { amount: string };
      witness: { integratorFees: Array<{ recipient: string; amount: string }> };
    };
    expect(message.permitted.amount).toBe('20000000');
    expect(message.witness.integratorFees).toEqual([
      { recipient: first, amount: '400000' },
      { recipient: second, amount: '100000' },
    ]);
    // On chain: each recipient rose by exactly its fee, the wallet spent exactly 20 USDC and got
    // at least the route's minimum out (net of the fee), with no ETH of its own.
    expect(await usdcOf(first)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(second)).toBe(feeBaseUnits(route.integratorFee[1]));
    expect(await usdcOf(wallet.address)).toBe(30_000_000n);
    expect(await wethOf(wallet.address)).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 18));
    expect(await devnet.ethOf(CHAIN, wallet.address)).toBe(0n);

    // What the operator sees: one row per recipient for the key's owner, with the transaction that
    // paid them (the relayer's, the swap's step), the gateways' counters up by the fees (in USDC),
    // and the owner's totals from the keys CLI.
    const view = await e2e.client.get(`/swap/${swapId}`);
    const swapTx = (view.body.data.steps as Array<{ kind: string | null; txHash: string | null }>).find(
      (s) => s.kind !== 'approve' && s.txHash,
    )?.txHash;
    expect(swapTx).toMatch(/^0x[0-9a-f]{64}$/);
    // The quote's gas coverage counted both recipients' transfers in the relayed router call.
    const intentGas = route.gasCoverage.chains[0].breakdown.find((item) => item.kind === 'swap-intent');
    expect(BigInt(intentGas!.estimatedGasUnits)).toBe(
      SPONSORED_EVM_GAS.swapIntent + evmIntegratorFeeGas(2, false),
    );
    // An upper figure: the relayed router call used no more than it.
    const receipt = await devnet.provider(CHAIN).getTransactionReceipt(swapTx!);
    expect(receipt!.gasUsed).toBeLessThanOrEqual(BigInt(intentGas!.estimatedGasUnits));
    expect(await collectedFeesOf(swapId)).toEqual([
      {
        owner: e2e.owner,
        chain: CHAIN,
        token_symbol: 'USDC',
        recipient: first,
        amount: '400000',
        tx_hash: swapTx,
      },
      {
        owner: e2e.owner,
        chain: CHAIN,
        token_symbol: 'USDC',
        recipient: second,
        amount: '100000',
        tx_hash: swapTx,
      },
    ]);
    expect(
      (await gatewayCounter('swapgw_integrator_fees_collected_total', usdcLabels)) - collectedBefore,
    ).toBeCloseTo(0.5, 9);
    expect((await gatewayCounter('swapgw_integrator_fee_payments_total', usdcLabels)) - paymentsBefore).toBe(
      2,
    );
    const totals = await keysFees(e2e.owner);
    expect(totals).toMatch(new RegExp(`${CHAIN}\\s+USDC\\s+${first}\\s+0\\.4\\s+1\\n`));
    expect(totals).toMatch(new RegExp(`${CHAIN}\\s+USDC\\s+${second}\\s+0\\.1\\s+1\\n`));
  });

  it("user-paid: the wallet approves the SwapGatewayRouter for amountIn, whose swapWithFees pays the fee in the swap's transaction", async () => {
    const recipient = Wallet.createRandom().address;
    const { quoteId, route } = await quoteWithFee({ bps: 75, recipient });
    expect(route.integratorFee).toEqual([
      { bps: 75, amount: '0.15', token: 'USDC', chain: CHAIN, recipient },
    ]);
    const wallet = await freshWalletWithUsdc(20_000_000n, 10n ** 18n);
    const sent = await runUserPaid(quoteId, route, wallet);
    // An approve of USDC for the router, then the router's swap: both to the chain's router contracts.
    expect(sent.map((tx) => tx.to)).toEqual([chainA.tokens.USDC.address, chainA.permits!.permitRouter]);
    expect(await feesPaidIn(CHAIN, sent[1].txHash)).toEqual([
      [recipient, chainA.tokens.USDC.address, wallet.address, 150_000n],
    ]);
    expect(await usdcOf(recipient)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(wallet.address)).toBe(0n);
    expect(await wethOf(wallet.address)).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 18));
  });

  it('user-paid cross-chain, bridge first: the router pays the fee on the source chain in the bridge deposit, then the bridged USDC is swapped on devnet-b', async () => {
    const recipient = Wallet.createRandom().address;
    const { quoteId, route } = await quoteWithFee(
      { bps: 30, recipient },
      { toChain: 'devnet-b', tokenOut: 'DAI', amount: '40' },
      () => true,
    );
    expect(route.integratorFee).toEqual([
      { bps: 30, amount: '0.12', token: 'USDC', chain: CHAIN, recipient },
    ]);
    const wallet = await freshWalletWithUsdc(40_000_000n, 10n ** 18n);
    await devnet
      .provider('devnet-b')
      .send('anvil_setBalance', [wallet.address, `0x${(10n ** 18n).toString(16)}`]);
    const daiOnB = () => devnet.balanceOf('devnet-b', 'DAI', wallet.address);
    const sent = await runUserPaid(quoteId, route, wallet);

    // devnet-a: an approve of USDC for the router, then the router's depositWithFees; devnet-b: the
    // swap of what arrived (approve, then Uniswap), with no fee.
    const chainB = devnet.chain('devnet-b');
    expect(sent.map((tx) => [tx.chain, tx.to])).toEqual([
      [CHAIN, chainA.tokens.USDC.address],
      [CHAIN, chainA.permits!.permitRouter],
      ['devnet-b', chainB.tokens.USDC.address],
      ['devnet-b', chainB.uniswapV2.router],
    ]);
    expect(await feesPaidIn(CHAIN, sent[1].txHash)).toEqual([
      [recipient, chainA.tokens.USDC.address, wallet.address, 120_000n],
    ]);
    expect(await usdcOf(recipient)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(wallet.address)).toBe(0n);
    expect(await daiOnB()).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 18));
  });

  it('user-paid devnet-a → Solana USDC: the router pays the fee on devnet-a in its depositToWithFees, and the Solana wallet receives the bridged rest', async () => {
    const recipient = Wallet.createRandom().address;
    const solanaWallet = Keypair.generate().publicKey;
    const { quoteId, route } = await quoteWithFee(
      { bps: 30, recipient },
      { toChain: 'solana-devnet', tokenOut: 'USDC', amount: '40', recipient: solanaWallet.toBase58() },
      () => true,
    );
    expect(route.integratorFee).toEqual([
      { bps: 30, amount: '0.12', token: 'USDC', chain: CHAIN, recipient },
    ]);
    const wallet = await freshWalletWithUsdc(40_000_000n, 10n ** 18n);
    const swapId = await buildSwapId(e2e, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      recipient: solanaWallet.toBase58(),
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    const sent = await signTransactionsUntilCompleted(swapId, wallet);

    // An approve of USDC for the router, then the router's depositToWithFees: the bridge's depositTo
    // for the Solana wallet, in the transaction that pays the fee.
    expect(sent.map((tx) => [tx.chain, tx.to])).toEqual([
      [CHAIN, chainA.tokens.USDC.address],
      [CHAIN, chainA.permits!.permitRouter],
    ]);
    expect(await feesPaidIn(CHAIN, sent[1].txHash)).toEqual([
      [recipient, chainA.tokens.USDC.address, wallet.address, 120_000n],
    ]);
    expect(await usdcOf(recipient)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(wallet.address)).toBe(0n);
    // The relayer pays the bridged USDC (the amount net of the fee, minus the bridge's own fee) into
    // the Solana wallet's associated token account.
    expect(await bridgedUsdcOnSolana(solanaWallet)).toBe(expectedOutBaseUnits(route));
  });

  it('sponsored cross-chain, bridge first: the one source-chain signature carries the fee, which the router pays on devnet-a in the relayed deposit; the bridged USDC is swapped on devnet-b', async () => {
    const recipient = Wallet.createRandom().address;
    const { quoteId, route } = await quoteWithFee(
      { bps: 30, recipient },
      { toChain: 'devnet-b', tokenOut: 'DAI', amount: '40' },
      () => true,
    );
    const wallet = await freshWalletWithUsdc(40_000_000n);
    const swapId = await buildSwapId(e2e, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      waitForTxRequestMs: 20_000,
    });
    const signed = await signTypedDataUntilCompleted(e2e, swapId, wallet);

    // The bridge-and-swap witness: Permit2 moves the whole 40 USDC, the witness names the fee.
    const { witnessType, message, depositTx } = await signedFeeDeposit(swapId, signed);
    expect(witnessType).toBe('BridgeSwapIntent');
    expect(message.permitted.amount).toBe('40000000');
    expect(message.witness.integratorFees).toEqual([{ recipient, amount: '120000' }]);
    // On chain: the recipient rose by exactly the fee on devnet-a, in the deposit's transaction (the
    // relayer's); the wallet spent exactly 40 USDC, had no ETH, and got the DAI on devnet-b.
    expect(await feesPaidIn(CHAIN, depositTx)).toEqual([
      [recipient, chainA.tokens.USDC.address, wallet.address, 120_000n],
    ]);
    expect(await usdcOf(recipient)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(wallet.address)).toBe(0n);
    expect(await devnet.ethOf(CHAIN, wallet.address)).toBe(0n);
    expect(await devnet.balanceOf('devnet-b', 'DAI', wallet.address)).toBeGreaterThanOrEqual(
      parseUnits(route.minAmountOut, 18),
    );
  });

  it('sponsored devnet-a → Solana USDC: the BridgeToIntent witness carries the fee, which the router pays on devnet-a in the relayed depositTo; the Solana wallet receives the bridged rest', async () => {
    const recipient = Wallet.createRandom().address;
    const solanaWallet = Keypair.generate().publicKey;
    const { quoteId, route } = await quoteWithFee(
      { bps: 40, recipient },
      { toChain: 'solana-devnet', tokenOut: 'USDC', amount: '25', recipient: solanaWallet.toBase58() },
      () => true,
    );
    expect(route.integratorFee).toEqual([{ bps: 40, amount: '0.1', token: 'USDC', chain: CHAIN, recipient }]);
    const wallet = await freshWalletWithUsdc(25_000_000n);
    const swapId = await buildSwapId(e2e, {
      quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      recipient: solanaWallet.toBase58(),
      waitForTxRequestMs: 20_000,
    });
    const signed = await signTypedDataUntilCompleted(e2e, swapId, wallet);

    // What the wallet signed: Permit2 moves the whole 25 USDC, the BridgeToIntent names the fee.
    const { witnessType, message, depositTx } = await signedFeeDeposit(swapId, signed);
    expect(witnessType).toBe('BridgeToIntent');
    expect(message.permitted.amount).toBe('25000000');
    expect(message.witness.integratorFees).toEqual([{ recipient, amount: '100000' }]);
    // On chain: the recipient rose by exactly the quoted fee on devnet-a, in the deposit's
    // transaction (the relayer's); the wallet spent exactly 25 USDC and had no ETH.
    expect(await feesPaidIn(CHAIN, depositTx)).toEqual([
      [recipient, chainA.tokens.USDC.address, wallet.address, 100_000n],
    ]);
    expect(await usdcOf(recipient)).toBe(feeBaseUnits(route.integratorFee[0]));
    expect(await usdcOf(wallet.address)).toBe(0n);
    expect(await devnet.ethOf(CHAIN, wallet.address)).toBe(0n);
    // The bridged rest (net of the fee, minus the bridge's own fee) arrives in the Solana wallet.
    expect(await bridgedUsdcOnSolana(solanaWallet)).toBe(expectedOutBaseUnits(route));
  });

  it('user-paid native ETH in: the router takes amountIn as value and pays the fee in ETH in the swap transaction', async () => {
    const recipient = Wallet.createRandom().address;
    const { quoteId, route } = await quoteWithFee(
      { bps: 120, recipient },
      { tokenIn: 'ETH', tokenOut: 'USDC', amount: '0.5' },
    );
    expect(route.integratorFee).toEqual([
      { bps: 120, amount: '0.006', token: 'ETH', chain: CHAIN, recipient },
    ]);
    const wallet = Wallet.createRandom().connect(devnet.provider(CHAIN));
    await devnet.provider(CHAIN).send('anvil_setBalance', [wallet.address, `0x${(10n ** 18n).toString(16)}`]);
    const sent = await runUserPaid(quoteId, route, wallet as unknown as Wallet);

    // One transaction, to the router, with 0.5 ETH as value: no approve for a native input.
    expect(sent.map((tx) => tx.to)).toEqual([chainA.permits!.permitRouter]);
    const provider = devnet.provider(CHAIN);
    const [tx, receipt] = await Promise.all([
      provider.getTransaction(sent[0].txHash),
      provider.getTransactionReceipt(sent[0].txHash),
    ]);
    expect(tx!.value).toBe(parseUnits('0.5', 18));
    expect(await feesPaidIn(CHAIN, sent[0].txHash)).toEqual([
      [recipient, '0x0000000000000000000000000000000000000000', wallet.address, 6_000_000_000_000_000n],
    ]);
    expect(await devnet.ethOf(CHAIN, recipient)).toBe(parseUnits(route.integratorFee[0].amount, 18));
    // The wallet spent exactly the 0.5 ETH quoted (fee included) and the gas of its transaction.
    const gas = receipt!.gasUsed * receipt!.gasPrice;
    expect(await devnet.ethOf(CHAIN, wallet.address)).toBe(10n ** 18n - parseUnits('0.5', 18) - gas);
    expect(await usdcOf(wallet.address)).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 6));
  });
});
