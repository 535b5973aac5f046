import { getAddress, ZeroAddress } from 'ethers';
import type { RouteLeg } from '@swapgw/contracts';
import type { LegStepChains, LegStepInput, StepSpecChains } from '../step-spec-family';
import { ACROSS_SPOKE_POOL_INTERFACE, addressToBytes32 } from './across-calldata';
import { erc20Interface } from './evm-calldata';
import { evmBridgePayoutOf, evmStepOf } from './evm-step-spec';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = getAddress('0x' + '5e'.repeat(20));
const SPOKE_POOL = '0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDC_ARBITRUM = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';

const acrossLeg: RouteLeg = {
  kind: 'bridge',
  chain: 'base',
  provider: 'across',
  tokenIn: { chain: 'base', symbol: 'USDC', address: USDC_BASE, decimals: 6 },
  tokenOut: { chain: 'arbitrum', symbol: 'USDC', address: USDC_ARBITRUM, decimals: 6 },
  amountIn: '1000000000',
  expectedAmountOut: '999670000',
  minAmountOut: '999670000',
  spender: SPOKE_POOL,
  destinationChain: 'arbitrum',
  destinationBridgeChainId: 42161,
  across: {
    spokePool: SPOKE_POOL,
    outputToken: USDC_ARBITRUM,
    outputAmount: '999670000',
    quoteTimestamp: 1_800_000_000,
    fillDeadline: 1_800_007_200,
    exclusiveRelayer: ZeroAddress,
    exclusivityDeadline: 0,
  },
  estimatedDurationSeconds: 2,
};

const evmChains: StepSpecChains = {
  familyOf: () => 'evm',
  evmChainIdOf: (chain) => ({ base: 8453, arbitrum: 42161 })[chain] ?? Number.NaN,
};
const chains: LegStepChains = {
  ...evmChains,
  bridgePayoutOf: (leg, recipient) => evmBridgePayoutOf(leg, recipient, evmChains),
  destinationSwapOf: () => {
    throw new Error('no bridge-swap here');
  },
};
const inputOf = (overrides: Partial<LegStepInput> = {}): LegStepInput => ({
  step: { legIndex: 0, kind: 'bridge', signing: 'evm-transaction' },
  leg: acrossLeg,
  spend: 1_000_000_000n,
  minOut: 999_670_000n,
  signer: WALLET,
  recipient: RECIPIENT,
  finalRecipient: RECIPIENT,
  deadline: 1_800_003_600n,
  sponsored: false,
  ...overrides,
});

describe('the across bridge leg on EVM', () => {
  it('is the wallet approving the SpokePool for what it spends', () => {
    const step = evmStepOf(
      inputOf({ step: { legIndex: 0, kind: 'approve', signing: 'evm-transaction', approves: 'spender' } }),
      chains,
    );
    expect(step.call?.to).toBe(USDC_BASE);
    expect(erc20Interface.decodeFunctionData('approve', step.call!.data).toArray()).toEqual([
      SPOKE_POOL,
      1_000_000_000n,
    ]);
  });

  it("then the SpokePool's deposit with every field of the quote, addresses as bytes32", () => {
    const step = evmStepOf(inputOf(), chains);
    expect(step.kind).toBe('bridge');
    expect(step.call).toMatchObject({ to: SPOKE_POOL, value: '0' });
    const args = ACROSS_SPOKE_POOL_INTERFACE.decodeFunctionData('deposit', step.call!.data);
    expect(args.toObject()).toEqual({
      depositor: addressToBytes32(WALLET),
      recipient: addressToBytes32(RECIPIENT),
      inputToken: addressToBytes32(USDC_BASE),
      outputToken: addressToBytes32(USDC_ARBITRUM),
      inputAmount: 1_000_000_000n,
      outputAmount: 999_670_000n,
      destinationChainId: 42161n,
      exclusiveRelayer: `0x${'0'.repeat(64)}`,
      quoteTimestamp: 1_800_000_000n,
      fillDeadline: 1_800_007_200n,
      exclusivityParameter: 0n,
      message: '0x',
    });
    expect(addressToBytes32(WALLET)).toBe(`0x${'0'.repeat(24)}${WALLET.slice(2).toLowerCase()}`);
  });

  it('asks for the output scaled like minOut when the wallet spends less than quoted, never more than quoted', () => {
    const lower = evmStepOf(inputOf({ spend: 500_000_000n, minOut: 499_835_000n }), chains);
    const lowerArgs = ACROSS_SPOKE_POOL_INTERFACE.decodeFunctionData('deposit', lower.call!.data);
    expect([lowerArgs.inputAmount, lowerArgs.outputAmount]).toEqual([500_000_000n, 499_835_000n]);
    const higher = evmStepOf(inputOf({ minOut: 2_000_000_000n }), chains);
    expect(ACROSS_SPOKE_POOL_INTERFACE.decodeFunctionData('deposit', higher.call!.data).outputAmount).toBe(
      999_670_000n,
    );
  });

  it('refuses a leg without deposit terms, and a permit', () => {
    expect(() => evmStepOf(inputOf({ leg: { ...acrossLeg, across: undefined } }), chains)).toThrow(
      'carries no deposit terms',
    );
    expect(() =>
      evmStepOf(
        inputOf({ permit: { kind: 'eip2612', deadline: 1n, v: 27, r: '0x', s: '0x' } as never }),
        chains,
      ),
    ).toThrow('cannot take a permit');
  });
});
