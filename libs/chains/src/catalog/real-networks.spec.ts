import { REAL_NETWORKS } from '../chain-descriptor';
import { ChainCatalogError, ChainDeployments, validateChainDeployments } from './chain-catalog';
import { CANONICAL_PERMIT2, REAL_NETWORK_CATALOG } from './real-networks';

const familyOf = (chain: string) => REAL_NETWORKS.find((c) => c.id === chain)?.family;
const entry = (chain: string) => REAL_NETWORK_CATALOG.find((e) => e.chain === chain)!;

describe('the shipped catalog of real networks', () => {
  it('covers every real network we sign on, and each entry passes the boot check', () => {
    expect(REAL_NETWORK_CATALOG.map((e) => e.chain).sort()).toEqual([
      'arbitrum',
      'base',
      'ethereum',
      'solana',
    ]);
    for (const e of REAL_NETWORK_CATALOG) {
      const family = familyOf(e.chain);
      expect(family === 'evm' || family === 'solana').toBe(true);
      expect(() => validateChainDeployments(e, family as 'evm' | 'solana')).not.toThrow();
    }
  });

  it('names the canonical contracts a wallet meets on mainnet', () => {
    for (const chain of ['ethereum', 'base', 'arbitrum']) {
      expect(entry(chain).permit2).toBe(CANONICAL_PERMIT2);
      const usdc = entry(chain).tokens.find((t) => t.symbol === 'USDC')!;
      expect(usdc).toMatchObject({ decimals: 6, permit: { name: 'USD Coin', version: '2' } });
    }
    expect(entry('base').wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(entry('ethereum').uniswapV2?.router).toBe('0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D');
    expect(entry('solana').tokens[0].address).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  });
});

describe('validateChainDeployments', () => {
  const good: ChainDeployments = JSON.parse(JSON.stringify(entry('base')));
  const broken = (change: (e: ChainDeployments) => void) => {
    const copy: ChainDeployments = JSON.parse(JSON.stringify(good));
    change(copy);
    return () => validateChainDeployments(copy, 'evm');
  };

  it('refuses an address whose checksum case is wrong, naming chain and field', () => {
    expect(broken((e) => (e.uniswapV3!.quoterV2 = e.uniswapV3!.quoterV2.replace('E', 'e')))).toThrow(
      /catalog base: uniswapV3\.quoterV2 .* is not in checksum form/,
    );
  });

  it('refuses a wrapped native coin that is not among the tokens, a duplicate symbol and an unknown fee tier', () => {
    expect(broken((e) => (e.wrappedNative = e.uniswapV2!.router))).toThrow(ChainCatalogError);
    expect(broken((e) => e.tokens.push({ ...e.tokens[0], address: e.uniswapV2!.factory }))).toThrow(
      /USDC twice/,
    );
    expect(broken((e) => (e.uniswapV3!.feeTiers = [300]))).toThrow(/feeTiers/);
    expect(broken((e) => (e.uniswapV2!.initCodeHash = '0x1234'))).toThrow(/initCodeHash is not 32 bytes/);
  });

  it('refuses a router without Permit2 and a Solana mint that is not base58', () => {
    expect(broken((e) => ((e.gatewayRouter = e.uniswapV2!.router), delete e.permit2))).toThrow(
      /needs permit2/,
    );
    const solana: ChainDeployments = JSON.parse(JSON.stringify(entry('solana')));
    solana.tokens[0].address = '0xnot-a-mint';
    expect(() => validateChainDeployments(solana, 'solana')).toThrow(/not a base58 address/);
  });
});
