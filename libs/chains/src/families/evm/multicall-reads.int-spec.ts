import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Contract, isError, JsonRpcProvider, Network } from 'ethers';
import { DEVNET_MNEMONIC, devnetWallet, loadDevnetManifest, startDevnet } from '@swapgw/devnet';
import { chainRpcMetrics, metricsRegistry } from '@swapgw/runtime';
import { freePort, testEnv } from '@swapgw/testing';
import { CountedJsonRpcProvider } from '../bounded-rpc';
import { MULTICALL3_ADDRESS } from './multicall-reads';

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function nonces(address) view returns (uint256)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
];
const ROUTER = ['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)'];

/**
 * The apps' provider on a real devnet chain (anvil, Multicall3 placed by the devnet as every real
 * network has it): the balance, allowance and permit-nonce reads a burst of builds makes in one turn
 * leave as one eth_call, and each answer equals what a direct read of the chain answers.
 */
describe('Multicall3 reads on the devnet', () => {
  let stopDevnet: () => Promise<void> = async () => undefined;
  let rpcUrl: string;
  let chainId: number;
  let usdc: string;
  let permit2: string;
  let router: string;

  beforeAll(async () => {
    let manifestPath = testEnv().devnetManifest;
    if (!fs.existsSync(manifestPath)) {
      manifestPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'multicall-it-')), 'manifest.json');
      const devnet = await startDevnet({
        manifestPath,
        portA: await freePort(),
        portB: await freePort(),
        logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
      });
      stopDevnet = () => devnet.stop();
    }
    const chain = loadDevnetManifest(manifestPath).chains.find((c) => c.id === 'devnet-a')!;
    rpcUrl = chain.rpcUrl;
    chainId = chain.chainId;
    usdc = chain.tokens.USDC.address;
    permit2 = chain.permits.permit2;
    router = chain.uniswapV2.router;
  }, 240_000);

  afterAll(() => stopDevnet());

  /** The apps' provider (counted under `label`, reads batched) and a plain one, on devnet-a. */
  function providers(label: string) {
    const network = Network.from(chainId);
    return {
      counted: new CountedJsonRpcProvider(label, rpcUrl, network, {
        staticNetwork: network,
        batchMaxCount: 1,
        cacheTimeout: -1,
      }),
      direct: new JsonRpcProvider(rpcUrl, network, { staticNetwork: network, batchMaxCount: 1 }),
    };
  }

  /** JSON-RPC requests sent to `chain` so far, by method. */
  async function sent(chain: string, method: string): Promise<number> {
    const counter = metricsRegistry().getSingleMetric('swapgw_rpc_requests_total');
    const values = (await counter!.get()).values;
    return values
      .filter((value) => value.labels.chain === chain && value.labels.method === method)
      .reduce((sum, value) => sum + value.value, 0);
  }

  it('has Multicall3 at its address', async () => {
    const direct = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: Network.from(chainId) });
    expect((await direct.getCode(MULTICALL3_ADDRESS)).length).toBeGreaterThan(2);
    direct.destroy();
  });

  it('answers a turn of reads with one eth_call, each answer equal to the chain’s', async () => {
    chainRpcMetrics.requestSent('multicall-it', 'warm-up'); // the counter exists before it is read
    const { counted, direct } = providers('multicall-it');
    const wallets = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => devnetWallet(DEVNET_MNEMONIC, i).address);
    const batched = new Contract(usdc, ERC20, counted);
    const plain = new Contract(usdc, ERC20, direct);
    const callsBefore = await sent('multicall-it', 'eth_call');

    const reads = (token: Contract) =>
      Promise.all(
        wallets.flatMap((wallet) => [
          token.balanceOf(wallet) as Promise<bigint>,
          token.allowance(wallet, permit2) as Promise<bigint>,
          token.nonces(wallet) as Promise<bigint>,
        ]),
      );
    const [viaMulticall, viaDirect] = [await reads(batched), await reads(plain)];
    expect(viaMulticall).toEqual(viaDirect);
    expect(viaMulticall.filter((balance, i) => i % 3 === 0 && balance > 0n)).toHaveLength(wallets.length);
    // 27 reads, one request (the first batch also asked once whether Multicall3 is there).
    expect((await sent('multicall-it', 'eth_call')) - callsBefore).toBe(1);
    expect(await sent('multicall-it', 'eth_getCode')).toBe(1);

    counted.destroy();
    direct.destroy();
  });

  it('raises a reverted read as the same CALL_EXCEPTION a direct read raises, the others unharmed', async () => {
    const { counted, direct } = providers('multicall-it-2');
    const wallet = devnetWallet(DEVNET_MNEMONIC, 1).address;
    // A path of one token: Router02 reverts with "UniswapV2Library: INVALID_PATH".
    const invalidQuote = (runner: JsonRpcProvider) =>
      new Contract(router, ROUTER, runner).getAmountsOut(1n, [usdc]) as Promise<bigint[]>;
    const balanceOf = (runner: JsonRpcProvider) =>
      new Contract(usdc, ERC20, runner).balanceOf(wallet) as Promise<bigint>;
    // transferFrom without an allowance reverts naming its caller: never batched, so it names the
    // zero address as a direct read does, not Multicall3.
    const transferFrom = (runner: JsonRpcProvider) =>
      new Contract(usdc, ERC20, runner).transferFrom.staticCall(wallet, wallet, 1n) as Promise<boolean>;
    const callsBefore = await sent('multicall-it-2', 'eth_call');

    const [reverted, balance, senderNamed] = await Promise.allSettled([
      invalidQuote(counted),
      balanceOf(counted),
      transferFrom(counted),
    ]);
    const expectedRevert = await invalidQuote(direct).catch((error: unknown) => error);
    const expectedSenderNamed = await transferFrom(direct).catch((error: unknown) => error);

    for (const [result, expected] of [
      [reverted, expectedRevert],
      [senderNamed, expectedSenderNamed],
    ] as const) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason;
      expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
      expect(isError(expected, 'CALL_EXCEPTION')).toBe(true);
      expect({ data: error.data, reason: error.reason }).toEqual({
        data: (expected as { data: string }).data,
        reason: (expected as { reason: string }).reason,
      });
    }
    expect((expectedRevert as { reason: string }).reason).toBe('UniswapV2Library: INVALID_PATH');
    expect(balance).toEqual({ status: 'fulfilled', value: await balanceOf(direct) });
    // The two views in one aggregate3, transferFrom on its own.
    expect((await sent('multicall-it-2', 'eth_call')) - callsBefore).toBe(2);

    counted.destroy();
    direct.destroy();
  });
});
