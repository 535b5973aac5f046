import type { RouteLeg } from '@swapgw/contracts';
import type { LegStepChains, LegStepInput } from '../step-spec-family';
import { bitcoinStepOf, bitcoinStepSpecFamily } from './bitcoin-step-spec';
import { parseThorchainSwapMemo, thorchainAssetMatches } from './thorchain-memo';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const VAULT = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const WITH_NOBLE = {
  familyOf: (chain: string) =>
    chain === 'noble-devnet' ? 'cosmos' : chain.startsWith('bitcoin') ? 'bitcoin' : 'evm',
} as LegStepChains;
const BASE_USDC = 'BASE.USDC-0X833589FCD6EDB6E08F4C7C32D4F71B54BDA02913';

function legOf(extra: Partial<RouteLeg>): RouteLeg {
  return {
    kind: 'bridge',
    chain: 'bitcoin',
    provider: 'thorchain',
    tokenIn: { chain: 'bitcoin', symbol: 'BTC', address: null, decimals: 8 },
    tokenOut: {
      chain: 'base',
      symbol: 'USDC',
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      decimals: 6,
    },
    amountIn: '1000000',
    expectedAmountOut: '900000000',
    minAmountOut: '891000000',
    spender: VAULT,
    destinationChain: 'base',
    estimatedDurationSeconds: 600,
    ...extra,
  };
}

function inputOf(leg: RouteLeg): LegStepInput {
  return {
    step: { legIndex: 0, kind: 'bridge', signing: 'bitcoin-psbt' },
    leg,
    spend: 1_000_000n,
    minOut: 891_234_567n,
    signer: 'bc1q-user',
    recipient: RECIPIENT,
    finalRecipient: RECIPIENT,
    deadline: 0n,
    sponsored: false,
  };
}

describe('the Bitcoin deposit step', () => {
  it('writes THORChain’s memo for a thorchain leg: its asset, the recipient, the minimum in 1e8 units, streaming and affiliate', () => {
    const leg = legOf({
      thorchain: {
        asset: BASE_USDC,
        streamingInterval: 1,
        streamingQuantity: 3,
        affiliate: 'sg',
        affiliateBps: 20,
        expiry: 2_000_000_000,
      },
    });
    const spec = bitcoinStepOf(inputOf(leg), {} as LegStepChains);
    expect(spec.bitcoin).toMatchObject({ kind: 'bridge-deposit', vault: VAULT, amount: '1000000' });
    const memo = parseThorchainSwapMemo(spec.bitcoin!.memo)!;
    expect(thorchainAssetMatches(memo.asset, BASE_USDC)).toBe(true);
    expect(memo).toMatchObject({
      destination: RECIPIENT,
      // 891.234567 USDC is 89123456700 in 1e8 units, written in 4 digits to fit the OP_RETURN.
      limit: 89_120_000_000n,
      streamingInterval: 1,
      streamingQuantity: 3,
      affiliates: [{ name: 'sg', bps: 20 }],
    });
    expect(Buffer.byteLength(spec.bitcoin!.memo)).toBeLessThanOrEqual(80);
  });

  it('deposits the fees THORChain takes as affiliates with the spend, and pays others as outputs beside the deposit', () => {
    const thorchain = {
      asset: BASE_USDC,
      streamingInterval: 0,
      streamingQuantity: 0,
      affiliates: [{ name: 'wallet', bps: 30 }],
      expiry: 2_000_000_000,
    };
    const leg = legOf({ thorchain });
    const byThorchain = bitcoinStepOf(
      { ...inputOf(leg), integratorFees: [{ recipient: 'wallet', amount: 3_000n }] },
      {} as LegStepChains,
    );
    expect(byThorchain.bitcoin).toMatchObject({ amount: '1003000' });
    expect(byThorchain.bitcoin?.integratorFees).toBeUndefined();
    expect(parseThorchainSwapMemo(byThorchain.bitcoin!.memo)?.affiliates).toEqual([
      { name: 'wallet', bps: 30 },
    ]);
    const asOutputs = bitcoinStepOf(
      {
        ...inputOf(legOf({ thorchain: { ...thorchain, affiliates: [] } })),
        integratorFees: [{ recipient: 'bc1qfee', amount: 3_000n }],
      },
      {} as LegStepChains,
    );
    expect(asOutputs.bitcoin).toMatchObject({
      amount: '1000000',
      integratorFees: [{ recipient: 'bc1qfee', amount: '3000' }],
    });
  });

  it('refuses a leg that is not THORChain’s but towards Noble: BTC moves through THORChain, the devnet bridge only to Noble', () => {
    const leg = legOf({
      provider: 'devnet-bridge',
      chain: 'bitcoin-devnet',
      destinationChain: 'devnet-a',
      tokenOut: {
        chain: 'devnet-a',
        symbol: 'USDC',
        address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        decimals: 6,
      },
    });
    expect(() => bitcoinStepOf(inputOf(leg), WITH_NOBLE)).toThrow(
      'Leg 0 on bitcoin-devnet: Bitcoin legs are THORChain deposits',
    );
  });

  it('deposits into the devnet bridge’s Bitcoin end towards Noble: the bridge’s memo naming the noble1 account and the minimum in uusdc', () => {
    const nobleRecipient = 'noble1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5hpek7j';
    const leg = legOf({
      provider: 'devnet-bridge',
      chain: 'bitcoin-devnet',
      destinationChain: 'noble-devnet',
      spender: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
      tokenOut: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
    });
    const input = { ...inputOf(leg), recipient: nobleRecipient, finalRecipient: nobleRecipient };
    expect(bitcoinStepOf(input, WITH_NOBLE)).toEqual({
      kind: 'bridge',
      call: null,
      bitcoin: {
        kind: 'bridge-deposit',
        vault: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
        amount: '1000000',
        memo: `=:noble-devnet.USDC:${nobleRecipient}:891234567`,
      },
      sponsored: { mode: 'bitcoin-fee-wallet' },
    });
    // Settled by the mint on Noble; a THORChain deposit by THORChain's lane.
    expect(bitcoinStepSpecFamily.settlementOf?.(leg, WITH_NOBLE.familyOf)).toBe('cctp');
    expect(bitcoinStepSpecFamily.settlementOf?.(legOf({}), WITH_NOBLE.familyOf)).toBeUndefined();
  });
});
