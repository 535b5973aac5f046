import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet, Registry } from '@cosmjs/proto-signing';
import { defaultRegistryTypes, GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { ibcVoucherDenom, ics20EscrowAddress } from '@swapgw/chains/families';
import type { QuoteResult, RouteLeg } from '@swapgw/contracts';
import {
  CosmosDevnetChainManifest,
  DevnetManifest,
  loadDevnetManifest,
  MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  MsgSwapExactAmountInCodec,
} from '@swapgw/devnet';
import { waitFor } from '@swapgw/testing';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { DataSource } from 'typeorm';
import {
  buildQuoteTestApp,
  createQuoteTestDatabase,
  planOf,
  QuoteTestApp,
  useDevnet,
} from '../../../test/support/quote-service-test-support';

/**
 * The osmosis provider against the devnet's Cosmos chains: POST /quote priced from Osmosis's pools
 * as its REST API answers them, and the quoted amount checked against what the chain computes and
 * pays: its own estimate (poolmanager EstimateSwapExactAmountIn) and a swap signed by a cosmjs
 * wallet with the route's minimum, on Osmosis (MsgSwapExactAmountIn) and on arrival of an IBC
 * transfer from the Hub (the ibc-hooks `wasm` memo of the crosschain-swaps contract).
 */
describe('osmosis provider on the devnet (quotes equal to what Osmosis pays)', () => {
  let devnet: { manifestPath: string; stop(): Promise<void> };
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let dataSource: DataSource;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  const clients: StargateClient[] = [];

  beforeAll(async () => {
    devnet = await useDevnet();
    manifest = loadDevnetManifest(devnet.manifestPath);
    database = await createQuoteTestDatabase();
    dataSource = database.dataSource;
    service = await buildQuoteTestApp(dataSource, { DEVNET_MANIFEST: devnet.manifestPath });
    await service.sync.seed();
  });

  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await service?.close();
    await database?.drop();
    await devnet?.stop();
  });

  const chain = (id: string): CosmosDevnetChainManifest => {
    const found = manifest.cosmos.find((c) => c.id === id);
    if (!found) throw new Error(`no Cosmos chain ${id}`);
    return found;
  };
  const hub = () => chain('cosmoshub-devnet');
  const osmosis = () => chain('osmosis-devnet');
  const osmosisAtom = () => ibcVoucherDenom(`transfer/${osmosis().ibcChannels['cosmoshub-devnet']}/uatom`);
  const osmosisUsdc = () => ibcVoucherDenom(`transfer/${osmosis().ibcChannels['noble-devnet']}/uusdc`);

  /** A test wallet as Keplr holds it (DIRECT), Osmosis's swap message registered as a front end does. */
  async function wallet(on: CosmosDevnetChainManifest, index: number) {
    const signer = await DirectSecp256k1HdWallet.fromMnemonic(manifest.mnemonic, {
      prefix: on.bech32Prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const [{ address }] = await signer.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(on.rpc, signer, {
      gasPrice: GasPrice.fromString(on.minGasPrice),
      broadcastPollIntervalMs: 100,
      registry: new Registry([
        ...defaultRegistryTypes,
        [MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, MsgSwapExactAmountInCodec],
      ]),
    });
    clients.push(client);
    return { address, client };
  }

  async function balance(on: CosmosDevnetChainManifest, address: string, denom: string): Promise<bigint> {
    const reader = await StargateClient.connect(on.rpc);
    clients.push(reader);
    return BigInt((await reader.getBalance(address, denom)).amount);
  }

  async function restJson<T>(url: string): Promise<T> {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  /** Osmosis's own estimate of a route (EstimateSwapExactAmountIn, its REST form with primitive types). */
  async function chainEstimate(tokenIn: string, route: [string, string][]): Promise<bigint> {
    const params = new URLSearchParams({ token_in: tokenIn });
    for (const [poolId, denom] of route) {
      params.append('routes_pool_id', poolId);
      params.append('routes_token_out_denom', denom);
    }
    const { token_out_amount } = await restJson<{ token_out_amount: string }>(
      `${osmosis().rest}/osmosis/poolmanager/v1beta1/${route[0][0]}/estimate/swap_exact_amount_in_with_primitive_types?${params}`,
    );
    return BigInt(token_out_amount);
  }

  const osmosisRoute = (quote: QuoteResult) => {
    const route = quote.routes.find((r) => r.providers.includes('osmosis'));
    expect(route).toBeDefined();
    return planOf(quote, route!.routeId);
  };
  it('quotes OSMO → USDC on Osmosis at exactly what MsgSwapExactAmountIn pays, signed by a cosmjs wallet', async () => {
    const quote = await service.quotes.create({
      fromChain: 'osmosis-devnet',
      toChain: 'osmosis-devnet',
      tokenIn: 'OSMO',
      tokenOut: 'USDC',
      amount: '25',
    });
    const plan = osmosisRoute(quote);
    expect(plan.legs).toHaveLength(1);
    const [leg] = plan.legs as RouteLeg[];
    expect(leg).toMatchObject({
      kind: 'swap',
      chain: 'osmosis-devnet',
      provider: 'osmosis',
      amountIn: '25000000',
      path: ['uosmo', osmosisUsdc()],
      tokenIn: { address: 'uosmo', decimals: 6 },
      tokenOut: { address: osmosisUsdc(), decimals: 6 },
    });
    const route = quote.routes.find((r) => r.providers.includes('osmosis'))!;
    expect(route.signatures).toEqual([
      { chain: 'osmosis-devnet', kind: 'swap', payloadType: 'cosmos-sign-direct', mayBeSkipped: false },
    ]);
    // Pool 3 holds OSMO and USDC: the chain's own estimate over it is the quote, unit for unit.
    const expected = BigInt(leg.expectedAmountOut);
    expect(await chainEstimate('25000000uosmo', [['3', osmosisUsdc()]])).toBe(expected);
    // 25 OSMO at 0.5 USDC, less the 0.2% spread factor and a sliver of price impact.
    expect(expected).toBeGreaterThan(12_450_000n);
    expect(expected).toBeLessThan(12_475_000n);

    const trader = await wallet(osmosis(), 7);
    const before = await balance(osmosis(), trader.address, osmosisUsdc());
    const swapped = await trader.client.signAndBroadcast(
      trader.address,
      [
        {
          typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
          value: MsgSwapExactAmountInCodec.fromPartial({
            sender: trader.address,
            routes: [{ poolId: 3n, tokenOutDenom: osmosisUsdc() }],
            tokenIn: { denom: 'uosmo', amount: leg.amountIn },
            tokenOutMinAmount: leg.minAmountOut,
          }),
        },
      ],
      'auto',
    );
    expect(swapped.code).toBe(0);
    expect(await balance(osmosis(), trader.address, osmosisUsdc())).toBe(before + expected);
  });

  it('quotes ATOM on the Hub → OSMO as an IBC transfer swapped on arrival, one signature, paid exactly', async () => {
    const quote = await service.quotes.create({
      fromChain: 'cosmoshub-devnet',
      toChain: 'osmosis-devnet',
      tokenIn: 'ATOM',
      tokenOut: 'OSMO',
      amount: '2',
    });
    const plan = osmosisRoute(quote);
    const route = quote.routes.find((r) => r.routeId === plan.routeId)!;
    expect(route.signatures).toEqual([
      { chain: 'cosmoshub-devnet', kind: 'bridge', payloadType: 'cosmos-sign-direct', mayBeSkipped: false },
    ]);
    const [transfer, swap] = plan.legs as RouteLeg[];
    const escrow = ics20EscrowAddress('cosmos', hub().ibcChannels['osmosis-devnet']);
    expect(transfer).toMatchObject({
      kind: 'bridge',
      chain: 'cosmoshub-devnet',
      provider: 'ibc',
      destinationChain: 'osmosis-devnet',
      tokenIn: { chain: 'cosmoshub-devnet', address: 'uatom' },
      tokenOut: { chain: 'osmosis-devnet', address: osmosisAtom() },
      amountIn: '2000000',
      expectedAmountOut: '2000000',
      minAmountOut: '2000000',
      spender: escrow,
    });
    expect(swap).toMatchObject({
      kind: 'swap',
      chain: 'osmosis-devnet',
      provider: 'osmosis',
      amountIn: '2000000',
      path: [osmosisAtom(), 'uosmo'],
      spender: osmosis().crosschainSwapsContract,
    });
    // The spender is the escrow of the Hub's channel to Osmosis: the ATOM behind Osmosis's vouchers is there.
    expect(await balance(hub(), escrow, 'uatom')).toBeGreaterThan(0n);
    const expected = BigInt(swap.expectedAmountOut);
    expect(await chainEstimate(`2000000${osmosisAtom()}`, [['1', 'uosmo']])).toBe(expected);

    // Sent as a Keplr user's route would be: a MsgTransfer to the contract with its wasm memo.
    const sender = await wallet(hub(), 8);
    const receiver = (await (await DirectSecp256k1HdWallet.generate(12, { prefix: 'osmo' })).getAccounts())[0]
      .address;
    const memo = JSON.stringify({
      wasm: {
        contract: osmosis().crosschainSwapsContract,
        msg: {
          osmosis_swap: {
            output_denom: 'uosmo',
            slippage: { min_output_amount: swap.minAmountOut },
            receiver,
            on_failed_delivery: 'do_nothing',
          },
        },
      },
    });
    const sent = await sender.client.signAndBroadcast(
      sender.address,
      [
        {
          typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
          value: MsgTransfer.fromPartial({
            sourcePort: 'transfer',
            sourceChannel: hub().ibcChannels['osmosis-devnet'],
            sender: sender.address,
            receiver: osmosis().crosschainSwapsContract,
            token: { denom: 'uatom', amount: transfer.amountIn },
            timeoutTimestamp: BigInt(Date.now() + 600_000) * 1_000_000n,
            memo,
          }),
        },
      ],
      'auto',
    );
    expect(sent.code).toBe(0);
    const received = await waitFor(
      async () => {
        const osmo = await balance(osmosis(), receiver, 'uosmo');
        return osmo > 0n ? osmo : null;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the OSMO of the swap on arrival' },
    );
    expect(received).toBe(expected);
  });

  it('routes USDC on Noble → ATOM through the pool holding both, and refuses what it cannot route', async () => {
    const quote = await service.quotes.create({
      fromChain: 'noble-devnet',
      toChain: 'osmosis-devnet',
      tokenIn: 'USDC',
      tokenOut: 'ATOM',
      amount: '10',
    });
    const [, swap] = osmosisRoute(quote).legs as RouteLeg[];
    expect(swap.path).toEqual([osmosisUsdc(), osmosisAtom()]);
    expect(await chainEstimate(`10000000${osmosisUsdc()}`, [['2', osmosisAtom()]])).toBe(
      BigInt(swap.expectedAmountOut),
    );

    // Osmosis is the only venue: nothing swaps on the Hub.
    const onHub = await service.quotes.create({
      fromChain: 'osmosis-devnet',
      toChain: 'cosmoshub-devnet',
      tokenIn: 'OSMO',
      tokenOut: 'ATOM',
      amount: '1',
    });
    expect(onHub.routes).toEqual([]);
    expect(onHub.unavailableRoutes).toContainEqual(
      expect.objectContaining({ provider: 'osmosis', reason: 'PAIR_NOT_SUPPORTED' }),
    );
  });
});
