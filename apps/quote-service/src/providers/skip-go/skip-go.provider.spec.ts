import { ics20EscrowAddress } from '@swapgw/chains/families';
import { json, LocalUpstream } from '../../../test/support/local-upstream';
import {
  bodyOf,
  cosmosChain,
  HUB,
  hubAtomToNobleUsdc,
  NOBLE,
  OSMOSIS,
  OSMOSIS_ATOM,
  skipError,
  skipRouteAnswer,
  skipSwapOp,
} from '../../../test/support/skip-go-upstream';
import { NoRouteError } from '../no-route.error';
import type { QuoteContext } from '../quote-provider';
import { SkipGoApi } from './skip-go-api';
import { SkipChains, skipGoRoute, SkipGoProvider, skipRouteRequest } from './skip-go.provider';

const chains: SkipChains = {
  byCosmosChainId: (chainId) => [HUB, OSMOSIS, NOBLE].find((c) => c.cosmos?.chainId === chainId),
};
const thresholds = { priceImpactBps: 100, thinLiquidityBps: 1000 };

const atomToUsdc: QuoteContext = {
  fromChain: HUB,
  toChain: NOBLE,
  tokenIn: { chain: 'cosmoshub', symbol: 'ATOM', address: null, mint: 'uatom', decimals: 6 },
  tokenOut: { chain: 'noble', symbol: 'USDC', address: null, mint: 'uusdc', decimals: 6 },
  amountIn: 10_000_000n,
};

describe('skipGoRoute: a /v2/fungible/route answer as a route', () => {
  const asked = skipRouteRequest(atomToUsdc) as unknown as Record<string, unknown>;

  it('asks one transaction over IBC, without an affiliate fee, by chain id and denom', () => {
    expect(asked).toEqual({
      amount_in: '10000000',
      source_asset_denom: 'uatom',
      source_asset_chain_id: 'cosmoshub-4',
      dest_asset_denom: 'uusdc',
      dest_asset_chain_id: 'noble-1',
      cumulative_affiliate_fee_bps: '0',
      allow_multi_tx: false,
      allow_unsafe: false,
      bridges: ['IBC'],
      smart_relay: false,
    });
  });

  it('names each operation on its chain: IBC to Osmosis, the swap there, forwarded to Noble', () => {
    const route = skipGoRoute(atomToUsdc, hubAtomToNobleUsdc(asked, '49870000'), chains, thresholds);
    expect(route.providers).toEqual(['skip-go']);
    expect(route.bridgeProvider).toBe('skip-go');
    expect(route.expectedAmountOut).toBe(49_870_000n);
    expect(route.estimatedDurationSeconds).toBe(30);
    expect(route.warnings).toEqual([]);
    const [toOsmosis, swap, toNoble] = route.legs;
    expect(toOsmosis).toMatchObject({
      kind: 'bridge',
      chain: 'cosmoshub',
      destinationChain: 'osmosis',
      provider: 'skip-go',
      tokenIn: { chain: 'cosmoshub', symbol: 'ATOM', address: 'uatom', decimals: 6 },
      tokenOut: { chain: 'osmosis', symbol: 'ATOM', address: OSMOSIS_ATOM },
      amountIn: '10000000',
      expectedAmountOut: '10000000',
      minAmountOut: '10000000',
      slippageBps: 0,
      spender: ics20EscrowAddress('cosmos', 'channel-141'),
    });
    // No slippage asked, Skip's 0.12% impact: the aggregators' automatic 50 bps.
    expect(swap).toMatchObject({
      kind: 'swap',
      chain: 'osmosis',
      tokenIn: { symbol: 'ATOM', address: OSMOSIS_ATOM },
      tokenOut: { symbol: 'USDC' },
      amountIn: '10000000',
      expectedAmountOut: '49870000',
      minAmountOut: '49620650',
      slippageBps: 50,
      spender: 'osmosis-poolmanager',
    });
    expect(swap.path).toEqual([OSMOSIS_ATOM, swap.tokenOut.address]);
    expect(toNoble).toMatchObject({
      kind: 'bridge',
      chain: 'osmosis',
      destinationChain: 'noble',
      tokenOut: { chain: 'noble', symbol: 'USDC', address: 'uusdc' },
      amountIn: '49870000',
      minAmountOut: '49870000',
      spender: ics20EscrowAddress('osmo', 'channel-750'),
    });
    expect(route.legs.reduce((s, leg) => s + leg.estimatedDurationSeconds, 0)).toBe(30);
  });

  it('keeps amounts beyond 2^53 exact (strings of base units)', () => {
    const huge = '123456789012345678901234567890';
    const context = { ...atomToUsdc, amountIn: BigInt(huge) };
    const request = skipRouteRequest(context) as unknown as Record<string, unknown>;
    const route = skipGoRoute(
      context,
      hubAtomToNobleUsdc(request, '987654321098765432109876543210'),
      chains,
      thresholds,
    );
    expect(route.expectedAmountOut).toBe(987654321098765432109876543210n);
    expect(route.legs[0].amountIn).toBe(huge);
  });

  it("warns HIGH_PRICE_IMPACT on Skip's BAD_PRICE_WARNING, and keeps a LOW_INFO_WARNING in debug", () => {
    const bad = hubAtomToNobleUsdc(asked, '40000000');
    bad.warning = {
      type: 'BAD_PRICE_WARNING',
      message: 'Difference in USD value of route input and output is large',
    };
    expect(skipGoRoute(atomToUsdc, bad, chains, thresholds).warnings).toEqual(['HIGH_PRICE_IMPACT']);
    const lowInfo = hubAtomToNobleUsdc(asked, '49870000');
    lowInfo.warning = { type: 'LOW_INFO_WARNING', message: 'USD value unavailable' };
    const route = skipGoRoute(atomToUsdc, lowInfo, chains, thresholds);
    expect(route.warnings).toEqual([]);
    expect(route.debug?.skipWarning).toEqual(lowInfo.warning);
  });

  it('warns HIGH_PRICE_IMPACT and widens the automatic slippage on a large impact; a slippage asked is kept', () => {
    const answer = hubAtomToNobleUsdc(asked, '49870000');
    answer.swap_price_impact_percent = '2.5';
    const auto = skipGoRoute(atomToUsdc, answer, chains, thresholds);
    expect(auto.warnings).toEqual(['HIGH_PRICE_IMPACT']);
    expect(auto.legs[1].slippageBps).toBe(155); // 30 + ceil(250 / 2)
    const asked100 = skipGoRoute({ ...atomToUsdc, slippageBps: 100 }, answer, chains, thresholds);
    expect(asked100.legs[1]).toMatchObject({ slippageBps: 100, minAmountOut: '49371300' });
  });

  it('is an upstream failure when Skip answers a route for another chain pair, denom or amount', () => {
    const other = hubAtomToNobleUsdc({ ...asked, dest_asset_chain_id: 'osmosis-1' }, '1');
    expect(() => skipGoRoute(atomToUsdc, other, chains, thresholds)).toThrow(/not the one asked/);
    expect(() => skipGoRoute(atomToUsdc, other, chains, thresholds)).not.toThrow(NoRouteError);
    const otherAmount = hubAtomToNobleUsdc({ ...asked, amount_in: '1' }, '1');
    expect(() => skipGoRoute(atomToUsdc, otherAmount, chains, thresholds)).toThrow(/not the one asked/);
  });

  it('is no route for several transactions, an unlisted chain, another bridge or several swap venues', () => {
    const refusal = (answer: ReturnType<typeof hubAtomToNobleUsdc>) => {
      try {
        skipGoRoute(atomToUsdc, answer, chains, thresholds);
      } catch (error) {
        expect(error).toBeInstanceOf(NoRouteError);
        return (error as NoRouteError).reason + ': ' + (error as Error).message;
      }
      throw new Error('expected a NoRouteError');
    };
    expect(refusal({ ...hubAtomToNobleUsdc(asked, '1'), txs_required: 2 })).toMatch(
      /PAIR_NOT_SUPPORTED: .*2 transactions/,
    );
    const noOsmosis: SkipChains = {
      byCosmosChainId: (id) => (id === 'osmosis-1' ? undefined : chains.byCosmosChainId(id)),
    };
    expect(() => skipGoRoute(atomToUsdc, hubAtomToNobleUsdc(asked, '1'), noOsmosis, thresholds)).toThrow(
      /passes through osmosis-1/,
    );
    const axelar = hubAtomToNobleUsdc(asked, '1');
    axelar.operations = [{ axelar_transfer: { from_chain_id: 'cosmoshub-4' }, tx_index: 0 }] as never;
    expect(refusal(axelar)).toMatch(/uses axelar_transfer/);
    const twoSwaps = hubAtomToNobleUsdc(asked, '1');
    twoSwaps.operations = [twoSwaps.operations[1], twoSwaps.operations[1]];
    expect(refusal(twoSwaps)).toMatch(/several swap venues/);
  });

  it('maps a swap on one chain (Osmosis) to one swap leg', () => {
    const onOsmosis: QuoteContext = {
      fromChain: OSMOSIS,
      toChain: OSMOSIS,
      tokenIn: { chain: 'osmosis', symbol: 'OSMO', address: null, mint: 'uosmo', decimals: 6 },
      tokenOut: { chain: 'osmosis', symbol: 'ATOM', address: null, mint: OSMOSIS_ATOM, decimals: 6 },
      amountIn: 1_000_000n,
      slippageBps: 30,
    };
    const request = skipRouteRequest(onOsmosis) as unknown as Record<string, unknown>;
    const answer = skipRouteAnswer(
      request,
      [
        skipSwapOp({
          chainId: 'osmosis-1',
          pools: [{ pool: '1', denomIn: 'uosmo', denomOut: OSMOSIS_ATOM }],
          amountIn: '1000000',
          amountOut: '52000',
        }),
      ],
      '52000',
    );
    const route = skipGoRoute(onOsmosis, answer, chains, thresholds);
    expect(route.bridgeProvider).toBeUndefined();
    expect(route.legs).toHaveLength(1);
    expect(route.legs[0]).toMatchObject({
      kind: 'swap',
      chain: 'osmosis',
      amountIn: '1000000',
      expectedAmountOut: '52000',
      minAmountOut: '51844',
      path: ['uosmo', OSMOSIS_ATOM],
    });
  });
});

describe('SkipGoProvider against a local server speaking the Skip Go API', () => {
  const skip = new LocalUpstream();
  let provider: SkipGoProvider;
  const signal = () => AbortSignal.timeout(5_000);

  beforeAll(async () => {
    await skip.start();
    provider = new SkipGoProvider(
      new SkipGoApi({ baseUrl: skip.url, apiKey: 'skip-key' }),
      chains,
      thresholds,
    );
  });
  afterAll(() => skip.stop());
  beforeEach(() => {
    skip.requests.length = 0;
  });

  it('applies between Cosmos chains only', () => {
    expect(provider.applies(atomToUsdc)).toBe(true);
    const ethereum = { ...HUB, id: 'ethereum', family: 'evm' as const, cosmos: undefined };
    expect(provider.applies({ ...atomToUsdc, toChain: ethereum })).toBe(false);
  });

  it('POSTs /v2/fungible/route with the API key in `authorization` and maps the answer', async () => {
    skip.handler = (request, res) => json(res, 200, hubAtomToNobleUsdc(bodyOf(request), '49870000'));
    const [route] = await provider.quote(atomToUsdc, signal());
    expect(skip.requests).toHaveLength(1);
    const [sent] = skip.requests;
    expect(sent.method).toBe('POST');
    expect(sent.url.pathname).toBe('/v2/fungible/route');
    expect(sent.headers.authorization).toBe('skip-key');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual(skipRouteRequest(atomToUsdc));
    expect(route.expectedAmountOut).toBe(49_870_000n);
    expect(route.legs.map((leg) => leg.chain)).toEqual(['cosmoshub', 'osmosis', 'osmosis']);
  });

  it('reads "no routes found" (404, code 5) and a denom Skip does not know (400, code 3) as PAIR_NOT_SUPPORTED', async () => {
    skip.handler = (_request, res) => skipError(res, 404, 5, 'no routes found');
    await expect(provider.quote(atomToUsdc, signal())).rejects.toMatchObject({
      name: 'NoRouteError',
      reason: 'PAIR_NOT_SUPPORTED',
      message: 'Skip Go /v2/fungible/route: no routes found (code 5)',
    });
    skip.handler = (_request, res) => skipError(res, 400, 3, 'invalid source asset denom');
    await expect(provider.quote(atomToUsdc, signal())).rejects.toMatchObject({
      reason: 'PAIR_NOT_SUPPORTED',
    });
  });

  it('fails (upstream) on a 5xx, a rate limit, a refused key, a body that is not JSON and a timeout', async () => {
    for (const [status, code] of [
      [500, 13],
      [429, 8],
      [401, 16],
    ]) {
      skip.handler = (_request, res) => skipError(res, status, code, 'upstream trouble');
      const error = await provider.quote(atomToUsdc, signal()).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(NoRouteError);
      expect((error as Error).message).toContain(`HTTP ${status}`);
    }
    skip.handler = (_request, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    await expect(provider.quote(atomToUsdc, signal())).rejects.not.toBeInstanceOf(NoRouteError);
    skip.handler = () => undefined; // never answers
    await expect(provider.quote(atomToUsdc, AbortSignal.timeout(100))).rejects.toThrow(/aborted|timeout/i);
  });

  it('fails (upstream) on a 200 without the documented fields', async () => {
    skip.handler = (_request, res) => json(res, 200, { amount_out: 12 });
    await expect(provider.quote(atomToUsdc, signal())).rejects.toThrow(/without amount_in/);
  });

  it('gives no route to a quote with an integrator fee (Skip takes its fee out of the output)', async () => {
    await expect(
      provider.quote(
        {
          ...atomToUsdc,
          integratorFee: {
            grossAmountIn: 10_100_000n,
            charges: [{ recipient: 'cosmos1fee', bps: 100, amount: 100_000n }],
          },
        },
        signal(),
      ),
    ).rejects.toMatchObject({ reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' });
    expect(skip.requests).toHaveLength(0);
  });

  it('builds its descriptors for any Cosmos chain: a chain pair Skip has no route between', async () => {
    const juno = cosmosChain('juno', 'juno-1', 'juno', 'ujuno');
    skip.handler = (_request, res) => skipError(res, 404, 5, 'no routes found');
    await expect(provider.quote({ ...atomToUsdc, toChain: juno }, signal())).rejects.toMatchObject({
      reason: 'PAIR_NOT_SUPPORTED',
    });
    expect(bodyOf(skip.requests[0]).dest_asset_chain_id).toBe('juno-1');
  });
});
