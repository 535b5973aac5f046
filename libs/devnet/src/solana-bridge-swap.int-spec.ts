import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Connection,
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  Contract,
  EventLog,
  JsonRpcProvider,
  keccak256,
  TransactionReceipt,
  Wallet,
  ZeroAddress,
} from 'ethers';
import {
  memoInstruction,
  SolanaBridgeSwapMessage,
  solanaBridgeDepositInstructions,
  solanaBridgeSwapMessageBytes,
  solanaDepositNonce,
} from '@swapgw/chains/solana-bridge';
import { freePort, waitFor } from '@swapgw/testing';
import {
  BRIDGE_SWAP_OUTCOMES,
  DEVNET_BRIDGE_ABI,
  ERC20_PERMIT_ABI,
  SWAP_GATEWAY_ROUTER_ABI,
  UNISWAP_V2_ROUTER_ABI,
} from './contracts/abis';
import { localProvider } from './evm-provider';
import { DevnetChain, devnetChain } from './manifest';
import { solanaConnection, solanaFeePayer, solanaTestWallet } from './solana';
import { RunningDevnet, startDevnet } from './start-devnet';
import { RecordingLogger } from './bridge/recording-logger';

/** Solana test wallet whose USDC funds the fresh wallets (it pays their token accounts' rent). */
const FUNDER_INDEX = 3;

// Solana → EVM with one signature, the Solana wallet's: its bridge deposit's memo carries the swap
// for devnet-a's SwapGatewayRouter (the deposit's EVM recipient), the devnet's own bridge relayer
// releases it there with releaseWithMessage, and the router swaps for the final recipient, or pays
// the recipient the bridged USDC when it cannot. The wallet holds no lamports: a fee payer (the
// service's, in production) pays the deposit's fee.
describe('devnet bridge Solana → EVM with a swap message: one Solana signature, the swap on devnet-a', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-solana-bridge-swap-'));
  const logger = new RecordingLogger();
  let devnet: RunningDevnet;
  let connection: Connection;
  let providerA: JsonRpcProvider;
  let a: DevnetChain;
  let bridgeA: Contract;
  let routerA: Contract;

  const solana = () => devnet.manifest.solana;
  const mint = () => new PublicKey(solana().tokens.USDC.mint);
  const usdcAccount = (owner: PublicKey) => getAssociatedTokenAddressSync(mint(), owner, true);
  const tokenA = (symbol: 'USDC' | 'WETH') =>
    new Contract(a.tokens[symbol].address, ERC20_PERMIT_ABI, providerA);
  const balanceA = async (symbol: 'USDC' | 'WETH', holder: string) =>
    (await tokenA(symbol).balanceOf(holder)) as bigint;
  const lamportsOf = async (owner: PublicKey) => BigInt(await connection.getBalance(owner, 'confirmed'));
  const solanaUsdc = async (owner: PublicKey) =>
    BigInt((await connection.getTokenAccountBalance(usdcAccount(owner), 'confirmed')).value.amount);
  const afterFee = (amount: bigint) => amount - (amount * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n;
  const inAnHour = async () => BigInt((await providerA.getBlock('latest'))!.timestamp) + 3600n;
  const budgetMs = () => solana().bridge.estimatedDurationSeconds * 1000;

  /** Sends a v0 transaction paid by `payer` and waits until it is confirmed. */
  async function send(
    payer: Keypair,
    signers: Keypair[],
    instructions: TransactionInstruction[],
  ): Promise<string> {
    const { blockhash } = await connection.getLatestBlockhash('confirmed');
    const tx = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions,
      }).compileToV0Message(),
    );
    tx.sign([payer, ...signers]);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await waitFor(
      async () => {
        const [status] = (await connection.getSignatureStatuses([signature])).value;
        if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
        return status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized'
          ? true
          : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 50, description: `transaction ${signature} confirmed` },
    );
    return signature;
  }

  /** A new Solana wallet holding `amount` USDC and not one lamport (the funder paid its token account's rent). */
  async function freshWallet(amount: bigint): Promise<Keypair> {
    const wallet = Keypair.generate();
    const funder = solanaTestWallet(FUNDER_INDEX);
    await send(
      funder,
      [],
      [
        createAssociatedTokenAccountIdempotentInstruction(
          funder.publicKey,
          usdcAccount(wallet.publicKey),
          wallet.publicKey,
          mint(),
        ),
        createTransferCheckedInstruction(
          usdcAccount(funder.publicKey),
          mint(),
          usdcAccount(wallet.publicKey),
          funder.publicKey,
          amount,
          6,
        ),
      ],
    );
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    return wallet;
  }

  /** The wallet's deposit to devnet-a's router with `message`, its fee paid by a fee payer; the wallet signs too. */
  const depositWithMessage = (wallet: Keypair, amount: bigint, message: SolanaBridgeSwapMessage) =>
    send(
      solanaFeePayer(1),
      [wallet],
      solanaBridgeDepositInstructions({
        user: wallet.publicKey,
        amount,
        destinationChainId: a.chainId,
        recipient: a.permits.permitRouter,
        message,
        manifest: solana(),
      }),
    );

  /** The release of a Solana deposit on devnet-a, once the relayer sent it, and what the router did with it. */
  async function settlementOf(signature: string) {
    const nonce = solanaDepositNonce(signature);
    const release = await waitFor(
      async () => {
        const [event] = (await bridgeA.queryFilter(
          bridgeA.filters.ReleaseWithMessage(BigInt(solana().bridge.chainId), nonce),
        )) as EventLog[];
        return event ?? null;
      },
      {
        timeoutMs: budgetMs() * 3,
        intervalMs: 100,
        description: `the release with message of Solana deposit ${signature} on devnet-a`,
      },
    );
    const receipt = (await release.getTransactionReceipt()) as TransactionReceipt;
    const settled = receipt.logs
      .filter((log) => log.address === a.permits.permitRouter)
      .map((log) => routerA.interface.parseLog(log))
      .filter((parsed) => parsed?.name === 'BridgeSwapSettled');
    expect(settled).toHaveLength(1);
    const [owner, recipient, tokenOut, amountIn, amountOut, outcome] = settled[0]!.args.toArray() as [
      string,
      string,
      string,
      bigint,
      bigint,
      bigint,
    ];
    const [, , releaseRecipient, releaseAmount, messageHash] = release.args.toArray() as [
      bigint,
      bigint,
      string,
      bigint,
      string,
    ];
    return {
      nonce,
      releaseRecipient,
      releaseAmount,
      messageHash,
      owner,
      recipient,
      tokenOut,
      amountIn,
      amountOut,
      outcome: BRIDGE_SWAP_OUTCOMES[Number(outcome)],
    };
  }

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
      portSolana: await freePort(),
      logger,
    });
    connection = solanaConnection(solana().rpcUrl);
    a = devnetChain(devnet.manifest, 'devnet-a');
    providerA = localProvider(a.rpcUrl, a.chainId);
    bridgeA = new Contract(a.bridge.address, DEVNET_BRIDGE_ABI, providerA);
    routerA = new Contract(a.permits.permitRouter, SWAP_GATEWAY_ROUTER_ABI, providerA);
  }, 120_000);

  afterAll(async () => {
    providerA?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('a zero-lamport wallet deposits with a message; the relayer releases it with the message to the router, which swaps: the recipient gets WETH ≥ amountOutMin', async () => {
    const wallet = await freshWallet(20_000_000n);
    const recipient = Wallet.createRandom().address;
    const swapPath = [a.tokens.USDC.address, a.tokens.WETH.address];
    const quoted = (
      (await new Contract(a.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, providerA).getAmountsOut(
        afterFee(20_000_000n),
        swapPath,
      )) as bigint[]
    ).at(-1)!;
    const message: SolanaBridgeSwapMessage = {
      venue: a.uniswapV2.router,
      path: swapPath,
      amountOutMin: (quoted * 99n) / 100n,
      recipient,
      unwrapNative: false,
      deadline: await inAnHour(),
    };

    const signature = await depositWithMessage(wallet, 20_000_000n, message);
    const settled = await settlementOf(signature);

    // Released to the router with exactly the message the memo carries; the router swapped it all.
    expect(settled).toMatchObject({
      releaseRecipient: a.permits.permitRouter,
      releaseAmount: afterFee(20_000_000n),
      messageHash: keccak256(solanaBridgeSwapMessageBytes(message)),
      owner: ZeroAddress,
      recipient,
      tokenOut: a.tokens.WETH.address,
      amountIn: afterFee(20_000_000n),
      outcome: 'swapped',
    });
    const weth = await balanceA('WETH', recipient);
    expect(weth).toBeGreaterThanOrEqual(message.amountOutMin);
    expect(weth).toBe(settled.amountOut);
    expect(await balanceA('USDC', recipient)).toBe(0n);
    expect(await providerA.getBalance(recipient)).toBe(0n);
    expect(await balanceA('USDC', a.permits.permitRouter)).toBe(0n);
    expect(await balanceA('WETH', a.permits.permitRouter)).toBe(0n);
    // The wallet spent exactly the amount and not one lamport (it still has none).
    expect(await solanaUsdc(wallet.publicKey)).toBe(0n);
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    // Recorded as released under Solana's bridge id and the deposit's nonce: a replay pays nothing.
    expect(await bridgeA.released(BigInt(solana().bridge.chainId), settled.nonce)).toBe(true);
  });

  it.each([
    [
      'a minimum out the pool cannot give',
      'swap-failed',
      async () => ({ amountOutMin: 10n ** 30n, deadline: await inAnHour() }),
    ],
    [
      'a deadline that passed before the release',
      'expired',
      async () => ({
        amountOutMin: 1n,
        deadline: BigInt((await providerA.getBlock('latest'))!.timestamp) - 1n,
      }),
    ],
  ])(
    'a message the router cannot use (%s) still pays the bridged USDC to the recipient',
    async (_why, outcome, fields) => {
      const wallet = await freshWallet(5_000_000n);
      const recipient = Wallet.createRandom().address;
      const message: SolanaBridgeSwapMessage = {
        venue: a.uniswapV2.router,
        path: [a.tokens.USDC.address, a.tokens.WETH.address],
        recipient,
        unwrapNative: false,
        ...(await fields()),
      };

      const settled = await settlementOf(await depositWithMessage(wallet, 5_000_000n, message));

      expect(settled).toMatchObject({
        recipient,
        tokenOut: a.tokens.USDC.address,
        amountIn: afterFee(5_000_000n),
        amountOut: afterFee(5_000_000n),
        outcome,
      });
      expect(await balanceA('USDC', recipient)).toBe(afterFee(5_000_000n));
      expect(await balanceA('WETH', recipient)).toBe(0n);
      expect(await balanceA('USDC', a.permits.permitRouter)).toBe(0n);
      expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    },
  );

  it('ignores, with a warning and no release, a memo whose message the router would refuse (the final recipient is the router itself)', async () => {
    const wallet = await freshWallet(1_000_000n);
    const router = a.permits.permitRouter;
    const memo = `swapgw-bridge:v1:${a.chainId}:${router}:swap:${a.uniswapV2.router}:${a.tokens.USDC.address},${a.tokens.WETH.address}:1:${router}:0:${await inAnHour()}`;
    const [transfer] = solanaBridgeDepositInstructions({
      user: wallet.publicKey,
      amount: 1_000_000n,
      destinationChainId: a.chainId,
      recipient: router,
      manifest: solana(),
    });
    const signature = await send(
      solanaFeePayer(1),
      [wallet],
      [transfer, memoInstruction(memo, [wallet.publicKey])],
    );

    await waitFor(
      () => logger.lines.some((l) => l.level === 'warn' && l.message.signature === signature) || null,
      {
        timeoutMs: budgetMs() * 3,
        intervalMs: 100,
        description: 'the relayer to read past the deposit',
      },
    );
    expect(logger.lines.find((l) => l.message.signature === signature)?.message.msg).toMatch(
      /without one valid bridge memo/,
    );
    expect(logger.lines.filter((l) => l.message.depositTxHash === signature)).toEqual([]);
    expect(await bridgeA.released(BigInt(solana().bridge.chainId), solanaDepositNonce(signature))).toBe(
      false,
    );
  });
});
