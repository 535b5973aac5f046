import { ChainRegistry } from '@swapgw/chains';
import type { ThornodePool } from '@swapgw/chains/bitcoin-bridge';
import { completeDevnetManifest } from '@swapgw/chains/devnet-manifest/fixture';
import { PairToken, SupportPolicy } from './support-policy';

// The catalog's THORChain pairs against THORNode's pools: the devnet's manifest (devnet-a named
// ETH, devnet-b BASE by its local THORNode), pools as GET /thorchain/pools lists them.

const PREFIXES = { 'devnet-a': 'ETH', 'devnet-b': 'BASE' };

function registry(): ChainRegistry {
  const manifest = completeDevnetManifest();
  manifest.bitcoin!.bridge.thornode = { url: 'http://127.0.0.1:4', chains: PREFIXES };
  return new ChainRegistry({ manifest });
}

function pool(asset: string, status = 'Available'): ThornodePool {
  return {
    asset,
    status,
    pending_inbound_asset: '0',
    pending_inbound_rune: '0',
    balance_asset: '100000000000',
    balance_rune: '9000000000000000',
    pool_units: '9000000000000000',
    LP_units: '9000000000000000',
    synth_units: '0',
    synth_supply: '0',
  };
}

describe('SupportPolicy: THORChain pairs by its pools', () => {
  const chains = registry();
  const devnetA = completeDevnetManifest().chains[0];
  const btc: PairToken = { symbol: 'BTC', address: null };
  const usdc: PairToken = { symbol: 'USDC', address: devnetA.tokens.USDC.address };
  const weth: PairToken = { symbol: 'WETH', address: devnetA.tokens.WETH.address };
  const eth: PairToken = { symbol: 'ETH', address: null };
  const usdcAsset = `ETH.USDC-${usdc.address!.toUpperCase()}`;
  const policyOf = () => new SupportPolicy(chains, { lifiEnabled: false, thorchainPrefixes: PREFIXES });

  it('lists THORChain for every pair it names while THORNode has not answered: the quote decides', () => {
    const policy = policyOf();
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, usdc)).toEqual(['thorchain']);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, weth)).toEqual(['thorchain']);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', eth, btc)).toEqual(['thorchain']);
    expect(policy.tokenProviders('bitcoin-devnet', 'BTC')).toEqual(['thorchain']);
  });

  it('lists a pair only where BTC.BTC and the other token have an Available pool, contract and all', () => {
    const policy = policyOf();
    policy.useThorchainPools([pool('BTC.BTC'), pool(usdcAsset), pool(`BASE.USDC-${usdc.address}`, 'Staged')]);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, usdc)).toEqual(['thorchain']);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', usdc, btc)).toEqual(['thorchain']);
    // No WETH pool, and ETH.ETH (the gas asset) has none either.
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, weth)).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', weth, btc)).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', eth, btc)).toEqual([]);
    // Another contract under the same symbol is another asset.
    const otherUsdc = { symbol: 'USDC', address: `0x${'12'.repeat(20)}` };
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, otherUsdc)).toEqual([]);
    // devnet-b's USDC pool is Staged: THORChain refunds swaps through it.
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-b', btc, usdc)).toEqual([]);
    expect(policy.tokenProviders('devnet-b')).not.toContain('thorchain');
    expect(policy.tokenProviders('devnet-a')).toContain('thorchain');
    expect(policy.tokenProviders('bitcoin-devnet', 'BTC')).toEqual(['thorchain']);
    // Pairs THORChain never served stay as they were: the devnet bridge between the EVM devnets.
    expect(policy.pairProviders('devnet-a', 'devnet-b', usdc, usdc)).toEqual(['devnet-bridge']);
  });

  it('names a native coin by its gas asset (ETH.ETH) and reads assets case-insensitively', () => {
    const policy = policyOf();
    policy.useThorchainPools([pool('btc.btc'), pool('eth.eth'), pool(usdcAsset.toLowerCase())]);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', eth, btc)).toEqual(['thorchain']);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, usdc)).toEqual(['thorchain']);
  });

  it('lists no BTC route, and BTC unsupported, when BTC.BTC is not Available', () => {
    const policy = policyOf();
    policy.useThorchainPools([pool('BTC.BTC', 'Suspended'), pool(usdcAsset)]);
    expect(policy.pairProviders('bitcoin-devnet', 'devnet-a', btc, usdc)).toEqual([]);
    expect(policy.pairProviders('devnet-a', 'bitcoin-devnet', usdc, btc)).toEqual([]);
    expect(policy.tokenProviders('bitcoin-devnet', 'BTC')).toEqual([]);
    expect(policy.tokenProviders('devnet-a')).not.toContain('thorchain');
  });

  it('answers whether the Available pools changed, so the catalog recomputes only then', () => {
    const policy = policyOf();
    expect(policy.useThorchainPools([])).toBe(true); // the first answer, even empty, narrows the pairs
    expect(policy.useThorchainPools([pool('BTC.BTC', 'Staged')])).toBe(false);
    expect(policy.useThorchainPools([pool('BTC.BTC')])).toBe(true);
    expect(policy.useThorchainPools([pool('btc.btc')])).toBe(false);
    expect(policy.useThorchainPools([pool('BTC.BTC'), pool(usdcAsset)])).toBe(true);
    expect(policy.useThorchainPools([pool(usdcAsset)])).toBe(true);
  });
});
