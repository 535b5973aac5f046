import { bridgeSwapLegOf } from '@swapgw/chains';
import { CodedError } from '@swapgw/contracts';
import { getAddress, MaxUint256, Signature, Wallet } from 'ethers';
import {
  devnetBridgeInterface,
  erc20Interface,
  swapGatewayRouterInterface,
  uniswapV2RouterInterface,
} from '@swapgw/chains/families';
import { RouteLeg, RoutePlan, TokenRef } from '@swapgw/contracts';
import { balanceKey, balancesToRead } from './bridged-balances';
import { planSteps, StepPlanContext } from './step-plan';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const ROUTER_A = getAddress('0x' + 'a1'.repeat(20));
const BRIDGE_A = getAddress('0x' + 'b1'.repeat(20));
const ROUTER_B = getAddress('0x' + 'a2'.repeat(20));
const token = (chain: string, symbol: string, address: string | null, decimals: number): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
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

/** 10 USDC through the devnet bridge from devnet-a to devnet-b. */
const usdcBridgeToB = (): RouteLeg =>
  leg({
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

/** The swap on devnet-b after a bridge from devnet-a: the bridged USDC into DAI. */
const usdcToDaiOnB = (): RouteLeg =>
  leg({
    chain: 'devnet-b',
    tokenIn: USDC_B,
    tokenOut: DAI_B,
    amountIn: '9990000',
    expectedAmountOut: '9980000000000000000',
    minAmountOut: '9930000000000000000',
    spender: ROUTER_B,
    path: [USDC_B.address!, DAI_B.address!],
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
      planOf([
        leg({
          tokenIn: ETH_A,
          tokenOut: USDC_A,
          amountIn: '1000000000000000000',
          minAmountOut: '2980000000',
          path: [WETH_A.address!, USDC_A.address!],
        }),
      ]),
      { userAddress: USER, recipient: OTHER },
      context,
    );
    expect(steps).toHaveLength(1);
    expect(steps[0].call!.value).toBe('1000000000000000000');
    const parsed = uniswapV2RouterInterface.parseTransaction({
      data: steps[0].call!.data,
      value: 10n ** 18n,
    })!;
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
    expect(uniswapV2RouterInterface.parseTransaction({ data: steps[1].call!.data })!.name).toBe(
      'swapExactTokensForETH',
    );
  });

  it('expands a cross-chain route into approve → deposit on the source and approve → swap gated on the bridged balance', () => {
    const bridge = usdcBridgeToB();
    const swapOnB = usdcToDaiOnB();
    const plan = planOf([bridge, swapOnB]);
    expect(balancesToRead(plan, () => USER, context.familyOf)).toEqual([
      { chain: 'devnet-b', token: USDC_B.address, holder: USER },
    ]);

    const steps = planSteps(plan, { userAddress: USER, recipient: OTHER }, context);

    expect(steps.map((s) => `${s.kind}@${s.chain}`)).toEqual([
      'approve@devnet-a',
      'bridge@devnet-a',
      'approve@devnet-b',
      'swap@devnet-b',
    ]);
    const deposit = devnetBridgeInterface.decodeFunctionData('deposit', steps[1].call!.data);
    expect([deposit[0], deposit[1], deposit[2]]).toEqual([10_000_000n, 31338n, USER]); // bridged to the user, who swaps on B
    expect(steps[1].call!.to).toBe(BRIDGE_A);
    expect(steps[0].waitFor).toBeUndefined();
    expect(steps[1].waitFor).toBeUndefined();
    const expectedWait = { token: USDC_B.address, holder: USER, minBalance: String(5_000_000n + 9_990_000n) };
    expect(steps[2].waitFor).toEqual(expectedWait);
    expect(steps[3].waitFor).toEqual(expectedWait);
    expect(
      uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', steps[3].call!.data)[3],
    ).toBe(OTHER);
  });

  it('spends only what the previous leg guarantees and scales that leg’s minimum out', () => {
    const first = leg({
      tokenIn: WETH_A,
      tokenOut: USDC_A,
      amountIn: '1000',
      expectedAmountOut: '3000',
      minAmountOut: '2900',
      path: [WETH_A.address!, USDC_A.address!],
    });
    const second = leg({
      tokenIn: USDC_A,
      tokenOut: WETH_A,
      amountIn: '3000',
      expectedAmountOut: '990',
      minAmountOut: '960',
    });
    const steps = planSteps(planOf([first, second]), { userAddress: USER }, context);
    const args = uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', steps[3].call!.data);
    expect([args[0], args[1]]).toEqual([2900n, 928n]); // 960 * 2900 / 3000
    expect(steps[2].approve!.amount).toBe('2900');
  });

  it('uses an aggregator’s prebuilt call as it is, for the wallet it was built for only', () => {
    const call = { to: ROUTER_A, data: '0xdeadbeef', value: '0', from: USER.toLowerCase() };
    const plan = planOf([leg({ provider: 'aggregator', call, path: undefined })]);
    const steps = planSteps(plan, { userAddress: USER }, context);
    expect(steps[1].call).toEqual({ to: ROUTER_A, data: '0xdeadbeef', value: '0' });
    // Another wallet would sign a call that spends and pays as the quoted one: 400, no payload.
    expect(() => planSteps(plan, { userAddress: OTHER }, context)).toThrow(
      expect.objectContaining({ code: 'INVALID_ADDRESS', message: expect.stringMatching(/was built for/) }),
    );
  });

  it('refuses an aggregator leg priced without a wallet (no call): quote again with the wallet as recipient', () => {
    const plan = planOf([leg({ provider: 'aggregator', call: undefined, path: undefined })]);
    expect(() => planSteps(plan, { userAddress: USER }, context)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/quote again/) }),
    );
  });

  describe('permits: the first leg is one SwapGatewayRouter call carrying the permit', () => {
    const PERMIT_ROUTER = getAddress('0x' + 'c1'.repeat(20));
    const PERMIT2 = getAddress('0x' + 'c2'.repeat(20));
    const permitContext: StepPlanContext = {
      ...context,
      permitContractsOf: (chain) =>
        chain === 'devnet-a'
          ? { permitRouter: PERMIT_ROUTER, permit2: PERMIT2, uniswapV2Router: ROUTER_A, bridge: BRIDGE_A }
          : undefined,
    };
    const permitDeadline = NOW_MS + 600_000;
    let signature: Signature;
    beforeAll(async () => {
      signature = Signature.from(await Wallet.createRandom().signMessage('any 65-byte signature'));
    });
    const permitArg = (data: string, method: string) =>
      swapGatewayRouterInterface.decodeFunctionData(method, data).at(-1) as { toArray(): unknown[] };
    const bridgeLeg = () =>
      leg({
        kind: 'bridge',
        provider: 'devnet-bridge',
        tokenOut: USDC_B,
        amountIn: '10000000',
        minAmountOut: '9990000',
        spender: BRIDGE_A,
        destinationChain: 'devnet-b',
        path: undefined,
      });

    it('eip2612: one step, the router’s swapWithFees with no fee, the signature and the deadline in seconds', () => {
      const steps = planSteps(
        planOf([leg({})]),
        {
          userAddress: USER,
          permitType: 'eip2612',
          permitDeadline,
          permitSignatureCompact: { r: signature.r, vs: signature.yParityAndS },
        },
        permitContext,
      );
      expect(steps.map((s) => [s.index, s.kind, s.call!.to, s.approve])).toEqual([
        [1, 'swap', PERMIT_ROUTER, undefined],
      ]);
      const [terms, path, fees] = swapGatewayRouterInterface.decodeFunctionData(
        'swapWithFees',
        steps[0].call!.data,
      );
      expect(terms.toArray()).toEqual([
        ROUTER_A,
        1_500_000n,
        497_500_000_000_000n,
        USER,
        false,
        BigInt(NOW_MS / 1000 + 3600),
      ]);
      expect(path.toArray()).toEqual([USDC_A.address, WETH_A.address]);
      expect(fees.toArray()).toEqual([]);
      expect(permitArg(steps[0].call!.data, 'swapWithFees').toArray()).toEqual([
        0n,
        0n,
        BigInt(permitDeadline / 1000),
        signature.serialized,
      ]);
    });

    it('eip2612 on a bridge route: depositWithFees (no fee) through the router, and the destination swap keeps its approve', () => {
      const swapOnB = usdcToDaiOnB();
      const steps = planSteps(
        planOf([bridgeLeg(), swapOnB]),
        {
          userAddress: USER,
          permitType: 'eip2612',
          permitDeadline,
          permitSignature: { v: signature.v, r: signature.r, s: signature.s },
        },
        permitContext,
      );
      expect(steps.map((s) => `${s.kind}@${s.chain}→${s.call!.to}`)).toEqual([
        `bridge@devnet-a→${PERMIT_ROUTER}`,
        `approve@devnet-b→${USDC_B.address}`,
        `swap@devnet-b→${ROUTER_B}`,
      ]);
      const [deposit, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
        'depositWithFees',
        steps[0].call!.data,
      );
      expect(deposit.toArray()).toEqual([BRIDGE_A, 10_000_000n, 31338n, USER]);
      expect(fees.toArray()).toEqual([]);
      expect(permit[0]).toBe(0n);
    });

    it('permit2 with a short allowance to Permit2: approve Permit2 (MaxUint256) then the router call with the nonce', () => {
      const steps = planSteps(
        planOf([leg({ tokenOut: ETH_A })]),
        {
          userAddress: USER,
          permitType: 'permit2',
          permitDeadline,
          permitSignature: { v: signature.v, r: signature.r, s: signature.s },
          permit2: { nonce: '300' },
        },
        { ...permitContext, permit2Allowance: 1_499_999n },
      );
      expect(steps.map((s) => [s.kind, s.call!.to])).toEqual([
        ['approve', USDC_A.address],
        ['swap', PERMIT_ROUTER],
      ]);
      expect(steps[0].approve).toEqual({ token: USDC_A.address, spender: PERMIT2, amount: '1500000' });
      expect(erc20Interface.decodeFunctionData('approve', steps[0].call!.data).toArray()).toEqual([
        PERMIT2,
        MaxUint256,
      ]);
      // Native ETH out: the router's swap unwraps.
      expect(swapGatewayRouterInterface.decodeFunctionData('swapWithFees', steps[1].call!.data)[0][4]).toBe(
        true,
      );
      expect(permitArg(steps[1].call!.data, 'swapWithFees').toArray()).toEqual([
        1n,
        300n,
        BigInt(permitDeadline / 1000),
        signature.serialized,
      ]);
    });

    it('permit2 when Permit2 already holds the allowance: one step; permit2.signature (64 bytes) and permit2.deadline are taken', () => {
      const steps = planSteps(
        planOf([leg({})]),
        {
          userAddress: USER,
          permit2: { nonce: '1', deadline: permitDeadline, signature: signature.compactSerialized },
        },
        { ...permitContext, permit2Allowance: MaxUint256 },
      );
      expect(steps.map((s) => [s.kind, s.call!.to])).toEqual([['swap', PERMIT_ROUTER]]);
      expect(permitArg(steps[0].call!.data, 'swapWithFees').toArray()).toEqual([
        1n,
        1n,
        BigInt(permitDeadline / 1000),
        signature.serialized,
      ]);
    });

    const sig = { v: 27, r: '0x' + '1'.repeat(64), s: '0x' + '2'.repeat(64) };
    it.each([
      [
        'eip2612 without a signature',
        {},
        { permitType: 'eip2612' as const, permitDeadline },
        'permitSignature',
      ],
      [
        'eip2612 without a deadline',
        {},
        { permitType: 'eip2612' as const, permitSignature: sig },
        'permitDeadline',
      ],
      [
        'a deadline in the past',
        {},
        { permitType: 'eip2612' as const, permitDeadline: NOW_MS - 1, permitSignature: sig },
        'permitDeadline',
      ],
      [
        'two signature forms',
        {},
        {
          permitType: 'eip2612' as const,
          permitDeadline,
          permitSignature: sig,
          permitSignatureCompact: { r: sig.r, vs: sig.s },
        },
        'permitSignatureCompact',
      ],
      [
        'a native input token',
        { tokenIn: ETH_A, path: [WETH_A.address!, USDC_A.address!] },
        { permitType: 'eip2612' as const, permitDeadline, permitSignature: sig },
        'permitType',
      ],
      [
        'an aggregator’s prebuilt call',
        { provider: 'lifi', call: { to: ROUTER_A, data: '0x', value: '0', from: USER } },
        { permitType: 'eip2612' as const, permitDeadline, permitSignature: sig },
        'permitType',
      ],
      [
        'a router the permit router does not call',
        { spender: ROUTER_B },
        { permitType: 'eip2612' as const, permitDeadline, permitSignature: sig },
        'permitType',
      ],
      [
        'a chain without permit contracts',
        { chain: 'devnet-b', tokenIn: USDC_B, spender: ROUTER_B },
        { permitType: 'eip2612' as const, permitDeadline, permitSignature: sig },
        'permitType',
      ],
      [
        'permit2 without its nonce',
        {},
        { permitType: 'permit2' as const, permitDeadline, permitSignature: sig },
        'permit2.nonce',
      ],
      [
        'permit2 with a nonce above uint256',
        {},
        { permit2: { nonce: (MaxUint256 + 1n).toString() }, permitDeadline, permitSignature: sig },
        'permit2.nonce',
      ],
      [
        'permit2 without any deadline',
        {},
        { permit2: { nonce: '0' }, permitSignature: sig },
        'permitDeadline',
      ],
      [
        'two different permit2 deadlines',
        {},
        { permit2: { nonce: '0', deadline: permitDeadline + 1 }, permitDeadline, permitSignature: sig },
        'permit2.deadline',
      ],
      [
        'a permit2 object with eip2612',
        {},
        { permitType: 'eip2612' as const, permit2: { nonce: '0' }, permitDeadline, permitSignature: sig },
        'permit2',
      ],
    ])('rejects %s with VALIDATION_FAILED naming the field', (_name, legOverrides, permit, field) => {
      expect(() =>
        planSteps(
          planOf([leg(legOverrides)]),
          { userAddress: USER, ...permit },
          { ...permitContext, permit2Allowance: 0n },
        ),
      ).toThrow(
        expect.objectContaining({
          code: 'VALIDATION_FAILED',
          details: expect.objectContaining({ field }),
        }) as unknown as CodedError,
      );
    });

    it('ignores permit contracts with permitType approve: approve then the router', () => {
      const steps = planSteps(planOf([leg({})]), { userAddress: USER, permitType: 'approve' }, permitContext);
      expect(steps.map((s) => [s.kind, s.call!.to])).toEqual([
        ['approve', USDC_A.address],
        ['swap', ROUTER_A],
      ]);
    });
  });

  describe('sponsored swaps (gasPayment sponsored, the default)', () => {
    const PERMIT_ROUTER = getAddress('0x' + 'd1'.repeat(20));
    const PERMIT2 = getAddress('0x' + 'd2'.repeat(20));
    const sponsoredContext: StepPlanContext = {
      ...context,
      permitContractsOf: (chain) =>
        chain === 'devnet-a'
          ? { permitRouter: PERMIT_ROUTER, permit2: PERMIT2, uniswapV2Router: ROUTER_A, bridge: BRIDGE_A }
          : undefined,
      tokenPermitOf: (_chain, address) =>
        address === USDC_A.address ? { name: 'USD Coin', version: '1' } : undefined,
    };
    const deadline = NOW_MS / 1000 + 3600;

    it('a token with EIP-2612: a permit for Permit2 to sign, then the swap as a Permit2 witness binding path, minimum out, recipient and deadline', () => {
      const steps = planSteps(planOf([leg({})]), { userAddress: USER }, sponsoredContext);
      expect(steps).toEqual([
        expect.objectContaining({
          index: 1,
          kind: 'approve',
          call: null,
          approve: { token: USDC_A.address, spender: PERMIT2, amount: '1500000' },
          sponsored: {
            mode: 'eip2612-permit',
            permit: {
              token: USDC_A.address,
              tokenName: 'USD Coin',
              version: '1',
              spender: PERMIT2,
              value: MaxUint256.toString(),
            },
          },
        }),
        expect.objectContaining({
          index: 2,
          kind: 'swap',
          call: null,
          sponsored: {
            mode: 'permit2-intent',
            intent: {
              kind: 'swap',
              permit2: PERMIT2,
              router: PERMIT_ROUTER,
              venue: ROUTER_A,
              token: USDC_A.address,
              amount: '1500000',
              path: [USDC_A.address, WETH_A.address],
              amountOutMin: '497500000000000',
              unwrapNative: false,
              recipient: USER,
              deadline,
            },
          },
        }),
      ]);
    });

    it('a token without EIP-2612 (WETH9): the approve of Permit2 stays the user’s transaction, with its gas covered', () => {
      const steps = planSteps(
        planOf([leg({ tokenIn: WETH_A, tokenOut: USDC_A, path: [WETH_A.address!, USDC_A.address!] })]),
        { userAddress: USER },
        sponsoredContext,
      );
      expect(steps.map((s) => [s.kind, s.sponsored?.mode, s.call?.to ?? null])).toEqual([
        ['approve', 'covered-transaction', WETH_A.address],
        ['swap', 'permit2-intent', null],
      ]);
      const [spender, amount] = erc20Interface.decodeFunctionData('approve', steps[0].call!.data);
      expect([spender, amount]).toEqual([PERMIT2, MaxUint256]);
    });

    it('a bridge leg binds the destination chain and recipient; the destination chain without a router keeps covered transactions', () => {
      const bridge = leg({
        kind: 'bridge',
        provider: 'devnet-bridge',
        tokenOut: USDC_B,
        spender: BRIDGE_A,
        path: undefined,
        destinationChain: 'devnet-b',
        minAmountOut: '1499250',
      });
      const swapB = leg({
        chain: 'devnet-b',
        tokenIn: USDC_B,
        tokenOut: DAI_B,
        spender: ROUTER_B,
        amountIn: '1499250',
        path: [USDC_B.address!, DAI_B.address!],
      });
      const steps = planSteps(planOf([bridge, swapB]), { userAddress: USER }, sponsoredContext);
      expect(steps.map((s) => `${s.kind}@${s.chain}:${s.sponsored?.mode}`)).toEqual([
        'approve@devnet-a:eip2612-permit',
        'bridge@devnet-a:permit2-intent',
        'approve@devnet-b:covered-transaction',
        'swap@devnet-b:covered-transaction',
      ]);
      expect(steps[1].sponsored!.intent).toMatchObject({
        kind: 'bridge',
        destinationChainId: 31338,
        recipient: USER,
        amount: '1500000',
      });
    });

    describe('bridge then swap on the destination: one signature on the source (bridge-swap)', () => {
      const PERMIT_ROUTER_B = getAddress('0x' + 'e1'.repeat(20));
      const PERMIT2_B = getAddress('0x' + 'e2'.repeat(20));
      const BRIDGE_B = getAddress('0x' + 'b2'.repeat(20));
      const ETH_B = token('devnet-b', 'ETH', null, 18);
      const WETH_B = token('devnet-b', 'WETH', getAddress('0x' + '55'.repeat(20)), 18);
      const bothChains: StepPlanContext = {
        ...sponsoredContext,
        permitContractsOf: (chain) =>
          ({
            'devnet-a': {
              permitRouter: PERMIT_ROUTER,
              permit2: PERMIT2,
              uniswapV2Router: ROUTER_A,
              bridge: BRIDGE_A,
            },
            'devnet-b': {
              permitRouter: PERMIT_ROUTER_B,
              permit2: PERMIT2_B,
              uniswapV2Router: ROUTER_B,
              bridge: BRIDGE_B,
            },
          })[chain],
        // The destination's balance is never waited on: nothing is read for it.
        balancesBefore: new Map(),
      };
      // The bridge guarantees 1,499,250 of the 1,500,000 the swap was quoted for.
      const bridge = () =>
        leg({
          kind: 'bridge',
          provider: 'devnet-bridge',
          tokenOut: USDC_B,
          spender: BRIDGE_A,
          path: undefined,
          destinationChain: 'devnet-b',
          minAmountOut: '1499250',
        });
      const swapB = (overrides: Partial<RouteLeg> = {}) =>
        leg({
          chain: 'devnet-b',
          tokenIn: USDC_B,
          tokenOut: DAI_B,
          spender: ROUTER_B,
          amountIn: '1500000',
          minAmountOut: '1490000000000000000',
          path: [USDC_B.address!, DAI_B.address!],
          ...overrides,
        });

      it('the permit for Permit2 and ONE bridge-swap intent on devnet-a binding the destination router, path, scaled minimum out, recipient and deadline; no devnet-b steps', () => {
        const steps = planSteps(
          planOf([bridge(), swapB()]),
          { userAddress: USER, recipient: OTHER },
          bothChains,
        );
        expect(steps.map((s) => `${s.index} ${s.kind}@${s.chain}:${s.sponsored?.mode}`)).toEqual([
          '1 approve@devnet-a:eip2612-permit',
          '2 bridge@devnet-a:permit2-intent',
        ]);
        expect(steps.every((s) => s.waitFor === undefined && s.legIndex === 0 && s.signer === USER)).toBe(
          true,
        );
        expect(steps[0].approve).toEqual({ token: USDC_A.address, spender: PERMIT2, amount: '1500000' });
        expect(steps[1].sponsored!.intent).toEqual({
          kind: 'bridge-swap',
          permit2: PERMIT2,
          router: PERMIT_ROUTER,
          venue: BRIDGE_A,
          token: USDC_A.address,
          amount: '1500000',
          destinationChainId: 31338,
          destinationRouter: PERMIT_ROUTER_B,
          destinationVenue: ROUTER_B,
          path: [USDC_B.address, DAI_B.address],
          amountOutMin: '1489255000000000000', // 1.49e18 × 1,499,250 / 1,500,000
          unwrapNative: false,
          recipient: OTHER,
          deadline,
        });
      });

      it('the destination minimum is the swap leg’s own when the bridge guarantees all the swap was quoted for; native ETH out unwraps', () => {
        const steps = planSteps(
          planOf([
            bridge(),
            swapB({ amountIn: '1499250', tokenOut: ETH_B, path: [USDC_B.address!, WETH_B.address!] }),
          ]),
          { userAddress: USER },
          bothChains,
        );
        expect(steps[1].sponsored!.intent).toMatchObject({
          kind: 'bridge-swap',
          path: [USDC_B.address, WETH_B.address],
          amountOutMin: '1490000000000000000',
          unwrapNative: true,
          recipient: USER,
        });
      });

      it('after a swap on the source: that swap’s steps, then the bridge-swap spending what it guarantees', () => {
        const swapA = leg({
          tokenIn: WETH_A,
          tokenOut: USDC_A,
          amountIn: '1000',
          minAmountOut: '1500000',
          path: [WETH_A.address!, USDC_A.address!],
        });
        const steps = planSteps(
          planOf([swapA, bridge(), swapB()]),
          { userAddress: USER },
          {
            ...bothChains,
            tokenPermitOf: () => undefined,
          },
        );
        expect(steps.map((s) => `${s.kind}:${s.sponsored?.mode}:${s.sponsored?.intent?.kind ?? ''}`)).toEqual(
          [
            'approve:covered-transaction:',
            'swap:permit2-intent:swap',
            'approve:covered-transaction:',
            'bridge:permit2-intent:bridge-swap',
          ],
        );
        expect(steps[3]).toMatchObject({
          legIndex: 1,
          sponsored: { intent: { amount: '1500000', amountOutMin: '1489255000000000000' } },
        });
      });

      it.each([
        [
          'the destination has no permit router',
          { permitContractsOf: sponsoredContext.permitContractsOf },
          {},
        ],
        ['the destination swap goes through another router', {}, { spender: ROUTER_A }],
        [
          'the destination swap is an aggregator’s prebuilt call',
          {},
          { provider: 'lifi', call: { to: ROUTER_B, data: '0x', value: '0', from: USER }, path: undefined },
        ],
        [
          'the destination swap does not start with the bridged token',
          {},
          { tokenIn: DAI_B, tokenOut: USDC_B, path: [DAI_B.address!, USDC_B.address!] },
        ],
      ])(
        'keeps the destination steps when %s',
        (_name, contextOverrides: Partial<StepPlanContext>, swapOverrides: Partial<RouteLeg>) => {
          const steps = planSteps(
            planOf([bridge(), swapB(swapOverrides)]),
            { userAddress: USER },
            { ...bothChains, balancesBefore: context.balancesBefore, ...contextOverrides },
          );
          expect(steps[1].sponsored!.intent).toMatchObject({ kind: 'bridge', recipient: USER });
          expect(steps.slice(2).map((s) => s.chain)).toEqual(['devnet-b', 'devnet-b']);
          expect(steps[2].waitFor).toEqual({
            token: USDC_B.address,
            holder: USER,
            minBalance: String(5_000_000n + 1_499_250n),
          });
        },
      );

      it('gasPayment user keeps the four transactions of the wallet', () => {
        const steps = planSteps(
          planOf([bridge(), swapB()]),
          { userAddress: USER, gasPayment: 'user' },
          { ...bothChains, balancesBefore: context.balancesBefore },
        );
        expect(steps.map((s) => `${s.kind}@${s.chain}:${s.sponsored?.mode}`)).toEqual([
          'approve@devnet-a:undefined',
          'bridge@devnet-a:undefined',
          'approve@devnet-b:undefined',
          'swap@devnet-b:undefined',
        ]);
      });

      it('bridgeSwapLegOf: only a final EVM bridge → EVM swap pair', () => {
        const plan = planOf([bridge(), swapB()]);
        expect(bridgeSwapLegOf(plan.legs, bothChains)).toBe(0);
        expect(bridgeSwapLegOf([swapB()], bothChains)).toBeNull();
        expect(
          bridgeSwapLegOf(
            [
              bridge(),
              swapB(),
              leg({
                chain: 'devnet-b',
                tokenIn: DAI_B,
                tokenOut: USDC_B,
                spender: ROUTER_B,
                path: [DAI_B.address!, USDC_B.address!],
              }),
            ],
            bothChains,
          ),
        ).toBeNull();
        expect(
          bridgeSwapLegOf(plan.legs, {
            ...bothChains,
            familyOf: (chain) => (chain === 'devnet-b' ? 'solana' : 'evm'),
          }),
        ).toBeNull();
      });
    });

    it('a native input stays the user’s transaction with its gas covered', () => {
      const steps = planSteps(
        planOf([
          leg({
            tokenIn: ETH_A,
            tokenOut: USDC_A,
            amountIn: '1000000000000000000',
            minAmountOut: '2980000000',
            path: [WETH_A.address!, USDC_A.address!],
          }),
        ]),
        { userAddress: USER },
        sponsoredContext,
      );
      expect(steps.map((s) => [s.kind, s.sponsored?.mode, s.call?.value])).toEqual([
        ['swap', 'covered-transaction', '1000000000000000000'],
      ]);
    });

    it('gasPayment user plans the wallet’s own transactions; sponsored with a permit field is VALIDATION_FAILED', () => {
      const steps = planSteps(planOf([leg({})]), { userAddress: USER, gasPayment: 'user' }, sponsoredContext);
      expect(steps.map((s) => [s.kind, s.sponsored, s.call!.to])).toEqual([
        ['approve', undefined, USDC_A.address],
        ['swap', undefined, ROUTER_A],
      ]);
      expect(() =>
        planSteps(
          planOf([leg({})]),
          { userAddress: USER, gasPayment: 'sponsored', permitType: 'approve' },
          sponsoredContext,
        ),
      ).toThrow(
        expect.objectContaining({
          code: 'VALIDATION_FAILED',
          details: { field: 'permitType' },
        }) as unknown as CodedError,
      );
    });
  });
});

describe('planSteps with integrator fees (the first leg pays them in its own transaction)', () => {
  const GATEWAY_ROUTER = getAddress('0x' + 'e1'.repeat(20));
  const PERMIT2 = getAddress('0x' + 'e2'.repeat(20));
  const FEE_A = getAddress('0x' + 'f1'.repeat(20));
  const FEE_B = getAddress('0x' + 'f2'.repeat(20));
  const SPOKE_POOL_A = getAddress('0x' + 'b9'.repeat(20));
  const feeContext: StepPlanContext = {
    ...context,
    permitContractsOf: (chain) =>
      chain === 'devnet-a'
        ? {
            permitRouter: GATEWAY_ROUTER,
            permit2: PERMIT2,
            uniswapV2Router: ROUTER_A,
            bridge: BRIDGE_A,
            acrossSpokePool: SPOKE_POOL_A,
          }
        : undefined,
    tokenPermitOf: (_chain, address) =>
      address === USDC_A.address ? { name: 'USD Coin', version: '1' } : undefined,
    integratorFees: [
      { recipient: FEE_A, amount: 4_500n },
      { recipient: FEE_B, amount: 1_500n },
    ],
  };

  it('user-paid: approves the SwapGatewayRouter for amountIn plus the fees, whose swapWithFees pays each fee and swaps amountIn', () => {
    const steps = planSteps(planOf([leg({})]), { userAddress: USER, gasPayment: 'user' }, feeContext);
    expect(steps.map((s) => s.kind)).toEqual(['approve', 'swap']);
    const [approve, swap] = steps;
    expect(approve.approve).toEqual({ token: USDC_A.address, spender: GATEWAY_ROUTER, amount: '1506000' });
    expect(erc20Interface.decodeFunctionData('approve', approve.call!.data).toArray()).toEqual([
      GATEWAY_ROUTER,
      1_506_000n,
    ]);
    expect(swap.call!.to).toBe(GATEWAY_ROUTER);
    const [terms, path, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
      'swapWithFees',
      swap.call!.data,
    );
    expect(terms.toArray()).toEqual([
      ROUTER_A,
      1_506_000n,
      497_500_000_000_000n,
      USER,
      false,
      BigInt(NOW_MS / 1000 + 3600),
    ]);
    expect(path.toArray()).toEqual([USDC_A.address, WETH_A.address]);
    expect(fees.toArray().map((f: { toArray(): unknown[] }) => f.toArray())).toEqual([
      [FEE_A, 4_500n],
      [FEE_B, 1_500n],
    ]);
    // PermitKind.Allowance: the wallet's approve of the router, no signature.
    expect(permit.toArray()).toEqual([2n, 0n, 0n, '0x']);
  });

  it('sponsored: Permit2 moves amountIn plus the fees and the signed swap intent carries every fee', () => {
    const steps = planSteps(planOf([leg({})]), { userAddress: USER }, feeContext);
    expect(steps.map((s) => [s.kind, s.sponsored?.mode])).toEqual([
      ['approve', 'eip2612-permit'],
      ['swap', 'permit2-intent'],
    ]);
    expect(steps[0].approve).toMatchObject({ spender: PERMIT2, amount: '1506000' });
    expect(steps[1].sponsored!.intent).toMatchObject({
      kind: 'swap',
      router: GATEWAY_ROUTER,
      token: USDC_A.address,
      amount: '1506000',
      amountOutMin: '497500000000000',
      integratorFees: [
        { recipient: FEE_A, amount: '4500' },
        { recipient: FEE_B, amount: '1500' },
      ],
    });
  });

  it('user-paid with a Permit2 permit: an approve of Permit2 comes first unless its allowance covers amountIn plus the fees', () => {
    const request = {
      userAddress: USER,
      gasPayment: 'user' as const,
      permitType: 'permit2' as const,
      permit2: {
        nonce: '7',
        signature: Signature.from({ r: '0x' + '11'.repeat(32), s: '0x' + '22'.repeat(32), v: 27 }).serialized,
      },
      permitDeadline: NOW_MS + 600_000,
    };
    const short = planSteps(planOf([leg({})]), request, { ...feeContext, permit2Allowance: 1_500_000n });
    expect(short.map((s) => s.kind)).toEqual(['approve', 'swap']);
    const enough = planSteps(planOf([leg({})]), request, { ...feeContext, permit2Allowance: 1_506_000n });
    expect(enough.map((s) => s.kind)).toEqual(['swap']);
    const [terms, , , permit] = swapGatewayRouterInterface.decodeFunctionData(
      'swapWithFees',
      enough[0].call!.data,
    );
    expect(terms[1]).toBe(1_506_000n);
    expect(permit[0]).toBe(1n);
  });

  const feesOf = (fees: { toArray(): unknown[] }) =>
    fees.toArray().map((f) => (f as { toArray(): unknown[] }).toArray());
  const bridgeToB = usdcBridgeToB();

  it('user-paid bridge first: approves the SwapGatewayRouter for amountIn plus the fees, whose depositWithFees pays each fee and deposits amountIn for the user on the destination', () => {
    const steps = planSteps(planOf([bridgeToB]), { userAddress: USER, gasPayment: 'user' }, feeContext);
    expect(steps.map((s) => s.kind)).toEqual(['approve', 'bridge']);
    const [approve, deposit] = steps;
    expect(approve.approve).toEqual({ token: USDC_A.address, spender: GATEWAY_ROUTER, amount: '10006000' });
    expect(deposit.call!.to).toBe(GATEWAY_ROUTER);
    expect(deposit.call!.value).toBe('0');
    const [terms, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
      'depositWithFees',
      deposit.call!.data,
    );
    // The bridge, what the router pulls, devnet-b's chain id, the user as the bridge's recipient.
    expect(terms.toArray()).toEqual([BRIDGE_A, 10_006_000n, 31338n, USER]);
    expect(feesOf(fees)).toEqual([
      [FEE_A, 4_500n],
      [FEE_B, 1_500n],
    ]);
    expect(permit.toArray()).toEqual([2n, 0n, 0n, '0x']);
  });

  it('sponsored bridge first: Permit2 moves amountIn plus the fees and the signed bridge intent carries every fee', () => {
    const steps = planSteps(planOf([bridgeToB]), { userAddress: USER }, feeContext);
    expect(steps.map((s) => [s.kind, s.sponsored?.mode])).toEqual([
      ['approve', 'eip2612-permit'],
      ['bridge', 'permit2-intent'],
    ]);
    expect(steps[0].approve).toMatchObject({ spender: PERMIT2, amount: '10006000' });
    expect(steps[1].sponsored!.intent).toMatchObject({
      kind: 'bridge',
      router: GATEWAY_ROUTER,
      venue: BRIDGE_A,
      token: USDC_A.address,
      amount: '10006000',
      destinationChainId: 31338,
      recipient: USER,
      integratorFees: [
        { recipient: FEE_A, amount: '4500' },
        { recipient: FEE_B, amount: '1500' },
      ],
    });
  });

  it('user-paid bridge first then a swap: the swap on the destination spends what the bridge guarantees, with no fee', () => {
    const swapOnB = usdcToDaiOnB();
    const steps = planSteps(
      planOf([bridgeToB, swapOnB]),
      { userAddress: USER, gasPayment: 'user' },
      feeContext,
    );
    expect(steps.map((s) => [s.kind, s.call!.to])).toEqual([
      ['approve', USDC_A.address],
      ['bridge', GATEWAY_ROUTER],
      ['approve', USDC_B.address],
      ['swap', ROUTER_B],
    ]);
    expect(steps[2].approve).toEqual({ token: USDC_B.address, spender: ROUTER_B, amount: '9990000' });
  });

  it('user-paid Across first: acrossWithFees pulls amountIn plus the fees, pays them and deposits amountIn with the quoted terms, the wallet being the depositor', () => {
    const across = leg({
      ...bridgeToB,
      provider: 'across',
      spender: SPOKE_POOL_A,
      across: {
        spokePool: SPOKE_POOL_A,
        outputToken: USDC_B.address!,
        outputAmount: '9990000',
        exclusiveRelayer: '0x' + '00'.repeat(20),
        quoteTimestamp: 1_799_999_990,
        fillDeadline: 1_800_010_000,
        exclusivityDeadline: 0,
      },
    } as Partial<RouteLeg>);
    const steps = planSteps(planOf([across]), { userAddress: USER, gasPayment: 'user' }, feeContext);
    expect(steps.map((s) => s.kind)).toEqual(['approve', 'bridge']);
    expect(steps[0].approve).toEqual({ token: USDC_A.address, spender: GATEWAY_ROUTER, amount: '10006000' });
    expect([steps[1].call!.to, steps[1].call!.value]).toEqual([GATEWAY_ROUTER, '0']);
    const [terms, inputToken, gross, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
      'acrossWithFees',
      steps[1].call!.data,
    );
    // The SpokePool, the user as the fill's recipient, the quoted output, devnet-b's chain id, the
    // quote's relayer, timestamp, fill deadline and exclusivity.
    expect(terms.toArray()).toEqual([
      SPOKE_POOL_A,
      USER,
      USDC_B.address,
      9_990_000n,
      31338n,
      '0x' + '00'.repeat(20),
      1_799_999_990n,
      1_800_010_000n,
      0n,
    ]);
    expect([inputToken, gross]).toEqual([USDC_A.address, 10_006_000n]);
    expect(feesOf(fees)).toEqual([
      [FEE_A, 4_500n],
      [FEE_B, 1_500n],
    ]);
    expect(permit.toArray()).toEqual([2n, 0n, 0n, '0x']);
  });

  it('native ETH in: no approve, swapWithFees sent with amountIn plus the fees as value', () => {
    const nativeIn = leg({
      tokenIn: ETH_A,
      tokenOut: USDC_A,
      amountIn: '1000000000000000000',
      minAmountOut: '2980000000',
      path: [WETH_A.address!, USDC_A.address!],
    });
    const ethFees = [{ recipient: FEE_A, amount: 5_000_000_000_000_000n }];
    for (const gasPayment of ['user', 'sponsored'] as const) {
      const steps = planSteps(
        planOf([nativeIn]),
        { userAddress: USER, gasPayment },
        {
          ...feeContext,
          integratorFees: ethFees,
        },
      );
      expect(steps.map((s) => [s.kind, s.sponsored?.mode])).toEqual([
        ['swap', gasPayment === 'sponsored' ? 'covered-transaction' : undefined],
      ]);
      const call = steps[0].call!;
      expect([call.to, call.value]).toEqual([GATEWAY_ROUTER, '1005000000000000000']);
      const [terms, path, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
        'swapWithFees',
        call.data,
      );
      expect(terms.toArray()).toEqual([
        ROUTER_A,
        1_005_000_000_000_000_000n,
        2_980_000_000n,
        USER,
        false,
        BigInt(NOW_MS / 1000 + 3600),
      ]);
      expect(path.toArray()).toEqual([WETH_A.address, USDC_A.address]);
      expect(feesOf(fees)).toEqual([[FEE_A, 5_000_000_000_000_000n]]);
      // No signature: the router takes the value (the permit is unused).
      expect(permit.toArray()).toEqual([2n, 0n, 0n, '0x']);
    }
  });

  it('native ETH in through Uniswap V3: swapV3WithFees sent with the value, along the encoded path', () => {
    const V3_ROUTER = getAddress('0x' + 'a3'.repeat(20));
    const nativeIn = leg({
      provider: 'uniswap-v3',
      tokenIn: ETH_A,
      tokenOut: USDC_A,
      amountIn: '1000000000000000000',
      minAmountOut: '2980000000',
      spender: V3_ROUTER,
      path: [WETH_A.address!, USDC_A.address!],
      poolFees: [500],
    });
    const steps = planSteps(
      planOf([nativeIn]),
      { userAddress: USER, gasPayment: 'user' },
      {
        ...feeContext,
        permitContractsOf: () => ({
          permitRouter: GATEWAY_ROUTER,
          permit2: PERMIT2,
          uniswapV3SwapRouter02: V3_ROUTER,
        }),
        integratorFees: [{ recipient: FEE_A, amount: 7n }],
      },
    );
    const call = steps[0].call!;
    expect(call.value).toBe('1000000000000000007');
    const [terms, path] = swapGatewayRouterInterface.decodeFunctionData('swapV3WithFees', call.data);
    expect(terms[0]).toBe(V3_ROUTER);
    expect(path).toBe((WETH_A.address! + '0001f4' + USDC_A.address!.slice(2)).toLowerCase());
  });
});
