import { getAddress } from 'ethers';
import {
  fromThorchainUnits,
  isThorchainAffiliate,
  thorchainAffiliatesTake,
  thorchainLegAffiliates,
  parseThorchainAsset,
  parseThorchainOutboundMemo,
  parseThorchainSwapMemo,
  thorchainAssetMatches,
  thorchainAssetOf,
  thorchainContractAddress,
  thorchainOutboundMemo,
  thorchainRefundMemo,
  thorchainSwapMemo,
  toThorchainUnits,
} from './thorchain-memo';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ETH_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const BC1Q = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('THORChain assets', () => {
  it('writes gas assets and tokens as THORNode does, contract upper-cased', () => {
    expect(thorchainAssetOf('BTC', { symbol: 'BTC', address: null })).toBe('BTC.BTC');
    expect(thorchainAssetOf('eth', { symbol: 'eth', address: null })).toBe('ETH.ETH');
    expect(thorchainAssetOf('BASE', { symbol: 'USDC', address: BASE_USDC })).toBe(
      'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
    );
    expect(thorchainAssetOf('ETH', { symbol: 'USDC', address: ETH_USDC })).toBe(
      'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
    );
  });

  it('reads assets in any case and gives the contract back checksummed', () => {
    const asset = parseThorchainAsset('arb.usdc-0xaf88d065e77c8cc2239327c5edb3a432268e5831');
    expect(asset).toEqual({
      chain: 'ARB',
      symbol: 'USDC',
      contract: '0XAF88D065E77C8CC2239327C5EDB3A432268E5831',
    });
    expect(thorchainContractAddress(asset!)).toBe(getAddress('0xaf88d065e77c8cc2239327c5edb3a432268e5831'));
    expect(parseThorchainAsset('BTC.BTC')).toEqual({ chain: 'BTC', symbol: 'BTC' });
  });

  it('refuses what is not an asset', () => {
    for (const text of ['BTC', 'BTC.', '.BTC', 'ETH.USDC-0X12', 'ETH.USDC-0XA0B8-X', 'BTC/BTC', 'BTC~BTC'])
      expect(parseThorchainAsset(text)).toBeUndefined();
    expect(() => thorchainAssetOf('ETH', { symbol: 'USDC', address: '0x1234' })).toThrow(/THORChain asset/);
  });
});

describe('THORChain swap memos', () => {
  it('writes the full grammar =:ASSET:DESTINATION:LIMIT/INTERVAL/QUANTITY:AFFILIATE:FEE', () => {
    expect(
      thorchainSwapMemo({
        asset: 'ETH.ETH',
        destination: EVM_RECIPIENT,
        limit: 1_234_567n,
        streamingInterval: 1,
        streamingQuantity: 0,
        affiliates: [{ name: 'sg', bps: 30 }],
      }),
    ).toBe(`=:ETH.ETH:${EVM_RECIPIENT}:1234567/1/0:sg:30`);
  });

  it('shortens a token memo to fit an OP_RETURN: the contract to its last digits, then the limit', () => {
    const memo = {
      asset: 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913',
      destination: EVM_RECIPIENT,
      limit: 8_820_000_000n,
      streamingInterval: 1,
      streamingQuantity: 0,
    };
    expect(thorchainSwapMemo(memo)).toBe(`=:BASE.USDC-2913:${EVM_RECIPIENT}:8820000000/1/0`);
    expect(thorchainSwapMemo({ ...memo, affiliates: [{ name: 'swapgw', bps: 30 }] })).toBe(
      `=:BASE.USDC-2913:${EVM_RECIPIENT}:882e7/1/0:swapgw:30`,
    );
    const rounded = thorchainSwapMemo({
      ...memo,
      limit: 8_823_456_789n,
      affiliates: [{ name: 'swapgw', bps: 30 }],
    });
    expect(rounded).toBe(`=:BASE.USDC-2913:${EVM_RECIPIENT}:8823e6/1/0:swapgw:30`);
    expect(Buffer.byteLength(rounded)).toBeLessThanOrEqual(80);
    const parsed = parseThorchainSwapMemo(rounded)!;
    expect(thorchainAssetMatches(parsed.asset, memo.asset)).toBe(true);
    expect(thorchainAssetMatches(parsed.asset, 'BASE.USDC-0X0000000000000000000000000000000000000001')).toBe(
      false,
    );
    expect(parsed.limit).toBe(8_823_000_000n);
  });

  it('leaves out empty trailing fields, as the quote writes them', () => {
    const base = { asset: 'BTC.BTC', destination: BC1Q, streamingInterval: 0, streamingQuantity: 0 };
    expect(thorchainSwapMemo({ ...base, limit: 0n })).toBe(`=:BTC.BTC:${BC1Q}`);
    expect(thorchainSwapMemo({ ...base, limit: 1234n })).toBe(`=:BTC.BTC:${BC1Q}:1234`);
    expect(thorchainSwapMemo({ ...base, limit: 0n, affiliates: [{ name: 'sg', bps: 0 }] })).toBe(
      `=:BTC.BTC:${BC1Q}::sg:0`,
    );
  });

  it('refuses a memo longer than an OP_RETURN carries, and fields THORChain would refuse', () => {
    const long = {
      asset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
      destination: EVM_RECIPIENT,
      limit: 123_456_789_012n,
      streamingInterval: 3,
      streamingQuantity: 10,
    };
    expect(() =>
      thorchainSwapMemo({
        ...long,
        affiliates: [{ name: 'thor1a427q3v96psuj4fnughdw8glt5r7j38lj7rkp8', bps: 50 }],
      }),
    ).toThrow(/more than the 80 of an OP_RETURN/);
    expect(() => thorchainSwapMemo({ ...long, affiliates: [{ name: 'sg', bps: 1001 }] })).toThrow(
      /bps must be 0 to 1000/,
    );
    expect(() =>
      thorchainSwapMemo({
        ...long,
        affiliates: ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, bps: 1 })),
      }),
    ).toThrow(/at most 5 affiliates/);
    expect(() => thorchainSwapMemo({ ...long, affiliates: [{ name: 'bad:name', bps: 1 }] })).toThrow(
      /not a THORName/,
    );
    expect(() => thorchainSwapMemo({ ...long, asset: 'USDC' })).toThrow(/not a THORChain asset/);
  });

  it('writes several affiliates as THORChain reads them: names and bps separated by /, one bps when all are equal', () => {
    const base = {
      asset: 'BTC.BTC',
      destination: BC1Q,
      limit: 1234n,
      streamingInterval: 0,
      streamingQuantity: 0,
    };
    const two = thorchainSwapMemo({
      ...base,
      affiliates: [
        { name: 'sg', bps: 10 },
        { name: 'wallet', bps: 25 },
      ],
    });
    expect(two).toBe(`=:BTC.BTC:${BC1Q}:1234:sg/wallet:10/25`);
    const same = thorchainSwapMemo({
      ...base,
      affiliates: [
        { name: 't1', bps: 10 },
        { name: 't2', bps: 10 },
      ],
    });
    expect(same).toBe(`=:BTC.BTC:${BC1Q}:1234:t1/t2:10`);
    // THORChain's own examples (its affiliate fee guide), read back.
    expect(parseThorchainSwapMemo(`=:ETH.ETH:${EVM_RECIPIENT}::t1/t2/t3/t4/t5:10`)?.affiliates).toEqual(
      ['t1', 't2', 't3', 't4', 't5'].map((name) => ({ name, bps: 10 })),
    );
    expect(
      parseThorchainSwapMemo(
        `=:ETH.ETH:${EVM_RECIPIENT}::t1/thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq/t3:10/20/30`,
      )?.affiliates,
    ).toEqual([
      { name: 't1', bps: 10 },
      { name: 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq', bps: 20 },
      { name: 't3', bps: 30 },
    ]);
    // And refused as THORChain refuses them: bps count neither 1 nor one each, more than 5.
    expect(parseThorchainSwapMemo(`=:ETH.ETH:${EVM_RECIPIENT}::t1/t2/t3/t4/t5:10/20`)).toBeUndefined();
    expect(parseThorchainSwapMemo(`=:ETH.ETH:${EVM_RECIPIENT}::t1/t2/t3/t4/t5/t6:10`)).toBeUndefined();
    expect(parseThorchainSwapMemo(two)?.affiliates).toEqual([
      { name: 'sg', bps: 10 },
      { name: 'wallet', bps: 25 },
    ]);
  });

  it('tells THORChain affiliates (THORNames, thor1 addresses) from addresses of other chains', () => {
    expect(isThorchainAffiliate('sg')).toBe(true);
    expect(isThorchainAffiliate('my-wallet_2+')).toBe(true);
    expect(isThorchainAffiliate('thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq')).toBe(true);
    expect(isThorchainAffiliate(EVM_RECIPIENT)).toBe(false);
    expect(isThorchainAffiliate('0x1234')).toBe(false);
    expect(isThorchainAffiliate(BC1Q)).toBe(false);
    expect(isThorchainAffiliate('a'.repeat(31))).toBe(false);
    expect(isThorchainAffiliate('has space')).toBe(false);
  });

  it("knows when a leg's memo carries integrator fees: every recipient named as an affiliate", () => {
    const thorchain = {
      asset: 'BTC.BTC',
      streamingInterval: 0,
      streamingQuantity: 0,
      affiliates: [
        { name: 'sg', bps: 10 },
        { name: 'Wallet', bps: 25 },
      ],
    };
    expect(thorchainAffiliatesTake(thorchain, [{ recipient: 'wallet' }])).toBe(true);
    expect(thorchainAffiliatesTake(thorchain, [{ recipient: 'wallet' }, { recipient: BC1Q }])).toBe(false);
    expect(thorchainAffiliatesTake(thorchain, [])).toBe(false);
    // An older message's single affiliate still reads.
    expect(
      thorchainLegAffiliates({ ...thorchain, affiliates: undefined, affiliate: 'sg', affiliateBps: 5 }),
    ).toEqual([{ name: 'sg', bps: 5 }]);
  });

  it('reads back what it writes, and the aliases and shorthand THORChain reads', () => {
    const memo = {
      asset: 'ARB.USDC-5831',
      destination: EVM_RECIPIENT,
      limit: 5_000_000n,
      streamingInterval: 2,
      streamingQuantity: 4,
      affiliates: [{ name: 'sg', bps: 25 }],
    };
    expect(parseThorchainSwapMemo(thorchainSwapMemo(memo))).toEqual(memo);
    expect(parseThorchainSwapMemo(`SWAP:btc.btc:${BC1Q}:12e3`)).toEqual({
      asset: 'BTC.BTC',
      destination: BC1Q,
      limit: 12_000n,
      streamingInterval: 0,
      streamingQuantity: 0,
    });
    expect(parseThorchainSwapMemo(`s:BTC.BTC:${BC1Q}`)?.limit).toBe(0n);
  });

  it('refuses memos that are not swaps or that THORChain would not parse', () => {
    for (const text of [
      `+:BTC.BTC:${BC1Q}`,
      `=:BTC:${BC1Q}`,
      `=:BTC.BTC:${BC1Q}:abc`,
      `=:BTC.BTC:${BC1Q}:1/2/3/4`,
      `=:ETH.USDC-XYZ:${EVM_RECIPIENT}`,
      `=:BTC.BTC:${BC1Q}:0:sg:2000`,
      `=:BTC.BTC:${BC1Q}:0:sg:x`,
      `=:BTC.BTC:short`,
      `=:devnet-a.USDC:${EVM_RECIPIENT}:0`,
    ])
      expect(parseThorchainSwapMemo(text)).toBeUndefined();
  });
});

describe('THORChain outbound memos and amounts', () => {
  const hash = 'ab'.repeat(32);

  it('names the inbound hash upper-cased, as THORNode does', () => {
    expect(thorchainOutboundMemo(`0x${hash}`)).toBe(`OUT:${hash.toUpperCase()}`);
    expect(thorchainRefundMemo(hash)).toBe(`REFUND:${hash.toUpperCase()}`);
    expect(parseThorchainOutboundMemo(`out:${hash}`)).toEqual({
      kind: 'out',
      inboundHash: hash.toUpperCase(),
    });
    expect(parseThorchainOutboundMemo(`REFUND:${hash.toUpperCase()}`)?.kind).toBe('refund');
    expect(parseThorchainOutboundMemo(`OUT:${hash.slice(2)}`)).toBeUndefined();
    expect(() => thorchainOutboundMemo('abc')).toThrow(/transaction hash/);
  });

  it('converts between base units and 1e8 units, rounding down', () => {
    expect(toThorchainUnits(1_234_567n, 6)).toBe(123_456_700n);
    expect(toThorchainUnits(10n ** 18n + 9n, 18)).toBe(100_000_000n);
    expect(toThorchainUnits(5_000n, 8)).toBe(5_000n);
    expect(fromThorchainUnits(123_456_789n, 6)).toBe(1_234_567n);
    expect(fromThorchainUnits(100_000_000n, 18)).toBe(10n ** 18n);
  });
});
