import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Contract, formatUnits, parseUnits } from 'ethers';
import { freePort, waitFor } from '@swapgw/testing';
import { devnetWallet } from './accounts';
import { DEVNET_BRIDGE_ABI, ERC20_PERMIT_ABI } from './contracts/abis';
import { localProvider } from './evm-provider';
import { devnetChain } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';

// With blockTimeSeconds the chains mine on an interval after deployment, so "submitted" and
// "confirmed" differ in time; the bridge estimate must still hold.
describe('devnet with a block time', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-devnet-interval-'));
  let devnet: RunningDevnet;

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath: path.join(workDir, 'manifest.json'),
      portA: await freePort(),
      portB: await freePort(),
      blockTimeSeconds: 1,
    });
    // A whole devnet (two anvils, Solana, Bitcoin, the Cosmos chains) on a CI machine busy with the
    // e2e lane took over 60 s once.
  }, 180_000);

  afterAll(async () => {
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('mines blocks on its own and widens the bridge estimate by one block', async () => {
    const chain = devnetChain(devnet.manifest, 'devnet-a');
    const provider = localProvider(chain.rpcUrl, chain.chainId);
    try {
      const start = await provider.getBlockNumber();
      await waitFor(async () => (await provider.getBlockNumber()) >= start + 2, {
        timeoutMs: 5000,
        description: 'two empty blocks',
      });
    } finally {
      provider.destroy();
    }
    expect(devnet.manifest.bridge.estimatedDurationSeconds).toBe(3);
  });

  it('bridges USDC from devnet-a to devnet-b within the advertised duration', async () => {
    const from = devnetChain(devnet.manifest, 'devnet-a');
    const to = devnetChain(devnet.manifest, 'devnet-b');
    const fromProvider = localProvider(from.rpcUrl, from.chainId);
    const toProvider = localProvider(to.rpcUrl, to.chainId);
    try {
      const sender = devnetWallet(devnet.manifest.mnemonic, 6, fromProvider);
      const recipient = devnetWallet(devnet.manifest.mnemonic, 7).address;
      const usdcTo = new Contract(to.tokens.USDC.address, ERC20_PERMIT_ABI, toProvider);
      const amount = parseUnits('20000', 6);
      const before = (await usdcTo.balanceOf(recipient)) as bigint;

      await (
        await new Contract(from.tokens.USDC.address, ERC20_PERMIT_ABI, sender).approve(
          from.bridge.address,
          amount,
        )
      ).wait();
      await (
        await new Contract(from.bridge.address, DEVNET_BRIDGE_ABI, sender).deposit(
          amount,
          to.chainId,
          recipient,
        )
      ).wait();
      const depositedAt = Date.now();

      const budgetMs = devnet.manifest.bridge.estimatedDurationSeconds * 1000;
      const received = await waitFor(
        async () => {
          const delta = ((await usdcTo.balanceOf(recipient)) as bigint) - before;
          return delta > 0n ? delta : undefined;
        },
        { timeoutMs: budgetMs, intervalMs: 50, description: 'the release on devnet-b' },
      );
      expect(Date.now() - depositedAt).toBeLessThanOrEqual(budgetMs);
      expect(formatUnits(received, 6)).toBe('19990.0'); // 20,000 minus 5 bps
    } finally {
      fromProvider.destroy();
      toProvider.destroy();
    }
  });
});
