import {
  parseThorchainSwapMemo,
  type ThornodeInboundAddress,
  type ThornodeQuoteSwap,
} from '@swapgw/chains/bitcoin-bridge';
import { ManualClock } from '@swapgw/runtime';
import { NoRouteError } from '../no-route.error';
import type { IntegratorFeeCharge, QuoteContext } from '../quote-provider';
import type { ThornodeQuoteSwapRequest } from './thornode-client';
import { ThorchainProvider } from './thorchain.provider';
import { depositMemoOf, realNetwork } from './thorchain-test-support';

const NOW_S = 1_764_460_800;
const VAULT = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

const bitcoin = realNetwork('bitcoin');
const base = realNetwork('base');

/** inbound_addresses as THORNode answers it (mainnet, abridged to the chains the route touches). */
function inboundAddresses(overrides: Partial<Record<'BTC' | 'BASE', Partial<ThornodeInboundAddress>>> = {}) {
  const entry = (chain: 'BTC' | 'BASE', address: string, extra: Partial<ThornodeInboundAddress>) => ({
    chain,
    pub_key: 'thorpub1addwnpepqfxhr4qs5j9zsyxlnlr2u5v9q3yy4g3ghz4u5y8c6ylvk2uy7gpjvnyrcdp',
    address,
    halted: false,
    global_trading_paused: false,
    chain_trading_paused: false,
    chain_lp_actions_paused: false,
    ...extra,
    ...overrides[chain],
  });
  return [
    entry('BTC', VAULT, {
      gas_rate: '4',
      gas_rate_units: 'satsperbyte',
      outbound_tx_size: '1000',
      outbound_fee: '12000',
      dust_threshold: '10000',
    }),
    entry('BASE', '0x1b3100b1d4a2f5ea5b5a5da5d37a9a0e1de5a5b1', {
      router: '0x68208fb8ce1ae8b6d0fb8e1cf2d1f6a6df8e0f5e',
      gas_rate: '1',
      gas_rate_units: 'centigwei',
      outbound_fee: '2400',
      dust_threshold: '0',
    }),
  ];
}

/** A quote/swap answer for 0.01 BTC to USDC on Base, as THORNode writes one. */
function quoteAnswer(extra: Partial<ThornodeQuoteSwap> = {}): ThornodeQuoteSwap {
  return {
    inbound_address: VAULT,
    inbound_confirmation_blocks: 1,
    inbound_confirmation_seconds: 600,
    outbound_delay_blocks: 0,
    outbound_delay_seconds: 0,
    fees: {
      asset: 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
      affiliate: '0',
      outbound: '25000000',
      liquidity: '45000000',
      total: '70000000',
      slippage_bps: 5,
      total_bps: 8,
    },
    expiry: NOW_S + 900,
    warning: 'Do not cache this response. Do not send funds after the expiry.',
    notes:
      'First output should be to inbound_address, second output should be change back to self, third output should be OP_RETURN, limited to 80 bytes. Do not send below the dust threshold. Do not use exotic spend scripts, locks or address formats.',
    dust_threshold: '10000',
    recommended_min_amount_in: '25000',
    recommended_gas_rate: '4',
    gas_rate_units: 'satsperbyte',
    memo: `=:BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913:${RECIPIENT}:0/1/0`,
    expected_amount_out: '89930000000',
    max_streaming_quantity: 0,
    streaming_swap_blocks: 0,
    total_swap_seconds: 600,
    ...extra,
  };
}

function contextOf(amountIn: bigint, extra: Partial<QuoteContext> = {}): QuoteContext {
  return {
    fromChain: bitcoin,
    toChain: base,
    tokenIn: { chain: 'bitcoin', symbol: 'BTC', address: null, decimals: 8 },
    tokenOut: { chain: 'base', symbol: 'USDC', address: BASE_USDC, decimals: 6 },
    amountIn,
    recipient: RECIPIENT,
    ...extra,
  };
}

function providerWith(
  answers: { inbound?: unknown; quote?: ThornodeQuoteSwap | Error } = {},
  options: ConstructorParameters<typeof ThorchainProvider>[2] = {},
) {
  const requests: ThornodeQuoteSwapRequest[] = [];
  const client = {
    inboundAddresses: async () => (answers.inbound ?? inboundAddresses()) as ThornodeInboundAddress[],
    quoteSwap: async (request: ThornodeQuoteSwapRequest) => {
      requests.push(request);
      const quote = answers.quote ?? quoteAnswer();
      if (quote instanceof Error) throw quote;
      return quote;
    },
  };
  const clock = new ManualClock(NOW_S * 1000);
  return { provider: new ThorchainProvider(client, clock, options), requests };
}

const signal = new AbortController().signal;

async function noRouteOf(promise: Promise<unknown>): Promise<NoRouteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NoRouteError);
  return error as NoRouteError;
}

describe('ThorchainProvider', () => {
  it('applies between Bitcoin and an EVM chain THORChain trades on, both ways, and not between other chains', () => {
    const { provider } = providerWith();
    expect(provider.applies(contextOf(1_000_000n))).toBe(true);
    expect(provider.applies(contextOf(1_000_000n, { fromChain: base, toChain: bitcoin }))).toBe(true);
    expect(provider.applies(contextOf(1_000_000n, { fromChain: base, toChain: base }))).toBe(false);
    expect(
      provider.applies(
        contextOf(1_000_000n, {
          fromChain: { ...base, id: 'devnet-a', evmChainId: 31337 },
          toChain: bitcoin,
        }),
      ),
    ).toBe(false);
    expect(
      provider.applies(contextOf(1_000_000n, { toChain: { ...base, id: 'devnet-a', evmChainId: 31337 } })),
    ).toBe(false);
    const mapped = providerWith({}, { chainPrefixes: { 'devnet-a': 'ETH' } }).provider;
    expect(
      mapped.applies(contextOf(1_000_000n, { toChain: { ...base, id: 'devnet-a', evmChainId: 31337 } })),
    ).toBe(true);
  });

  it('asks THORNode in its own terms: assets, 1e8 amount, destination, streaming, affiliate', async () => {
    const { provider, requests } = providerWith({}, { affiliate: 'sg', affiliateBps: 15 });
    await provider.quote(contextOf(1_000_000n), signal);
    expect(requests).toEqual([
      {
        from_asset: 'BTC.BTC',
        to_asset: 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
        amount: 1_000_000n,
        destination: RECIPIENT,
        streaming_interval: 1,
        streaming_quantity: 0,
        affiliate: 'sg',
        affiliate_bps: '15',
      },
    ]);
  });

  it('maps the quote to one deposit leg paying the inbound address, amounts back in the token’s decimals', async () => {
    const { provider } = providerWith();
    const [route] = await provider.quote(contextOf(1_000_000n), signal);
    // 899.3 USDC in 1e8 units is 899.300000 in USDC's 6 decimals; auto slippage from 5 bps of impact is 33 bps.
    expect(route.expectedAmountOut).toBe(899_300_000n);
    expect(route.legs).toEqual([
      expect.objectContaining({
        kind: 'bridge',
        chain: 'bitcoin',
        provider: 'thorchain',
        spender: VAULT,
        destinationChain: 'base',
        amountIn: '1000000',
        expectedAmountOut: '899300000',
        slippageBps: 33,
        minAmountOut: String((899_300_000n * 9967n) / 10_000n),
        estimatedDurationSeconds: 600,
        thorchain: {
          asset: 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
          streamingInterval: 0,
          streamingQuantity: 0,
          expiry: NOW_S + 900,
        },
      }),
    ]);
    expect(route.bridgeProvider).toBe('thorchain');
  });

  it('streams when the quote offers more than one sub-swap, and the deposit memo says so', async () => {
    const { provider } = providerWith(
      {
        quote: quoteAnswer({ max_streaming_quantity: 8, streaming_swap_blocks: 7, total_swap_seconds: 650 }),
      },
      { affiliate: 'sg', affiliateBps: 15 },
    );
    const [route] = await provider.quote(contextOf(100_000_000n, { slippageBps: 100 }), signal);
    const [leg] = route.legs;
    expect(leg.thorchain).toMatchObject({
      streamingInterval: 1,
      streamingQuantity: 8,
      affiliates: [{ name: 'sg', bps: 15 }],
    });
    expect(route.estimatedDurationSeconds).toBe(650);
    expect(leg.spender).toBe(VAULT);
    expect(parseThorchainSwapMemo(depositMemoOf(leg, RECIPIENT))).toMatchObject({
      destination: RECIPIENT,
      streamingInterval: 1,
      streamingQuantity: 8,
      affiliates: [{ name: 'sg', bps: 15 }],
    });
  });

  describe('integrator fees', () => {
    const BC1_FEE = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const withFees = (
      amountIn: bigint,
      charges: IntegratorFeeCharge[],
      extra: Partial<QuoteContext> = {},
    ) => {
      const fees = charges.reduce((sum, charge) => sum + charge.amount, 0n);
      return contextOf(amountIn - fees, { integratorFee: { grossAmountIn: amountIn, charges }, ...extra });
    };
    const affiliate = (recipient: string, bps: number, gross: bigint): IntegratorFeeCharge => ({
      recipient,
      bps,
      amount: (gross * BigInt(bps)) / 10_000n,
      thorchainAffiliate: true,
    });

    it("puts THORNames and thor1 addresses in the affiliate fields after the operator's: THORNode quoted for the gross amount, the fees reported as the deposit's", async () => {
      const { provider, requests } = providerWith({}, { affiliate: 'sg', affiliateBps: 15 });
      const thor = 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq';
      const charges = [affiliate('wallet', 30, 1_000_000n), affiliate(thor, 20, 1_000_000n)];
      const [route] = await provider.quote(withFees(1_000_000n, charges), signal);
      expect(requests[0]).toMatchObject({
        amount: 1_000_000n,
        affiliate: `sg/wallet/${thor}`,
        affiliate_bps: '15/30/20',
      });
      expect(route.integratorFee).toEqual(charges);
      const [leg] = route.legs;
      // The leg is net of the fees, as every first leg; the deposit carries them (the step adds them back).
      expect(leg.amountIn).toBe('995000');
      expect(leg.thorchain?.affiliates).toEqual([
        { name: 'sg', bps: 15 },
        { name: 'wallet', bps: 30 },
        { name: thor, bps: 20 },
      ]);
    });

    it('keeps fees to Bitcoin addresses as PSBT outputs out of Bitcoin: THORNode quoted for the net amount', async () => {
      const { provider, requests } = providerWith();
      const charges = [{ recipient: BC1_FEE, bps: 30, amount: 3_000n }];
      const [route] = await provider.quote(withFees(1_000_000n, charges), signal);
      expect(requests[0]).toMatchObject({ amount: 997_000n });
      expect(requests[0].affiliate).toBeUndefined();
      expect(route.integratorFee).toBeUndefined();
    });

    it('refuses what THORChain cannot pay: a mix of both kinds, a source-chain address out of an EVM chain, more than 5 affiliates', async () => {
      const mixed = await noRouteOf(
        providerWith().provider.quote(
          withFees(1_000_000n, [
            affiliate('wallet', 30, 1_000_000n),
            { recipient: BC1_FEE, bps: 20, amount: 2_000n },
          ]),
          signal,
        ),
      );
      expect(mixed.reason).toBe('INTEGRATOR_FEE_NOT_SUPPORTED');
      const fromEvm = await noRouteOf(
        providerWith().provider.quote(
          withFees(1_000_000_000n, [{ recipient: RECIPIENT, bps: 30, amount: 3_000_000n }], {
            fromChain: base,
            toChain: bitcoin,
            tokenIn: { chain: 'base', symbol: 'USDC', address: BASE_USDC, decimals: 6 },
            tokenOut: { chain: 'bitcoin', symbol: 'BTC', address: null, decimals: 8 },
            recipient: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          }),
          signal,
        ),
      );
      expect(fromEvm).toMatchObject({ reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' });
      expect(fromEvm.message).toContain('THORName or thor1 address');
      const many = await noRouteOf(
        providerWith({}, { affiliate: 'sg', affiliateBps: 10 }).provider.quote(
          withFees(
            1_000_000n,
            ['a', 'b', 'c', 'd', 'e'].map((name) => affiliate(name, 10, 1_000_000n)),
          ),
          signal,
        ),
      );
      expect(many).toMatchObject({ reason: 'INTEGRATOR_FEE_NOT_SUPPORTED' });
    });
  });

  it.each([
    ['halted', { halted: true }],
    ['global_trading_paused', { global_trading_paused: true }],
    ['chain_trading_paused', { chain_trading_paused: true }],
  ])('has no route while Bitcoin is %s, before asking for a quote', async (flag, entry) => {
    const { provider, requests } = providerWith({ inbound: inboundAddresses({ BTC: entry }) });
    const error = await noRouteOf(provider.quote(contextOf(1_000_000n), signal));
    expect(error.reason).toBe('PAIR_NOT_SUPPORTED');
    expect(error.message).toContain(flag);
    expect(requests).toEqual([]);
  });

  it('has no route while the destination chain’s trading is paused', async () => {
    const { provider } = providerWith({
      inbound: inboundAddresses({ BASE: { chain_trading_paused: true } }),
    });
    const error = await noRouteOf(provider.quote(contextOf(1_000_000n), signal));
    expect(error.message).toContain('trading on BASE is stopped');
  });

  it('answers AMOUNT_TOO_LOW below the dust threshold and below the recommended minimum, with the minimum', async () => {
    const dust = await noRouteOf(providerWith().provider.quote(contextOf(9_999n), signal));
    expect(dust).toMatchObject({ reason: 'AMOUNT_TOO_LOW', bounds: { minAmount: 10_000n } });
    const recommended = await noRouteOf(providerWith().provider.quote(contextOf(20_000n), signal));
    expect(recommended).toMatchObject({ reason: 'AMOUNT_TOO_LOW', bounds: { minAmount: 25_000n } });
  });

  it('passes THORNode’s no-route answers on, and fails on an inbound address that expires too soon or is not Bitcoin’s', async () => {
    const refused = new NoRouteError('AMOUNT_TOO_LOW', 'THORChain: not enough asset to pay for fees');
    await expect(providerWith({ quote: refused }).provider.quote(contextOf(1_000_000n), signal)).rejects.toBe(
      refused,
    );
    await expect(
      providerWith({ quote: quoteAnswer({ expiry: NOW_S + 120 }) }).provider.quote(
        contextOf(1_000_000n),
        signal,
      ),
    ).rejects.toThrow(/expires in 120 s/);
    await expect(
      providerWith({
        quote: quoteAnswer({ inbound_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }),
      }).provider.quote(contextOf(1_000_000n), signal),
    ).rejects.toThrow(/not bitcoin's bc1q/);
    const testnetVault = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
    await expect(
      providerWith({
        inbound: inboundAddresses({ BTC: { address: testnetVault } }),
        quote: quoteAnswer({ inbound_address: testnetVault }),
      }).provider.quote(contextOf(1_000_000n), signal),
    ).rejects.toThrow(/not an address of bitcoin/);
  });

  it('has no route for a token on Bitcoin, nor when inbound_addresses lists no Bitcoin vault', async () => {
    const token = await noRouteOf(
      providerWith().provider.quote(
        contextOf(1_000_000n, { tokenIn: { chain: 'bitcoin', symbol: 'ORDI', address: 'x', decimals: 8 } }),
        signal,
      ),
    );
    expect(token.reason).toBe('PAIR_NOT_SUPPORTED');
    const none = await noRouteOf(
      providerWith({ inbound: inboundAddresses().filter((e) => e.chain !== 'BTC') }).provider.quote(
        contextOf(1_000_000n),
        signal,
      ),
    );
    expect(none.message).toContain('no inbound address for BTC');
  });

  describe('out of an EVM chain into Bitcoin', () => {
    const ROUTER = '0x68208fb8ce1ae8b6d0fb8e1cf2d1f6a6df8e0f5e';
    const BASE_VAULT = '0x1b3100b1d4a2f5ea5b5a5da5d37a9a0e1de5a5b1';
    const BTC_RECIPIENT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    /** 1,000 USDC on Base to BTC, as THORNode answers it: the Base vault, the router, amounts in sats. */
    const intoBitcoin = (extra: Partial<ThornodeQuoteSwap> = {}) =>
      quoteAnswer({
        inbound_address: BASE_VAULT,
        router: ROUTER,
        fees: { asset: 'BTC.BTC', outbound: '12000', liquidity: '3000', total: '15000', slippage_bps: 4 },
        dust_threshold: '0',
        recommended_min_amount_in: '1500000000',
        memo: `=:BTC.BTC:${BTC_RECIPIENT}:0/1/0`,
        expected_amount_out: '1094000',
        ...extra,
      });
    const usdcToBtc = (amountIn: bigint): QuoteContext =>
      contextOf(amountIn, {
        fromChain: base,
        toChain: bitcoin,
        tokenIn: { chain: 'base', symbol: 'USDC', address: BASE_USDC, decimals: 6 },
        tokenOut: { chain: 'bitcoin', symbol: 'BTC', address: null, decimals: 8 },
        recipient: BTC_RECIPIENT,
      });

    it('asks USDC to BTC.BTC and builds one leg calling the router, which credits the vault', async () => {
      const { provider, requests } = providerWith(
        { quote: intoBitcoin() },
        { affiliate: 'swapgw', affiliateBps: 20 },
      );
      const [route] = await provider.quote(usdcToBtc(1_000_000_000n), signal);
      expect(requests[0]).toMatchObject({
        from_asset: 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
        to_asset: 'BTC.BTC',
        amount: 100_000_000_000n,
        destination: BTC_RECIPIENT,
        affiliate: 'swapgw',
        affiliate_bps: '20',
      });
      const [leg] = route.legs;
      expect(leg).toMatchObject({
        kind: 'bridge',
        chain: 'base',
        provider: 'thorchain',
        destinationChain: 'bitcoin',
        expectedAmountOut: '1094000',
        thorchain: { asset: 'BTC.BTC', expiry: NOW_S + 900, affiliates: [{ name: 'swapgw', bps: 20 }] },
      });
      expect(leg.spender.toLowerCase()).toBe(ROUTER);
      expect(leg.thorchain?.inboundAddress?.toLowerCase()).toBe(BASE_VAULT);
      expect(BigInt(leg.minAmountOut)).toBeLessThan(1_094_000n);
    });

    it('refuses a quote whose router or vault is not the chain’s entry, and a halted source chain', async () => {
      await expect(
        providerWith({ quote: intoBitcoin({ router: '0x' + '11'.repeat(20) }) }).provider.quote(
          usdcToBtc(1_000_000_000n),
          signal,
        ),
      ).rejects.toThrow(/router 0x1111/);
      await expect(
        providerWith({ quote: intoBitcoin({ inbound_address: '0x' + '22'.repeat(20) }) }).provider.quote(
          usdcToBtc(1_000_000_000n),
          signal,
        ),
      ).rejects.toThrow(/inbound address 0x2222/);
      const halted = await noRouteOf(
        providerWith({
          inbound: inboundAddresses({ BASE: { halted: true } }),
          quote: intoBitcoin(),
        }).provider.quote(usdcToBtc(1_000_000_000n), signal),
      );
      expect(halted.message).toContain('trading on BASE is stopped (halted)');
      const small = await noRouteOf(
        providerWith({ quote: intoBitcoin() }).provider.quote(usdcToBtc(10_000_000n), signal),
      );
      expect(small).toMatchObject({ reason: 'AMOUNT_TOO_LOW', bounds: { minAmount: 15_000_000n } });
    });
  });
});
