import {
  readInboundAddresses,
  readPools,
  readQuoteSwap,
  readTxStatus,
  ThornodeFormatError,
  thorchainSwapProgress,
  type ThornodeTxStatus,
} from './thornode-api';

const HASH = 'A'.repeat(64);

const inbound = {
  chain: 'BTC',
  pub_key: 'thorpub1addwnpepq',
  address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  halted: false,
  global_trading_paused: false,
  chain_trading_paused: false,
  chain_lp_actions_paused: false,
  gas_rate: '3',
  gas_rate_units: 'satsperbyte',
  outbound_tx_size: '1000',
  outbound_fee: '3000',
  dust_threshold: '10000',
};

function statusOf(
  stages: Partial<ThornodeTxStatus['stages']>,
  extra: Partial<ThornodeTxStatus> = {},
): ThornodeTxStatus {
  return { stages: { inbound_observed: { completed: true }, ...stages }, ...extra };
}

describe('THORNode answers', () => {
  it('reads inbound_addresses and refuses an entry without its halt flags or with a non-numeric amount', () => {
    expect(readInboundAddresses([inbound])).toEqual([inbound]);
    const { halted: _halted, ...noHalt } = inbound;
    expect(() => readInboundAddresses([noHalt])).toThrow(ThornodeFormatError);
    expect(() => readInboundAddresses([{ ...inbound, dust_threshold: 1000 }])).toThrow(/dust_threshold/);
    expect(() => readInboundAddresses({ error: 'x' })).toThrow(/not an array/);
  });

  it('reads pools and refuses an entry without asset, status or its balances as amounts', () => {
    const pool = {
      asset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
      status: 'Available',
      decimals: 6,
      pending_inbound_asset: '0',
      pending_inbound_rune: '0',
      balance_asset: '2500000000000',
      balance_rune: '1900000000000000',
      asset_tor_price: '99990000',
      pool_units: '1200000000000000',
      LP_units: '1100000000000000',
      synth_units: '100000000000000',
      synth_supply: '10000000000',
      synth_mint_paused: true,
    };
    expect(readPools([pool])).toEqual([pool]);
    expect(readPools([])).toEqual([]);
    const { status: _status, ...noStatus } = pool;
    expect(() => readPools([noStatus])).toThrow(/status/);
    expect(() => readPools([{ ...pool, asset: '' }])).toThrow(/asset/);
    expect(() => readPools([{ ...pool, balance_rune: 19e14 }])).toThrow(/balance_rune/);
    expect(() => readPools([{ ...pool, LP_units: '-1' }])).toThrow(/LP_units/);
    expect(() => readPools([{ ...pool, decimals: '6' }])).toThrow(/decimals/);
    expect(() => readPools({ code: 12, message: 'Not Implemented' })).toThrow(ThornodeFormatError);
  });

  it('reads a quote and refuses one without expected_amount_out, expiry or fees', () => {
    const quote = {
      expected_amount_out: '123',
      expiry: 1_700_000_000,
      fees: { asset: 'BTC.BTC', total: '5' },
    };
    expect(readQuoteSwap(quote)).toEqual(quote);
    expect(() => readQuoteSwap({ ...quote, expected_amount_out: 1.5 })).toThrow(/expected_amount_out/);
    expect(() => readQuoteSwap({ ...quote, expiry: '1' })).toThrow(/expiry/);
    expect(() => readQuoteSwap({ ...quote, fees: undefined })).toThrow(/fees/);
    expect(() => readQuoteSwap({ ...quote, max_streaming_quantity: 'many' })).toThrow(
      /max_streaming_quantity/,
    );
  });

  it('reads tx/status and refuses one without stages', () => {
    expect(readTxStatus(statusOf({}))).toEqual(statusOf({}));
    expect(() => readTxStatus({ tx: {} })).toThrow(/stages/);
    expect(() => readTxStatus({ stages: { inbound_observed: { completed: 'yes' } } })).toThrow(/completed/);
  });
});

describe('a swap’s progress from its tx/status stages', () => {
  it('follows the stages in order', () => {
    expect(thorchainSwapProgress({ stages: { inbound_observed: { completed: false } } }).phase).toBe(
      'not-observed',
    );
    expect(
      thorchainSwapProgress(
        statusOf({ inbound_confirmation_counted: { completed: false, remaining_confirmation_seconds: 600 } }),
      ),
    ).toEqual({ phase: 'confirming', remainingSeconds: 600, outTxIds: [] });
    expect(
      thorchainSwapProgress(
        statusOf({ inbound_finalised: { completed: true }, swap_status: { pending: true } }),
      ).phase,
    ).toBe('swapping');
    expect(
      thorchainSwapProgress(
        statusOf({
          inbound_finalised: { completed: true },
          swap_status: { pending: true, streaming: { interval: 1, quantity: 5, count: 2 } },
        }),
      ),
    ).toEqual({ phase: 'streaming', streaming: { count: 2, quantity: 5 }, outTxIds: [] });
    expect(
      thorchainSwapProgress(
        statusOf({
          swap_status: { pending: false },
          swap_finalised: { completed: true },
          outbound_delay: { completed: false, remaining_delay_seconds: 12 },
        }),
      ),
    ).toMatchObject({ phase: 'outbound-delay', remainingSeconds: 12 });
    expect(
      thorchainSwapProgress(
        statusOf({
          swap_finalised: { completed: true },
          outbound_delay: { completed: true },
          outbound_signed: { completed: false },
        }),
      ).phase,
    ).toBe('outbound-signing');
  });

  it('ends completed with the payout, or refunded when every planned outbound is a refund', () => {
    const done = { swap_finalised: { completed: true }, outbound_signed: { completed: true } };
    const out = { id: 'B'.repeat(64), chain: 'BASE', memo: `OUT:${HASH}` };
    expect(
      thorchainSwapProgress(
        statusOf(done, {
          planned_out_txs: [
            { chain: 'BASE', to_address: '0x1', coin: { asset: 'BASE.ETH', amount: '1' }, refund: false },
          ],
          out_txs: [out],
        }),
      ),
    ).toEqual({ phase: 'completed', outTxIds: ['B'.repeat(64)] });
    expect(
      thorchainSwapProgress(
        statusOf(done, {
          planned_out_txs: [
            { chain: 'BTC', to_address: 'bc1q', coin: { asset: 'BTC.BTC', amount: '1' }, refund: true },
          ],
          out_txs: [{ ...out, memo: `REFUND:${HASH}` }],
        }),
      ).phase,
    ).toBe('refunded');
  });
});
