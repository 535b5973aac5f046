import { ChainRegistry, type DevnetManifestView } from '@swapgw/chains';
import { cosmosFeeRatesOf } from '@swapgw/chains/families';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import { type ChainFeeQuote, gasCoverageOf } from '../../quote/gas-coverage';
import { cosmosLegCoverageOf } from './cosmos-gas-coverage';

const cosmosChain = (id: string, prefix: string, denom: string, symbol: string, minGasPrice: string) => ({
  id,
  name: id,
  family: 'cosmos' as const,
  chainId: id,
  rpc: 'http://127.0.0.1:1',
  rest: 'http://127.0.0.1:2',
  bech32Prefix: prefix,
  nativeDenom: denom,
  nativeSymbol: symbol,
  decimals: 6,
  minGasPrice,
  blockMs: 1000,
  accounts: [],
  ibcChannels: {},
});

const registry = new ChainRegistry({
  manifest: {
    generatedAtMs: 1,
    chains: [],
    accounts: [],
    cosmos: [
      cosmosChain('cosmoshub-devnet', 'cosmos', 'uatom', 'ATOM', '0.005uatom'),
      cosmosChain('osmosis-devnet', 'osmo', 'uosmo', 'OSMO', '0.0025uosmo'),
    ],
  } as unknown as DevnetManifestView,
});

const coin = (chain: string, symbol: string, denom: string): TokenRef => ({
  chain,
  symbol,
  address: denom,
  decimals: 6,
});
const ATOM = coin('cosmoshub-devnet', 'ATOM', 'uatom');
const ATOM_ON_OSMOSIS = coin('osmosis-devnet', 'ATOM', 'ibc/27394F');
const OSMO = coin('osmosis-devnet', 'OSMO', 'uosmo');
const USDC_ON_OSMOSIS = coin('osmosis-devnet', 'USDC', 'ibc/498A07');

const leg = (
  over: Partial<RouteLeg> & Pick<RouteLeg, 'kind' | 'chain' | 'tokenIn' | 'tokenOut'>,
): RouteLeg => ({
  provider: 'osmosis',
  amountIn: '1000000',
  expectedAmountOut: '1',
  minAmountOut: '1',
  spender: 'osmo1pool',
  estimatedDurationSeconds: 5,
  ...over,
});
const transfer = leg({
  kind: 'bridge',
  chain: 'cosmoshub-devnet',
  provider: 'ibc',
  tokenIn: ATOM,
  tokenOut: ATOM_ON_OSMOSIS,
  destinationChain: 'osmosis-devnet',
});
const swapOnArrival = leg({
  kind: 'swap',
  chain: 'osmosis-devnet',
  tokenIn: ATOM_ON_OSMOSIS,
  tokenOut: OSMO,
});
const rates = new Map<string, ChainFeeQuote>([
  ['cosmoshub-devnet', { ...cosmosFeeRatesOf('0.005uatom'), source: 'node' }],
  ['osmosis-devnet', { ...cosmosFeeRatesOf('0.0025uosmo'), source: 'node' }],
]);

describe('cosmosLegCoverageOf', () => {
  it('ATOM → OSMO: the IBC transfer is signed (with the grant before it), the swap on arrival is not', () => {
    expect([...cosmosLegCoverageOf(registry, [transfer, swapOnArrival])]).toEqual([
      [0, { cosmosSigned: true, cosmosFeeGrant: true }],
    ]);
  });

  it('two signed legs on one chain count one grant', () => {
    const swap = (tokenIn: TokenRef, tokenOut: TokenRef) =>
      leg({ kind: 'swap', chain: 'osmosis-devnet', tokenIn, tokenOut });
    const coverage = cosmosLegCoverageOf(registry, [
      swap(OSMO, USDC_ON_OSMOSIS),
      { ...swap(USDC_ON_OSMOSIS, OSMO), provider: 'other' },
    ]);
    expect([...coverage]).toEqual([
      [0, { cosmosSigned: true, cosmosFeeGrant: true }],
      [1, { cosmosSigned: true, cosmosFeeGrant: false }],
    ]);
  });
});

describe('gasCoverageOf a Cosmos route', () => {
  it("prices the Hub's grant and transfer at 0.005uatom, in uatom, the swap on arrival at nothing", () => {
    const coverage = gasCoverageOf(registry, [transfer, swapOnArrival], rates);
    expect(coverage).toEqual({
      paidBy: 'service',
      userPays: '0',
      chains: [
        {
          chain: 'cosmoshub-devnet',
          nativeSymbol: 'ATOM',
          nativeDecimals: 6,
          estimatedGasUnits: '500000',
          feePerGasBaseUnits: '1',
          gasPrice: '0.005uatom',
          feeSource: 'node',
          estimatedCostBaseUnits: '2500',
          estimatedCostFormatted: '0.0025',
          breakdown: [
            { kind: 'cosmos-fee-grant', leg: 0, estimatedGasUnits: '200000', estimatedCostBaseUnits: '1000' },
            {
              kind: 'cosmos-transaction',
              leg: 0,
              estimatedGasUnits: '300000',
              estimatedCostBaseUnits: '1500',
            },
          ],
        },
        {
          chain: 'osmosis-devnet',
          nativeSymbol: 'OSMO',
          nativeDecimals: 6,
          estimatedGasUnits: '0',
          feePerGasBaseUnits: '1',
          gasPrice: '0.0025uosmo',
          feeSource: 'node',
          estimatedCostBaseUnits: '0',
          estimatedCostFormatted: '0',
          breakdown: [],
        },
      ],
    });
  });

  it('a chain whose figures were not read is priced at its own minimum gas price, marked fallback', () => {
    const swap = leg({ kind: 'swap', chain: 'osmosis-devnet', tokenIn: OSMO, tokenOut: USDC_ON_OSMOSIS });
    const [osmosis] = gasCoverageOf(registry, [swap], new Map()).chains;
    expect(osmosis).toMatchObject({
      gasPrice: '0.0025uosmo',
      feeSource: 'fallback',
      // 200,000 × 0.0025 = 500 and 300,000 × 0.0025 = 750 uosmo.
      estimatedCostBaseUnits: '1250',
    });
  });
});
