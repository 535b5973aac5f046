import { type SponsoredLegView, sponsoredStepsOfLeg, sponsoredTotalsOfRoute } from '../../sponsored-gas';
import {
  cosmosFeeOf,
  cosmosFeeRatesOf,
  cosmosGasPriceText,
  parseCosmosGasPrice,
  SPONSORED_COSMOS_GAS,
} from './cosmos-sponsored-gas';

const hubLeg = (over: Partial<SponsoredLegView> = {}): SponsoredLegView => ({
  kind: 'bridge',
  chain: 'cosmoshub-devnet',
  family: 'cosmos',
  tokenIn: { address: 'uatom' },
  tokenOut: { address: 'ibc/27394F' },
  destinationChain: 'osmosis-devnet',
  destinationFamily: 'cosmos',
  ...over,
});

describe('Cosmos gas prices', () => {
  it('reads a fractional minimum gas price and writes it back as the chain names it', () => {
    expect(parseCosmosGasPrice('0.005uatom')).toEqual({ denom: 'uatom', numerator: 5n, denominator: 1000n });
    expect(cosmosGasPriceText(parseCosmosGasPrice('0.005uatom'))).toBe('0.005uatom');
    expect(cosmosGasPriceText(parseCosmosGasPrice('0.0250uosmo'))).toBe('0.025uosmo');
    expect(cosmosGasPriceText(parseCosmosGasPrice('2uusdc'))).toBe('2uusdc');
    expect(cosmosGasPriceText(parseCosmosGasPrice('1.50ibc/ABC'))).toBe('1.5ibc/ABC');
    expect(() => parseCosmosGasPrice('0.005')).toThrow(/not a gas price/);
  });

  it('charges the whole gas limit at the price, rounded up to a whole base unit (what the chain requires)', () => {
    const atom = parseCosmosGasPrice('0.0025uatom');
    expect(cosmosFeeOf(200_000n, atom)).toBe(500n);
    expect(cosmosFeeOf(200_001n, atom)).toBe(501n);
    expect(cosmosFeeOf(1n, atom)).toBe(1n);
    expect(cosmosFeeOf(0n, atom)).toBe(0n);
  });

  it('rates: the exact price, and an integer per-gas price rounded up (never 0 for a positive price)', () => {
    expect(cosmosFeeRatesOf('0.005uatom')).toMatchObject({ feePerGas: 1n, tokenAccountRent: 0n });
    expect(cosmosFeeRatesOf('3uusdc').feePerGas).toBe(3n);
    expect(cosmosFeeRatesOf('1.2uusdc').feePerGas).toBe(2n);
  });
});

describe('sponsored steps of a Cosmos leg', () => {
  it('a signed leg: the grant that may come first, then the transaction, in gas', () => {
    expect(sponsoredStepsOfLeg(hubLeg({ cosmosSigned: true, cosmosFeeGrant: true }), 0)).toEqual([
      {
        kind: 'cosmos-fee-grant',
        chain: 'cosmoshub-devnet',
        family: 'cosmos',
        leg: 0,
        gasUnits: SPONSORED_COSMOS_GAS.feeGrant,
        tokenAccounts: 0,
      },
      {
        kind: 'cosmos-transaction',
        chain: 'cosmoshub-devnet',
        family: 'cosmos',
        leg: 0,
        gasUnits: SPONSORED_COSMOS_GAS.transaction,
        tokenAccounts: 0,
      },
    ]);
    expect(sponsoredStepsOfLeg(hubLeg({ cosmosSigned: true }), 2).map((s) => s.kind)).toEqual([
      'cosmos-transaction',
    ]);
  });

  it('a leg that signs nothing (a swap run on arrival) costs nothing, and nothing is paid on the destination', () => {
    const swap = hubLeg({ kind: 'swap', chain: 'osmosis-devnet', destinationChain: undefined });
    expect(sponsoredStepsOfLeg(swap, 1)).toEqual([]);
    expect(sponsoredStepsOfLeg(hubLeg({ cosmosSigned: true }), 0).map((s) => s.chain)).toEqual([
      'cosmoshub-devnet',
    ]);
  });

  it('prices each transaction at the exact price, rounded up per transaction', () => {
    const rates = cosmosFeeRatesOf('0.005uatom');
    const [hub, osmosis] = sponsoredTotalsOfRoute(
      [
        hubLeg({ cosmosSigned: true, cosmosFeeGrant: true }),
        hubLeg({ kind: 'swap', chain: 'osmosis-devnet' }),
      ],
      () => rates,
    );
    // 200,000 × 0.005 = 1,000 uatom; 300,000 × 0.005 = 1,500 uatom (not 500,000 at the rounded-up 1/gas).
    expect(hub).toMatchObject({ chain: 'cosmoshub-devnet', gasUnits: 500_000n, cost: 2_500n });
    expect(hub.steps.map((s) => s.cost)).toEqual([1_000n, 1_500n]);
    expect(osmosis).toMatchObject({ chain: 'osmosis-devnet', gasUnits: 0n, cost: 0n, steps: [] });
    const odd = sponsoredTotalsOfRoute([hubLeg({ cosmosSigned: true })], () =>
      cosmosFeeRatesOf('0.0033uatom'),
    );
    expect(odd[0].cost).toBe(990n);
    const rounded = sponsoredTotalsOfRoute([hubLeg({ cosmosSigned: true })], () =>
      cosmosFeeRatesOf('0.00333uatom'),
    );
    expect(rounded[0].cost).toBe(999n); // 999.0 exactly
    const up = sponsoredTotalsOfRoute([hubLeg({ cosmosSigned: true })], () =>
      cosmosFeeRatesOf('0.003333uatom'),
    );
    expect(up[0].cost).toBe(1_000n); // 999.9 rounded up
  });
});
