import fs from 'node:fs';
import net from 'node:net';
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
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Contract, formatUnits, JsonRpcProvider, parseUnits } from 'ethers';
import { freePort, waitFor } from '@swapgw/testing';
import { devnetWallet } from './accounts';
import { SolanaBridgeEndpoint } from './bridge/solana-bridge-endpoint';
import { DEVNET_BRIDGE_ABI, ERC20_PERMIT_ABI } from './contracts/abis';
import { localProvider } from './evm-provider';
import { devnetChain, loadDevnetManifest } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';
import {
  memoInstruction,
  solanaBridgeDepositInstructions,
  solanaDepositNonce,
  solanaRecipientBytes32,
} from '@swapgw/chains/solana-bridge';
import { solanaBridgeAuthority, solanaConnection, solanaTestWallet, usdcAccountOf } from './solana';
import { RecordingLogger } from './bridge/recording-logger';

// The whole devnet (two anvil chains and the Solana chain) on free ports, bridging USDC between
// EVM and Solana through the relayer, checked the way a user would: balances on both sides.
describe('devnet bridge between EVM and Solana', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-devnet-solana-'));
  const manifestPath = path.join(workDir, 'manifest.json');
  const logger = new RecordingLogger();
  let devnet: RunningDevnet;
  let connection: Connection;
  let evm: JsonRpcProvider;

  const solana = () => devnet.manifest.solana;
  const chainA = () => devnetChain(devnet.manifest, 'devnet-a');
  const usdcA = () => new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, evm);
  const tokenBalance = async (account: PublicKey) =>
    BigInt((await connection.getTokenAccountBalance(account)).value.amount);
  const vault = () => new PublicKey(solana().bridge.vault);
  const budgetMs = () => solana().bridge.estimatedDurationSeconds * 1000;

  async function sendV0(payer: Keypair, instructions: TransactionInstruction[]): Promise<string> {
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions,
      }).compileToV0Message(),
    );
    tx.sign([payer]);
    return connection.sendRawTransaction(tx.serialize());
  }

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath,
      portA: await freePort(),
      portB: await freePort(),
      portSolana: await freePort(),
      logger,
    });
    connection = solanaConnection(devnet.manifest.solana.rpcUrl);
    evm = localProvider(chainA().rpcUrl, chainA().chainId);
  }, 60_000);

  afterAll(async () => {
    evm?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('starts the Solana chain with the devnet and writes it into a manifest that validates', async () => {
    const manifest = loadDevnetManifest(manifestPath);
    expect(manifest).toEqual(devnet.manifest);
    expect(manifest.chains.map((c) => c.id)).toEqual(['devnet-a', 'devnet-b']);
    expect(manifest.solana).toMatchObject({
      id: 'solana-devnet',
      family: 'solana',
      bridge: { chainId: 1399811149, token: 'USDC', vaultOwner: manifest.solana.bridgeAuthority },
    });
    expect(manifest.solana.bridge.estimatedDurationSeconds).toBe(3);
    expect(manifest.solana.accounts[0].address).toBe(solanaTestWallet(1).publicKey.toBase58());
    expect(await connection.getVersion()).toHaveProperty('solana-core');
    expect(formatUnits(await tokenBalance(vault()), 6)).toBe('10000000.0');
  });

  it('releases a wallet-signed Solana deposit on devnet-a to the EVM recipient, minus the fee, once', async () => {
    const user = solanaTestWallet(1);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 5).address;
    const amount = parseUnits('1000', 6);
    const recipientBefore = (await usdcA().balanceOf(recipient)) as bigint;
    const vaultBefore = await tokenBalance(vault());

    const signature = await sendV0(
      user,
      solanaBridgeDepositInstructions({
        user: user.publicKey,
        amount,
        destinationChainId: chainA().chainId,
        recipient,
        manifest: solana(),
      }),
    );
    const sentAt = Date.now();

    await waitFor(
      async () =>
        ((await usdcA().balanceOf(recipient)) as bigint) - recipientBefore === parseUnits('999.5', 6),
      {
        timeoutMs: budgetMs(),
        intervalMs: 50,
        description: '999.5 USDC on devnet-a for the Solana deposit',
      },
    );
    expect(Date.now() - sentAt).toBeLessThanOrEqual(budgetMs());
    expect((await tokenBalance(vault())) - vaultBefore).toBe(amount);

    // The EVM bridge recorded the release under Solana's bridge chain id and the deposit's nonce:
    // a replay pays nothing.
    const relayer = devnetWallet(devnet.manifest.mnemonic, 10, evm);
    const bridge = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, relayer);
    const nonce = solanaDepositNonce(signature);
    expect(await bridge.released(solana().bridge.chainId, nonce)).toBe(true);
    expect(await bridge.release.staticCall(solana().bridge.chainId, nonce, recipient, amount)).toBe(false);
  });

  it('releases an EVM depositTo on devnet-a to a Solana wallet, creating its USDC account, once', async () => {
    const sender = devnetWallet(devnet.manifest.mnemonic, 6, evm);
    const recipient = Keypair.generate().publicKey; // no USDC account yet: the release creates it
    const recipientAccount = usdcAccountOf(solana(), recipient);
    const amount = parseUnits('200', 6);
    const usdc = new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, sender);
    const bridge = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, sender);
    expect(await connection.getAccountInfo(recipientAccount)).toBeNull();

    await (await usdc.approve(chainA().bridge.address, amount)).wait();
    const receipt = await (
      await bridge.depositTo(amount, solana().bridge.chainId, solanaRecipientBytes32(recipient.toBase58()))
    ).wait();
    const depositedAt = Date.now();
    const event = receipt.logs
      .map((log: { topics: string[]; data: string }) => bridge.interface.parseLog(log))
      .find((e: { name: string } | null) => e?.name === 'DepositTo');
    expect(event.args.amountAfterFee).toBe(parseUnits('199.9', 6));

    await waitFor(
      async () =>
        (await connection.getAccountInfo(recipientAccount)) &&
        (await tokenBalance(recipientAccount)) === parseUnits('199.9', 6),
      {
        timeoutMs: budgetMs(),
        intervalMs: 50,
        description: '199.9 USDC in the Solana wallet',
      },
    );
    expect(Date.now() - depositedAt).toBeLessThanOrEqual(budgetMs());

    // The release is on the vault's history with its memo, and an endpoint that knows nothing in
    // memory (a restarted relayer) finds it there and pays nothing the second time.
    // The balance shows at once; the history lists the release once it is confirmed (one slot).
    const nonce = event.args.nonce as bigint;
    const releaseMemo = `swapgw-bridge-release:31337:${nonce}`;
    await waitFor(
      async () =>
        (await connection.getSignaturesForAddress(vault(), { limit: 20 }, 'confirmed')).some(
          (h) => h.memo === `[${releaseMemo.length}] ${releaseMemo}`,
        ),
      { timeoutMs: 5000, intervalMs: 50, description: `the memo ${releaseMemo} on the vault history` },
    );
    const restarted = new SolanaBridgeEndpoint({
      manifest: solana(),
      connection: solanaConnection(solana().rpcUrl),
      authority: solanaBridgeAuthority(),
      feeBps: devnet.manifest.bridge.feeBps,
      logger: new RecordingLogger(),
    });
    const outcome = await restarted.release({
      sourceChain: 'devnet-a',
      sourceBridgeChainId: 31337n,
      nonce,
      destinationBridgeChainId: BigInt(solana().bridge.chainId),
      recipient: recipient.toBase58(),
      amount: parseUnits('199.9', 6),
      depositTxHash: receipt.hash,
    });
    expect(outcome).toEqual({ status: 'already-released' });
    expect(await tokenBalance(recipientAccount)).toBe(parseUnits('199.9', 6));
    await restarted.close();
  });

  it('ignores, with a warning, a vault transfer whose memo is not a bridge memo', async () => {
    const user = solanaTestWallet(2);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 7).address;
    const recipientBefore = (await usdcA().balanceOf(recipient)) as bigint;
    const mint = new PublicKey(solana().tokens.USDC.mint);
    const stray = await sendV0(user, [
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, user.publicKey),
        mint,
        vault(),
        user.publicKey,
        5_000_000n,
        6,
      ),
      memoInstruction(`swapgw-bridge:v9:31337:${recipient}`, [user.publicKey]),
    ]);
    // A valid deposit sent after it: once it is paid, the relayer has read past the stray one.
    await sendV0(
      user,
      solanaBridgeDepositInstructions({
        user: user.publicKey,
        amount: 10_000_000n,
        destinationChainId: 31337,
        recipient,
        manifest: solana(),
      }),
    );
    await waitFor(
      async () => ((await usdcA().balanceOf(recipient)) as bigint) - recipientBefore === 9_995_000n,
      {
        timeoutMs: budgetMs() * 2,
        intervalMs: 50,
        description: 'the valid deposit after the stray transfer to be paid',
      },
    );

    expect(logger.lines).toContainEqual({
      level: 'warn',
      message: expect.objectContaining({
        msg: expect.stringContaining('without one valid bridge memo'),
        signature: stray,
        amount: '5000000',
      }),
    });
    expect(logger.lines.filter((l) => l.message.depositTxHash === stray)).toEqual([]);
  });

  it('refuses a legacy deposit naming Solana (an EVM recipient cannot be paid there) and pays a zero-padded depositTo on EVM', async () => {
    const sender = devnetWallet(devnet.manifest.mnemonic, 8, evm);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 9).address;
    const chainB = devnetChain(devnet.manifest, 'devnet-b');
    const providerB = localProvider(chainB.rpcUrl, chainB.chainId);
    const usdcB = new Contract(chainB.tokens.USDC.address, ERC20_PERMIT_ABI, providerB);
    const usdc = new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, sender);
    const bridge = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, sender);
    const amount = parseUnits('100', 6);
    try {
      const before = (await usdcB.balanceOf(recipient)) as bigint;
      await (await usdc.approve(chainA().bridge.address, amount * 2n)).wait();
      const legacy = await (await bridge.deposit(amount, solana().bridge.chainId, recipient)).wait();
      await (
        await bridge.depositTo(
          amount,
          chainB.chainId,
          `0x${recipient.slice(2).toLowerCase().padStart(64, '0')}`,
        )
      ).wait();

      await waitFor(
        async () => ((await usdcB.balanceOf(recipient)) as bigint) - before === parseUnits('99.95', 6),
        {
          timeoutMs: devnet.manifest.bridge.estimatedDurationSeconds * 1000,
          intervalMs: 50,
          description: '99.95 USDC on devnet-b for the zero-padded depositTo',
        },
      );
      expect(logger.lines).toContainEqual({
        level: 'error',
        message: expect.objectContaining({
          msg: expect.stringContaining('use depositTo'),
          depositTxHash: legacy.hash,
        }),
      });
    } finally {
      providerB.destroy();
    }
  });

  it('refuses a Solana port that is taken, and leaves no chain running', async () => {
    const blocker = net.createServer();
    const takenPort = await freePort();
    await new Promise<void>((resolve) => blocker.listen(takenPort, '127.0.0.1', resolve));
    const portA = await freePort();
    try {
      await expect(
        startDevnet({
          manifestPath: path.join(workDir, 'refused.json'),
          portA,
          portB: await freePort(),
          portSolana: takenPort,
          logger,
        }),
      ).rejects.toMatchObject({
        code: 'SOLANA_START_FAILED',
        message: expect.stringContaining(`port ${takenPort} is already in use`),
      });
    } finally {
      blocker.close();
    }
    const reusable = net.createServer();
    await new Promise<void>((resolve, reject) => {
      reusable.once('error', reject);
      reusable.listen(portA, '127.0.0.1', resolve);
    });
    reusable.close();
    expect(fs.existsSync(path.join(workDir, 'refused.json'))).toBe(false);
  });
});
