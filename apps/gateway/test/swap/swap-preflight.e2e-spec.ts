import { Keypair } from '@solana/web3.js';
import { parseUnits, Wallet } from 'ethers';
import { DevnetEvm } from '../support/devnet-evm';
import { connectE2eApi, E2eApi } from '../support/e2e-api';

// The preflight before the wallet signs, through HTTP on the running stack: POST /quote with
// userAddress and POST /swap/build answer each route's issues against that wallet, read from the devnet.
const devnet = new DevnetEvm({ cacheTimeout: -1 });

interface Issue {
  code: string;
  severity: string;
  chain: string;
  leg: number;
  token?: string;
  needed?: string;
  held?: string;
  spender?: string;
  coveredByPermit?: boolean;
}

describe('preflight before signing (POST /quote userAddress, POST /swap/build issues)', () => {
  let swapApi: E2eApi;

  beforeAll(async () => {
    swapApi = await connectE2eApi('preflight-e2e');
  });

  afterAll(() => devnet.destroy());

  const quote = async (body: Record<string, unknown>) =>
    swapApi.documented('POST', '/quote', await swapApi.client.post('/quote', body));

  it('a wallet holding 10 of the 25 USDC a route spends: INSUFFICIENT_BALANCE on every route, with the chain’s figures', async () => {
    const wallet = Wallet.createRandom();
    const funder = devnet.account(7).connect(devnet.provider('devnet-a'));
    const usdc = devnet.token('devnet-a', 'USDC', funder);
    await (await usdc.getFunction('transfer')(wallet.address, parseUnits('10', 6))).wait();
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(10_000_000n);

    const res = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
      userAddress: wallet.address,
    });
    expect(res.status).toBe(200);
    const routes = res.body.data.routes as Array<{ routeId: string; issues: Issue[] }>;
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({
          code: 'INSUFFICIENT_BALANCE',
          severity: 'blocking',
          chain: 'devnet-a',
          leg: 0,
          token: 'USDC',
          needed: '25',
          held: '10',
        }),
        expect.objectContaining({
          code: 'ALLOWANCE_MISSING',
          severity: 'warning',
          spender: devnet.chain('devnet-a').permits.permit2,
          held: '0',
          coveredByPermit: true,
        }),
      ]);
    }

    // The build of the route by that wallet answers the same findings beside its first payload.
    const build = swapApi.documented(
      'POST',
      '/swap/build',
      await swapApi.client.post('/swap/build', {
        quoteId: res.body.data.quoteId,
        routeId: routes[0].routeId,
        userAddress: wallet.address,
        waitForTxRequestMs: 20_000,
      }),
    );
    expect([200, 202]).toContain(build.status);
    expect(build.body.data.issues).toEqual(routes[0].issues);

    // A user-paid build of the same route: the wallet has no ETH for its own approve and swap.
    const userPaid = swapApi.documented(
      'POST',
      '/swap/build',
      await swapApi.client.post('/swap/build', {
        quoteId: res.body.data.quoteId,
        routeId: routes[0].routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      }),
    );
    expect(userPaid.body.data.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'INSUFFICIENT_BALANCE',
          token: 'ETH',
          tokenAddress: null,
          held: '0',
        }),
      ]),
    );
  });

  it('without userAddress nothing is checked; a userAddress of another family is 400 INVALID_ADDRESS', async () => {
    const plain = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
    });
    expect(plain.status).toBe(200);
    for (const route of plain.body.data.routes) expect(route).not.toHaveProperty('issues');

    const wrong = await quote({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amount: '25',
      userAddress: Keypair.generate().publicKey.toBase58(),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_ADDRESS', details: { field: 'userAddress' } });
  });
});
