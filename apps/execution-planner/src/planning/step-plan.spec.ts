import { CodedError } from '@swapgw/contracts';
import { getAddress, Signature, Wallet } from 'ethers';
import { devnetBridgeInterface, erc20Interface, uniswapV2RouterInterface } from './calldata';
import { RouteLeg, RoutePlan, TokenRef } from '@swapgw/contracts';
import { balanceKey, balancesToRead, planSteps, StepPlanContext } from './step-plan';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const ROUTER_A = getAddress('0x' + 'a1'.repeat(20));
const BRIDGE_A = getAddress('0x' + 'b1'.repeat(20));
const ROUTER_B = getAddress('0x' + 'a2'.repeat(20));
const token = (chain: string, symbol: string, address: string | null, decimals: number): TokenRef => ({ chain, symbol, address, decimals });
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)), 6);
const WETH_A = token('devnet-a', 'WETH', getAddress('0x' + '22'.repeat(20)), 18);
const ETH_A = token('devnet-a', 'ETH', null, 18);
const USDC_B = token('devnet-b', 'USDC', getAddress('0x' + '33'.repeat(20)), 6);
const DAI_B = token('devnet-b', 'DAI', getAddress('0x' + '44'.repeat(20)), 18);

const NOW_MS = 1_800_000_000_000;
const context: StepPlanContext = {
  nowMs: NOW_MS,
  swapDeadlineSeconds: 3600,
  evmChainIdOf: (chain) => ({ 'devnet-a': 31337, 'devnet-b': 31338 })[chain] ?? Number.NaN,
  familyOf: () => 'evm',
  balancesBefore: new Map([[balanceKey('devnet-b', USDC_B.address), 5_000_000n]]),
};

const leg = (overrides: Partial<RouteLeg>): RouteLeg => ({
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: USDC_A,
  tokenOut: WETH_A,
  amountIn: '1500000',
  expectedAmountOut: '500000000000000',
  minAmountOut: '497500000000000',
  spender: ROUTER_A,
  path: [USDC_A.address!, WETH_A.address!],
  estimatedDurationSeconds: 15,
  ...overrides,
});

const planOf = (legs: RouteLeg[]): RoutePlan => ({
  quoteId: 'q_1',
  routeId: 'r_1',
  expiresAtMs: NOW_MS + 60_000,
  fromChain: legs[0].chain,
  toChain: legs[legs.length - 1].tokenOut.chain,
  tokenIn: legs[0].tokenIn,
  tokenOut: legs[legs.length - 1].tokenOut,
  amountIn: legs[0].amountIn,
  expectedAmountOut: legs[legs.length - 1].expectedAmountOut,
  slippageBps: 50,
  providers: legs.map((l) => l.provider),
  legs,
});

describe('planSteps', () => {
  it('puts an approve of exactly amountIn to the router before an ERC-20 swap, encoded for the router', () => {
    const steps = planSteps(planOf([leg({})]), { userAddress: USER }, context);

    expect(steps.map((s) => [s.index, s.kind, s.chain])).toEqual([
      [1, 'approve', 'devnet-a'],
      [2, 'swap', 'devnet-a'],
    ]);
    const [approve, swap] = steps;
    expect(approve.call!.to).toBe(USDC_A.address);
    expect(approve.approve).toEqual({ token: USDC_A.address, spender: ROUTER_A, amount: '1500000' });
    const approveArgs = erc20Interface.decodeFunctionData('approve', approve.call!.data);
    expect([approveArgs[0], approveArgs[1]]).toEqual([ROUTER_A, 1_500_000n]);

    expect(swap.call!.to).toBe(ROUTER_A);
    expect(swap.call!.value).toBe('0');
    const parsed = uniswapV2RouterInterface.parseTransaction({ data: swap.call!.data })!;
    expect(parsed.name).toBe('swapExactTokensForTokens');
    expect(parsed.args.toArray().map(String)).toEqual([
      '1500000',
      '497500000000000',
      [USDC_A.address, WETH_A.address].join(','),
      USER,
      String(NOW_MS / 1000 + 3600),
    ]);
  });

  it('sends native ETH as value with swapExactETHForTokens and needs no approve', () => {
    const steps = planSteps(
      planOf([leg({ tokenIn: ETH_A, tokenOut: USDC_A, amountIn: '1000000000000000000', minAmountOut: '2980000000', path: [WETH_A.address!, USDC_A.address!] })]),
      { userAddress: USER, recipient: OTHER },
      context,
    );
    expect(steps).toHaveLength(1);
    expect(steps[0].call!.value).toBe('1000000000000000000');
    const parsed = uniswapV2RouterInterface.parseTransaction({ data: steps[0].call!.data, value: 10n ** 18n })!;
    expect(parsed.name).toBe('swapExactETHForTokens');
    expect(parsed.args[0]).toBe(2_980_000_000n);
    expect(parsed.args[2]).toBe(OTHER); // the final leg pays the requested recipient
  });

  it('uses swapExactTokensForETH when the output is native ETH', () => {
    const steps = planSteps(
      planOf([leg({ tokenOut: ETH_A, path: [USDC_A.address!, WETH_A.address!] })]),
      { userAddress: USER },
      context,
    );
    expect(uniswapV2RouterInterface.parseTransaction({ data: steps[1].call!.data })!.name).toBe('swapExactTokensForETH');
  });

  it('expands a cross-chain route into approve → deposit on the source and approve → swap gated on the bridged balance', () => {
    const bridge = leg({
      kind: 'bridge',
      provider: 'devnet-bridge',
      tokenIn: USDC_A,
      tokenOut: USDC_B,
      amountIn: '10000000',
      expectedAmountOut: '9990000',
      minAmountOut: '9990000',
      spender: BRIDGE_A,
      destinationChain: 'devnet-b',
      path: undefined,
    });
    const swapOnB = leg({
      chain: 'devnet-b',
      tokenIn: USDC_B,
      tokenOut: DAI_B,
      amountIn: '9990000',
      expectedAmountOut: '9980000000000000000',
      minAmountOut: '9930000000000000000',
      spender: ROUTER_B,
      path: [USDC_B.address!, DAI_B.address!],
    });
    const plan = planOf([bridge, swapOnB]);
    expect(balancesToRead(plan, () => USER)).toEqual([{ chain: 'devnet-b', token: USDC_B.address, holder: USER }]);

    const steps = planSteps(plan, { userAddress: USER, recipient: OTHER }, context);

    expect(steps.map((s) => `${s.kind}@${s.chain}`)).toEqual(['approve@devnet-a', 'bridge@devnet-a', 'approve@devnet-b', 'swap@devnet-b']);
    const deposit = devnetBridgeInterface.decodeFunctionData('deposit', steps[1].call!.data);
    expect([deposit[0], deposit[1], deposit[2]]).toEqual([10_000_000n, 31338n, USER]); // bridged to the user, who swaps on B
    expect(steps[1].call!.to).toBe(BRIDGE_A);
    expect(steps[0].waitFor).toBeUndefined();
    expect(steps[1].waitFor).toBeUndefined();
    const expectedWait = { token: USDC_B.address, holder: USER, minBalance: String(5_000_000n + 9_990_000n) };
    expect(steps[2].waitFor).toEqual(expectedWait);
    expect(steps[3].waitFor).toEqual(expectedWait);
    expect(uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', steps[3].call!.data)[3]).toBe(OTHER);
  });

  it('spends only what the previous leg guarantees and scales that leg’s minimum out', () => {
    const first = leg({ tokenIn: WETH_A, tokenOut: USDC_A, amountIn: '1000', expectedAmountOut: '3000', minAmountOut: '2900', path: [WETH_A.address!, USDC_A.address!] });
    const second = leg({ tokenIn: USDC_A, tokenOut: WETH_A, amountIn: '3000', expectedAmountOut: '990', minAmountOut: '960' });
    const steps = planSteps(planOf([first, second]), { userAddress: USER }, context);
    const args = uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', steps[3].call!.data);
    expect([args[0], args[1]]).toEqual([2900n, 928n]); // 960 * 2900 / 3000
    expect(steps[2].approve!.amount).toBe('2900');
  });

  it('uses an aggregator’s prebuilt call as it is', () => {
    const call = { to: ROUTER_A, data: '0xdeadbeef', value: '0' };
    const steps = planSteps(planOf([leg({ provider: 'aggregator', call, path: undefined })]), { userAddress: USER }, context);
    expect(steps[1].call).toEqual(call);
  });

  describe('EIP-2612 permit', () => {
    const permitDeadline = NOW_MS + 600_000;

    it('replaces the first approve by the user’s permit() call with the signature and the deadline in seconds', async () => {
      const wallet = Wallet.createRandom();
      const signature = Signature.from(await wallet.signMessage('any 65-byte signature'));
      const steps = planSteps(
        planOf([leg({})]),
        { userAddress: USER, permitType: 'eip2612', permitDeadline, permitSignatureCompact: { r: signature.r, vs: signature.yParityAndS } },
        context,
      );
      expect(steps.map((s) => s.kind)).toEqual(['approve', 'swap']);
      const args = erc20Interface.decodeFunctionData('permit', steps[0].call!.data);
      expect(args.toArray()).toEqual([USER, ROUTER_A, 1_500_000n, BigInt(permitDeadline / 1000), BigInt(signature.v), signature.r, signature.s]);
      expect(steps[0].approve).toEqual({ token: USDC_A.address, spender: ROUTER_A, amount: '1500000' });
    });

    it.each([
      ['permit2', { permitType: 'permit2' as const }],
      ['eip2612 without a signature', { permitType: 'eip2612' as const, permitDeadline }],
      ['eip2612 without a deadline', { permitType: 'eip2612' as const, permitSignature: { v: 27, r: '0x' + '1'.repeat(64), s: '0x' + '2'.repeat(64) } }],
      ['a deadline in the past', { permitType: 'eip2612' as const, permitDeadline: NOW_MS - 1, permitSignature: { v: 27, r: '0x' + '1'.repeat(64), s: '0x' + '2'.repeat(64) } }],
    ])('rejects %s with VALIDATION_FAILED', (_name, permit) => {
      expect(() => planSteps(planOf([leg({})]), { userAddress: USER, ...permit }, context)).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED' }) as unknown as CodedError,
      );
    });
  });
});
