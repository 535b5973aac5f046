import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Contract, formatUnits, JsonRpcProvider, MaxUint256, parseUnits, Signature } from 'ethers';
import { freePort, waitFor } from '@swapgw/testing';
import { devnetWallet } from './accounts';
import {
  DEVNET_BRIDGE_ABI,
  ERC20_PERMIT_ABI,
  UNISWAP_V2_PAIR_ABI,
  UNISWAP_V2_ROUTER_ABI,
  WETH9_ABI,
} from './contracts/abis';
import { EIP2612_PERMIT_TYPES } from './contracts/permit-typed-data';
import { localProvider } from './evm-provider';
import { DevnetChain, DevnetManifest, devnetChain, loadDevnetManifest } from './manifest';
import { RunningDevnet, startDevnet } from './start-devnet';

// Starts its own devnet on free ports (never the developer's 8545/8546) and checks what a user of
// the devnet relies on: stable addresses, priced pools, permits, funded accounts, the bridge.
describe('devnet', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-devnet-'));
  const manifestPath = path.join(workDir, 'manifest.json');
  const firstManifestPath = path.join(workDir, 'first-manifest.json');
  let devnet: RunningDevnet;
  let firstManifest: DevnetManifest;
  let firstRpcUrl: string;
  const providers: JsonRpcProvider[] = [];

  const provider = (chain: DevnetChain) => {
    const p = localProvider(chain.rpcUrl, chain.chainId);
    providers.push(p);
    return p;
  };
  const chainA = () => devnetChain(devnet.manifest, 'devnet-a');
  const chainB = () => devnetChain(devnet.manifest, 'devnet-b');

  beforeAll(async () => {
    // Two consecutive starts: the first is stopped before the second so the comparison of
    // addresses is between genuinely fresh chains.
    const first = await startDevnet({
      manifestPath: firstManifestPath,
      portA: await freePort(),
      portB: await freePort(),
    });
    firstManifest = first.manifest;
    firstRpcUrl = first.manifest.chains[0].rpcUrl;
    await first.stop();
    devnet = await startDevnet({ manifestPath, portA: await freePort(), portB: await freePort() });
    // Two whole devnets, one after the other, on a CI machine that may be busy with the e2e lane.
  }, 300_000);

  afterAll(async () => {
    providers.forEach((p) => p.destroy());
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('deploys every contract at the same address on every start', () => {
    const addressesOf = (manifest: DevnetManifest) =>
      manifest.chains.map(({ id, chainId, tokens, uniswapV2, bridge, permits }) => ({
        id,
        chainId,
        tokens,
        uniswapV2,
        bridge,
        permits,
      }));
    expect(addressesOf(devnet.manifest)).toEqual(addressesOf(firstManifest));
    expect(devnet.manifest.bridge.relayer).toBe(firstManifest.bridge.relayer);
    expect(devnet.manifest.chains.map((c) => c.chainId)).toEqual([31337, 31338]);
  });

  it('stops the chains and removes its manifest on stop', async () => {
    const answered = await fetch(firstRpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    }).then(
      () => true,
      () => false,
    );
    expect(answered).toBe(false);
    expect(fs.existsSync(firstManifestPath)).toBe(false);
  });

  it('writes a manifest that loadDevnetManifest reads back', () => {
    expect(loadDevnetManifest(manifestPath)).toEqual(devnet.manifest);
    expect(devnet.manifest.accounts.map((a) => a.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(devnet.manifest.bridge.feeBps).toBe(5);
  });

  it.each(['devnet-a', 'devnet-b'])(
    'prices 1 WETH at about 3000 USDC and 3000 DAI on %s',
    async (chainId) => {
      const chain = devnetChain(devnet.manifest, chainId);
      const p = provider(chain);
      const { WETH, USDC, DAI } = chain.tokens;

      const pair = new Contract(chain.uniswapV2.pairs['WETH/USDC'], UNISWAP_V2_PAIR_ABI, p);
      const [reserve0, reserve1] = (await pair.getReserves()) as [bigint, bigint];
      const wethIsToken0 = ((await pair.token0()) as string).toLowerCase() === WETH.address.toLowerCase();
      const [wethReserve, usdcReserve] = wethIsToken0 ? [reserve0, reserve1] : [reserve1, reserve0];
      expect(formatUnits(wethReserve, 18)).toBe('1000.0');
      expect(formatUnits(usdcReserve, 6)).toBe('3000000.0');

      const router = new Contract(chain.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, p);
      const oneWeth = parseUnits('1', 18);
      const [, usdcOut] = (await router.getAmountsOut(oneWeth, [WETH.address, USDC.address])) as bigint[];
      const [, daiOut] = (await router.getAmountsOut(oneWeth, [WETH.address, DAI.address])) as bigint[];
      const [, daiForUsdc] = (await router.getAmountsOut(parseUnits('1000', 6), [
        USDC.address,
        DAI.address,
      ])) as bigint[];
      // 0.3% pool fee plus ~0.1% price impact on a 1,000 WETH pool.
      expect(Number(formatUnits(usdcOut, 6))).toBeGreaterThan(2980);
      expect(Number(formatUnits(usdcOut, 6))).toBeLessThan(3000);
      expect(Number(formatUnits(daiOut, 18))).toBeGreaterThan(2980);
      expect(Number(formatUnits(daiOut, 18))).toBeLessThan(3000);
      expect(Number(formatUnits(daiForUsdc, 18))).toBeGreaterThan(996);
      expect(Number(formatUnits(daiForUsdc, 18))).toBeLessThan(1000);
    },
  );

  it('swaps through the router: account 1 sells 3000 USDC for WETH', async () => {
    const chain = chainA();
    const user = devnetWallet(devnet.manifest.mnemonic, 1, provider(chain));
    const { WETH, USDC } = chain.tokens;
    const usdc = new Contract(USDC.address, ERC20_PERMIT_ABI, user);
    const weth = new Contract(WETH.address, WETH9_ABI, user);
    const router = new Contract(chain.uniswapV2.router, UNISWAP_V2_ROUTER_ABI, user);
    const amountIn = parseUnits('3000', 6);
    const [, quoted] = (await router.getAmountsOut(amountIn, [USDC.address, WETH.address])) as bigint[];
    const wethBefore = (await weth.balanceOf(user.address)) as bigint;

    await (await usdc.approve(chain.uniswapV2.router, amountIn)).wait();
    await (
      await router.swapExactTokensForTokens(
        amountIn,
        quoted,
        [USDC.address, WETH.address],
        user.address,
        MaxUint256,
      )
    ).wait();

    expect((await weth.balanceOf(user.address)) - wethBefore).toBe(quoted);
    expect(Number(formatUnits(quoted, 18))).toBeGreaterThan(0.99);
  });

  it('accepts an EIP-2612 permit signed with ethers for USDC', async () => {
    const chain = chainA();
    const p = provider(chain);
    const owner = devnetWallet(devnet.manifest.mnemonic, 2, p);
    const spender = devnetWallet(devnet.manifest.mnemonic, 3, p);
    const usdc = new Contract(chain.tokens.USDC.address, ERC20_PERMIT_ABI, spender);
    const value = parseUnits('250', 6);
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const nonce = (await usdc.nonces(owner.address)) as bigint;

    const signature = Signature.from(
      await owner.signTypedData(
        {
          name: chain.tokens.USDC.name,
          version: chain.tokens.USDC.permitVersion,
          chainId: chain.chainId,
          verifyingContract: chain.tokens.USDC.address,
        },
        EIP2612_PERMIT_TYPES,
        { owner: owner.address, spender: spender.address, value, nonce, deadline },
      ),
    );
    // The spender submits the permit: the owner pays no gas and sends no approve.
    await (
      await usdc.permit(
        owner.address,
        spender.address,
        value,
        deadline,
        signature.v,
        signature.r,
        signature.s,
      )
    ).wait();
    expect(await usdc.allowance(owner.address, spender.address)).toBe(value);

    const before = (await usdc.balanceOf(spender.address)) as bigint;
    await (await usdc.transferFrom(owner.address, spender.address, value)).wait();
    expect((await usdc.balanceOf(spender.address)) - before).toBe(value);
  });

  it.each(['devnet-a', 'devnet-b'])(
    'funds account 9 with ETH, 100 WETH, 1,000,000 USDC and DAI on %s',
    async (chainId) => {
      const chain = devnetChain(devnet.manifest, chainId);
      const p = provider(chain);
      const account = devnet.manifest.accounts.find((a) => a.index === 9)!;
      const balance = (symbol: string) =>
        new Contract(chain.tokens[symbol].address, ERC20_PERMIT_ABI, p).balanceOf(
          account.address,
        ) as Promise<bigint>;
      expect(formatUnits(await balance('WETH'), 18)).toBe('100.0');
      expect(formatUnits(await balance('USDC'), 6)).toBe('1000000.0');
      expect(formatUnits(await balance('DAI'), 18)).toBe('1000000.0');
      expect(await p.getBalance(account.address)).toBeGreaterThan(parseUnits('9000', 18));
    },
  );

  it.each([
    ['devnet-a', 'devnet-b'],
    ['devnet-b', 'devnet-a'],
  ])('bridges USDC from %s to %s within the advertised duration, minus the fee', async (fromId, toId) => {
    const from = devnetChain(devnet.manifest, fromId);
    const to = devnetChain(devnet.manifest, toId);
    const sender = devnetWallet(devnet.manifest.mnemonic, 4, provider(from));
    const recipient = devnetWallet(devnet.manifest.mnemonic, 5).address;
    const usdcFrom = new Contract(from.tokens.USDC.address, ERC20_PERMIT_ABI, sender);
    const usdcTo = new Contract(to.tokens.USDC.address, ERC20_PERMIT_ABI, provider(to));
    const bridge = new Contract(from.bridge.address, DEVNET_BRIDGE_ABI, sender);
    const amount = parseUnits('1000', 6);
    const expectedOut = amount - (amount * BigInt(devnet.manifest.bridge.feeBps)) / 10_000n; // 999.5 USDC
    const recipientBefore = (await usdcTo.balanceOf(recipient)) as bigint;

    await (await usdcFrom.approve(from.bridge.address, amount)).wait();
    await (await bridge.deposit(amount, to.chainId, recipient)).wait();
    const depositedAt = Date.now();

    const budgetMs = devnet.manifest.bridge.estimatedDurationSeconds * 1000;
    await waitFor(
      async () => ((await usdcTo.balanceOf(recipient)) as bigint) - recipientBefore === expectedOut,
      {
        timeoutMs: budgetMs,
        intervalMs: 50,
        description: `${formatUnits(expectedOut, 6)} USDC to arrive on ${toId}`,
      },
    );
    expect(Date.now() - depositedAt).toBeLessThanOrEqual(budgetMs);
    expect(formatUnits(expectedOut, 6)).toBe('999.5');
  });

  it('lets only the relayer release, and pays each deposit once', async () => {
    const chain = chainB();
    const p = provider(chain);
    const intruder = devnetWallet(devnet.manifest.mnemonic, 1, p);
    const asIntruder = new Contract(chain.bridge.address, DEVNET_BRIDGE_ABI, intruder);
    const refusal = (await asIntruder.release(31337n, 0n, intruder.address, 1n).then(
      () => undefined,
      (error: unknown) => error,
    )) as { data?: string } | undefined;
    expect(refusal?.data).toBeDefined();
    expect(asIntruder.interface.parseError(refusal!.data!)?.name).toBe('NotRelayer');

    // Nonce 0 from devnet-a was released by the bridging test above: a replay pays nothing.
    const relayer = devnetWallet(devnet.manifest.mnemonic, 10, p);
    expect(relayer.address).toBe(devnet.manifest.bridge.relayer);
    const asRelayer = new Contract(chain.bridge.address, DEVNET_BRIDGE_ABI, relayer);
    expect(await asRelayer.released(31337n, 0n)).toBe(true);
    expect(await asRelayer.release.staticCall(31337n, 0n, relayer.address, 1_000_000n)).toBe(false);
  });

  it('refuses a port that is taken, and leaves no chain running', async () => {
    const blocker = net.createServer();
    const takenPort = await freePort();
    await new Promise<void>((resolve) => blocker.listen(takenPort, '127.0.0.1', resolve));
    const otherPort = await freePort();
    try {
      await expect(
        startDevnet({ manifestPath: path.join(workDir, 'refused.json'), portA: otherPort, portB: takenPort }),
      ).rejects.toMatchObject({
        code: 'ANVIL_START_FAILED',
        message: expect.stringContaining(`${takenPort} is already in use`),
      });
    } finally {
      blocker.close();
    }
    // The chain that did start on the free port was stopped again.
    const reusable = net.createServer();
    await new Promise<void>((resolve, reject) => {
      reusable.once('error', reject);
      reusable.listen(otherPort, '127.0.0.1', resolve);
    });
    reusable.close();
    expect(fs.existsSync(path.join(workDir, 'refused.json'))).toBe(false);
  });
});
