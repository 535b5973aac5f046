import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { Contract, parseUnits, Transaction, Wallet } from 'ethers';
import { REAL_NETWORK_CATALOG, REAL_NETWORKS } from '@swapgw/chains';
import { DEVNET_MNEMONIC } from '@swapgw/devnet';
import { cosmosSigner, createGatewayClient, runSwap } from '@swapgw/sdk';
import { waitFor } from '@swapgw/testing';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { startReplicaStack, ReplicaStack } from '../support/replica-stack';
import { nextSigning, submitSigned } from '../support/swap-steps';

// The gateway on real networks: the mainnet replica (Ethereum 1, Base 8453, Arbitrum 42161, Solana
// with the canonical contracts at their mainnet addresses; cosmoshub-4, osmosis-1 and noble-1 under
// their chain ids and channels) and the apps configured exactly as an
// operator configures production (the shipped catalog, RPC URLs, relayer keys). Balances are read
// on chain.

const QUOTER_V2 = [
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
];

interface Route {
  routeId: string;
  provider: string;
  providers: string[];
  expectedAmountOut: string;
  minAmountOut: string;
  tokenOutDecimals: number;
}

describe('real networks: the mainnet replica with the apps configured as in production', () => {
  let replica: ReplicaStack;

  beforeAll(async () => {
    replica = await startReplicaStack('replica');
  }, 600_000);

  afterAll(async () => {
    await replica?.stop();
  }, 180_000);

  const catalog = (chain: string) => REAL_NETWORK_CATALOG.find((e) => e.chain === chain)!;

  /** Quote (which must answer), then build for `wallet` paying its own gas; the route and swap id. */
  async function quoteAndBuild(
    wallet: Wallet,
    body: Record<string, unknown>,
    pick: (routes: Route[]) => Route,
  ) {
    const quote = await replica.client.post('/quote', { slippageBps: 50, ...body }, { timeoutMs: 60_000 });
    expect(quote.status).toBe(200);
    const route = pick(quote.body.data.routes as Route[]);
    expect(route).toBeDefined();
    const build = await replica.client.post('/swap/build', {
      quoteId: quote.body.data.quoteId,
      routeId: route.routeId,
      userAddress: wallet.address,
      gasPayment: 'user',
      waitForTxRequestMs: 20_000,
    });
    expect([200, 202]).toContain(build.status);
    return { route, swapId: build.body.data.swapId as string };
  }

  /** Signs every step's transaction as the wallet would, until the swap completes; where each went. */
  async function signUntilCompleted(swapId: string, wallet: Wallet, chainId: number): Promise<string[]> {
    return (await signedUntilCompleted(swapId, wallet, chainId)).map((tx) => tx.to);
  }

  /** As signUntilCompleted: each transaction's target and hash. */
  async function signedUntilCompleted(
    swapId: string,
    wallet: Wallet,
    chainId: number,
  ): Promise<{ to: string; hash: string }[]> {
    const targets: { to: string; hash: string }[] = [];
    let step = 0;
    for (;;) {
      const res = await nextSigning({ client: replica.client }, swapId, step);
      if (res.status === 409) {
        expect(res.body.error).toMatchObject({
          code: 'EXECUTION_TERMINAL',
          details: { status: 'completed' },
        });
        return targets;
      }
      const { signing } = res.body.data;
      expect(signing.payload.type).toBe('evm-transaction');
      expect(Number(signing.payload.transaction.chainId)).toBe(chainId);
      const rawTx = await wallet.signTransaction(signing.payload.transaction);
      const signed = Transaction.from(rawTx);
      targets.push({ to: String(signed.to), hash: String(signed.hash) });
      expect((await submitSigned({ client: replica.client }, swapId, rawTx)).status).toBe(200);
      step = signing.step.current;
    }
  }

  it('lists the real networks, each tradable, and no devnet chain; their tokens come from the shipped catalog', async () => {
    const chains = await replica.client.get('/chains');
    expect(chains.status).toBe(200);
    const ids = chains.body.data.chains.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['ethereum', 'base', 'arbitrum', 'solana']));
    expect(ids.filter((id: string) => id.includes('devnet'))).toEqual([]);

    const tokens = await replica.client.get('/tokens', { query: { chainRef: 'base', supportedOnly: '1' } });
    expect(tokens.status).toBe(200);
    const usdc = tokens.body.data.tokens.find((t: { symbol: string }) => t.symbol === 'USDC');
    expect(usdc).toMatchObject({
      chain: 'base',
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      decimals: 6,
      logoUrl: expect.stringMatching(/^https:/),
    });
  });

  it('quotes Base USDC → WETH through Uniswap V3 first, at what QuoterV2 answers on chain, V2 beside it', async () => {
    const res = await replica.client.post(
      '/quote',
      {
        fromChain: 'base',
        toChain: 'base',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '3000',
        slippageBps: 50,
      },
      { timeoutMs: 60_000 },
    );
    expect(res.status).toBe(200);
    const routes = res.body.data.routes as Route[];
    expect(routes[0]).toMatchObject({ provider: 'uniswap-v3', providers: ['uniswap-v3'] });
    expect(routes.map((r) => r.provider)).toContain('uniswap-v2');
    // The 0.05% pool is the deepest: the best route equals QuoterV2's answer for it, read directly.
    const quoter = new Contract(catalog('base').uniswapV3!.quoterV2, QUOTER_V2, replica.provider('base'));
    const [amountOut] = (await quoter
      .getFunction('quoteExactInputSingle')
      .staticCall([
        replica.tokenAddress('base', 'USDC'),
        replica.tokenAddress('base', 'WETH'),
        3_000_000_000n,
        500,
        0n,
      ])) as [bigint];
    expect(parseUnits(routes[0].expectedAmountOut, routes[0].tokenOutDecimals)).toBe(amountOut);
    expect(amountOut).toBeGreaterThan(parseUnits('0.99', 18));
  });

  it('a user-paid swap on ethereum through Uniswap V3: approve then SwapRouter02, the wallet gets at least the minimum', async () => {
    const wallet = replica.account(1, 'ethereum');
    const usdcBefore = await replica.balanceOf('ethereum', 'USDC', wallet.address);
    const wethBefore = await replica.balanceOf('ethereum', 'WETH', wallet.address);
    const { route, swapId } = await quoteAndBuild(
      wallet,
      { fromChain: 'ethereum', toChain: 'ethereum', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1500' },
      (routes) => routes[0],
    );
    expect(route.provider).toBe('uniswap-v3');
    // The approve goes to USDC, the swap to the canonical SwapRouter02.
    expect(await signUntilCompleted(swapId, wallet, 1)).toEqual([
      replica.tokenAddress('ethereum', 'USDC'),
      catalog('ethereum').uniswapV3!.swapRouter02,
    ]);
    expect(usdcBefore - (await replica.balanceOf('ethereum', 'USDC', wallet.address))).toBe(1_500_000_000n);
    const gained = (await replica.balanceOf('ethereum', 'WETH', wallet.address)) - wethBefore;
    expect(gained).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 18));
  });

  it('a user-paid swap on ethereum through Uniswap V2 when that is the route asked for', async () => {
    const wallet = replica.account(2, 'ethereum');
    const usdcBefore = await replica.balanceOf('ethereum', 'USDC', wallet.address);
    const { route, swapId } = await quoteAndBuild(
      wallet,
      {
        fromChain: 'ethereum',
        toChain: 'ethereum',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '0.5',
        slippageBps: 100,
      },
      (routes) => routes.find((r) => r.provider === 'uniswap-v2')!,
    );
    const targets = await signUntilCompleted(swapId, wallet, 1);
    expect(targets.at(-1)).toBe(catalog('ethereum').uniswapV2!.router);
    const gained = (await replica.balanceOf('ethereum', 'USDC', wallet.address)) - usdcBefore;
    expect(gained).toBeGreaterThanOrEqual(parseUnits(route.minAmountOut, 6));
  });

  it('a user-paid transfer of USDC from base to arbitrum through Across: approve and deposit into the SpokePool, filled on arbitrum', async () => {
    const wallet = replica.account(4, 'base');
    const onArbitrumBefore = await replica.balanceOf('arbitrum', 'USDC', wallet.address);
    const onBaseBefore = await replica.balanceOf('base', 'USDC', wallet.address);
    const { route, swapId } = await quoteAndBuild(
      wallet,
      { fromChain: 'base', toChain: 'arbitrum', tokenIn: 'USDC', tokenOut: 'USDC', amount: '250' },
      (routes) => routes.find((r) => r.provider === 'across')!,
    );
    // Across's relayer pays exactly outputAmount or nothing: the minimum is the quote.
    expect(route).toMatchObject({ providers: ['across'], minAmountOut: route.expectedAmountOut });
    // The approve of USDC, then the deposit into Base's canonical SpokePool.
    const signed = await signedUntilCompleted(swapId, wallet, 8453);
    expect(signed.map((tx) => tx.to)).toEqual([
      replica.tokenAddress('base', 'USDC'),
      catalog('base').across!.spokePool,
    ]);
    expect(onBaseBefore - (await replica.balanceOf('base', 'USDC', wallet.address))).toBe(250_000_000n);
    await waitFor(
      async () =>
        (await replica.balanceOf('arbitrum', 'USDC', wallet.address)) - onArbitrumBefore ===
        parseUnits(route.expectedAmountOut, 6)
          ? true
          : null,
      { timeoutMs: 60_000, intervalMs: 500, description: 'the Across fill on arbitrum' },
    );
    // The deposit's status names the transfer as Across does, and its fill on arbitrum.
    const status = await replica.client.get(`/status/transaction/${signed[1].hash}?chainRef=base`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      chain: 'base',
      status: 'confirmed',
      bridge: {
        protocol: 'across',
        depositId: expect.stringMatching(/^[0-9]+$/),
        originChain: 'base',
        destinationChain: 'arbitrum',
        recipient: wallet.address,
        outputToken: replica.tokenAddress('arbitrum', 'USDC'),
        outputAmount: parseUnits(route.expectedAmountOut, 6).toString(),
        fill: { status: 'filled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      },
    });
    const fill = await replica
      .provider('arbitrum')
      .getTransactionReceipt(status.body.data.bridge.fill.txHash);
    expect(fill?.to).toBe(catalog('arbitrum').across!.spokePool);
  });

  it('status of a replica transaction is read from the chain it names', async () => {
    const wallet = replica.account(3, 'arbitrum');
    const tx = await wallet.sendTransaction({ to: wallet.address, value: 1n });
    await tx.wait();
    const status = await waitFor(
      async () => {
        const res = await replica.client.get(`/status/transaction/${tx.hash}?chainRef=arbitrum`);
        return res.status === 200 && res.body.data.status === 'confirmed' ? res : null;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'arbitrum transaction confirmed' },
    );
    expect(status.body.data).toMatchObject({ chain: 'arbitrum', txHash: tx.hash });
  });

  describe('the Cosmos mainnets (cosmoshub-4, osmosis-1, noble-1)', () => {
    const readers: StargateClient[] = [];
    afterAll(() => readers.forEach((reader) => reader.disconnect()));
    const balance = async (chainId: string, address: string, denom: string) => {
      const reader = await StargateClient.connect(replica.cosmosChain(chainId).rpc);
      readers.push(reader);
      return BigInt((await reader.getBalance(address, denom)).amount);
    };
    const osmosisUsdc = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';

    it('lists them tradable with the mainnet denoms: USDC on Osmosis is Noble USDC over channel-750', async () => {
      const chains = await replica.client.get('/chains');
      expect(chains.status).toBe(200);
      const cosmos = chains.body.data.chains.filter((c: { family: string }) => c.family === 'cosmos');
      expect(cosmos.map((c: { id: string; caip2: string }) => [c.id, c.caip2])).toEqual([
        ['cosmoshub-4', 'cosmos:cosmoshub-4'],
        ['osmosis-1', 'cosmos:osmosis-1'],
        ['noble-1', 'cosmos:noble-1'],
      ]);
      const tokens = await replica.client.get('/tokens', { query: { chainRef: 'osmosis-1' } });
      expect(tokens.status).toBe(200);
      expect(tokens.body.data.tokens).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ symbol: 'OSMO', denom: 'uosmo' }),
          expect.objectContaining({ symbol: 'USDC', denom: osmosisUsdc }),
        ]),
      );
    });

    it('ATOM on cosmoshub-4 → OSMO on osmosis-1 for a Keplr-style wallet holding only ATOM: one SignDoc for cosmoshub-4, an IBC transfer over channel-141 whose memo names the mainnet crosschain-swaps contract, the fee granted; the wallet loses exactly 1 ATOM', async () => {
      const hub = replica.cosmosChain('cosmoshub-4');
      const amount = 1_000_000n;
      const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' });
      const [user] = await wallet.getAccounts();
      const funder = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
        prefix: 'cosmos',
        hdPaths: [makeCosmoshubPath(8)],
      });
      const funding = await SigningStargateClient.connectWithSigner(hub.rpc, funder, {
        gasPrice: GasPrice.fromString(hub.minGasPrice),
        broadcastPollIntervalMs: 100,
      });
      const [funderAccount] = await funder.getAccounts();
      const sent = await funding.sendTokens(
        funderAccount.address,
        user.address,
        [{ denom: 'uatom', amount: amount.toString() }],
        'auto',
      );
      funding.disconnect();
      expect(sent.code).toBe(0);
      const [onOsmosis] = await (
        await DirectSecp256k1HdWallet.fromMnemonic(wallet.mnemonic, { prefix: 'osmo' })
      ).getAccounts();

      const signed: { chainId: string; msgs: { typeUrl: string; value: Uint8Array }[] }[] = [];
      const signer = cosmosSigner(wallet);
      let minAmountOut = '';
      const result = await runSwap({
        client: createGatewayClient({ baseUrl: replica.gatewayUrl, apiKey: replica.apiKey }),
        quoteRequest: {
          fromChain: 'cosmoshub-4',
          toChain: 'osmosis-1',
          tokenIn: 'ATOM',
          tokenOut: 'OSMO',
          amount: '1',
        },
        route: (routes) => routes.find((route) => route.providers.includes('osmosis')),
        userAddress: user.address,
        build: {
          gasPayment: 'user',
          recipient: onOsmosis.address,
          userPublicKey: Buffer.from(user.pubkey).toString('hex'),
        },
        signers: [
          {
            ...signer,
            async sign(payload, context) {
              if (payload.type === 'cosmos-sign-direct') {
                const body = TxBody.decode(Buffer.from(payload.signDoc.bodyBytes, 'base64'));
                signed.push({ chainId: payload.signDoc.chainId, msgs: body.messages });
              }
              return signer.sign(payload, context);
            },
          },
        ],
        timeoutMs: 120_000,
        onEvent: (event) => {
          if (event.type === 'quoted') minAmountOut = event.route.minAmountOut;
        },
      });
      expect(result.swap).toMatchObject({ status: 'completed', failure: null });

      const xcs = REAL_NETWORKS.find((n) => n.id === 'osmosis-1')?.cosmos?.crosschainSwapsContract;
      expect(xcs).toMatch(/^osmo1/);
      expect(signed).toHaveLength(1);
      expect(signed[0].chainId).toBe('cosmoshub-4');
      expect(signed[0].msgs.map((m) => m.typeUrl)).toEqual(['/ibc.applications.transfer.v1.MsgTransfer']);
      const transfer = MsgTransfer.decode(signed[0].msgs[0].value);
      expect(transfer).toMatchObject({ sourcePort: 'transfer', sourceChannel: 'channel-141', receiver: xcs });
      expect(JSON.parse(transfer.memo)).toMatchObject({ wasm: { contract: xcs } });

      expect(await balance('cosmoshub-4', user.address, 'uatom')).toBe(0n);
      const minOut = parseUnits(minAmountOut, 6);
      const received = await waitFor(
        async () => {
          const got = await balance('osmosis-1', onOsmosis.address, 'uosmo');
          return got > 0n ? got : null;
        },
        { timeoutMs: 60_000, description: 'the OSMO swapped on arrival on osmosis-1' },
      );
      expect(received).toBeGreaterThanOrEqual(minOut);
    });
  });
});
