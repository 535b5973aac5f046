import { getAddress, MaxUint256 } from 'ethers';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import type { SplitStep } from '../../step-split';
import type { LegStepChains, LegStepInput, StepSpecChains } from '../step-spec-family';
import {
  devnetBridgeInterface,
  erc20Interface,
  swapGatewayRouterInterface,
  uniswapV2RouterInterface,
} from './evm-calldata';
import { evmBridgePayoutOf, evmDestinationSwapOf, evmStepOf, evmStepSpecFamily } from './evm-step-spec';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ROUTER = getAddress('0x' + 'a1'.repeat(20));
const BRIDGE = getAddress('0x' + 'b1'.repeat(20));
const PERMIT2 = getAddress('0x' + 'c1'.repeat(20));
const PERMIT_ROUTER = getAddress('0x' + 'd1'.repeat(20));
const DEST_PERMIT_ROUTER = getAddress('0x' + 'd2'.repeat(20));
const SWAP_ROUTER_02 = getAddress('0x' + 'e1'.repeat(20));
const SPOKE_POOL = getAddress('0x' + 'f1'.repeat(20));
const EXCLUSIVE_RELAYER = getAddress('0x' + 'f2'.repeat(20));
const SPENDER_0X = getAddress('0x' + 'e1'.repeat(20));
const FEE_RECIPIENT = getAddress('0x' + 'e2'.repeat(20));
const token = (chain: string, symbol: string, address: string | null): TokenRef => ({
  chain,
  symbol,
  address,
  decimals: 6,
});
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)));
const WETH_A = token('devnet-a', 'WETH', getAddress('0x' + '22'.repeat(20)));
const USDC_B = token('devnet-b', 'USDC', getAddress('0x' + '33'.repeat(20)));
const ETH_B = token('devnet-b', 'ETH', null);
const DEADLINE = 1_800_003_600n;

const swapLeg: RouteLeg = {
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: USDC_A,
  tokenOut: WETH_A,
  amountIn: '1500000',
  expectedAmountOut: '500',
  minAmountOut: '400',
  spender: ROUTER,
  path: [USDC_A.address!, WETH_A.address!],
  estimatedDurationSeconds: 15,
};
const bridgeLeg: RouteLeg = {
  ...swapLeg,
  kind: 'bridge',
  provider: 'devnet-bridge',
  tokenOut: USDC_B,
  spender: BRIDGE,
  path: undefined,
  destinationChain: 'devnet-b',
};
const swapOnB: RouteLeg = {
  ...swapLeg,
  chain: 'devnet-b',
  tokenIn: USDC_B,
  tokenOut: ETH_B,
  amountIn: '1000',
  minAmountOut: '300',
  path: [USDC_B.address!, getAddress('0x' + '44'.repeat(20))],
};

/** Typed fakes of the chains the planner resolves: devnet-a and devnet-b, with permit contracts. */
const evmChains: StepSpecChains = {
  familyOf: () => 'evm',
  evmChainIdOf: (chain) => ({ 'devnet-a': 31337, 'devnet-b': 31338 })[chain] ?? Number.NaN,
  permitContractsOf: (chain) => ({
    permit2: PERMIT2,
    permitRouter: chain === 'devnet-a' ? PERMIT_ROUTER : DEST_PERMIT_ROUTER,
    uniswapV2Router: ROUTER,
    uniswapV3SwapRouter02: SWAP_ROUTER_02,
    bridge: BRIDGE,
    acrossSpokePool: SPOKE_POOL,
  }),
  tokenPermitOf: (_chain, address) =>
    address === USDC_A.address ? { name: 'USD Coin', version: '2' } : undefined,
};
/** The chains a step builder sees; bridges pay out as `payout` says (EVM destinations by default). */
const chainsPayingOut = (
  payout: LegStepChains['bridgePayoutOf'] = (leg, recipient) => evmBridgePayoutOf(leg, recipient, evmChains),
): LegStepChains => ({
  ...evmChains,
  bridgePayoutOf: payout,
  destinationSwapOf: (input) =>
    evmDestinationSwapOf(
      input.leg,
      input.next!,
      input.minOut,
      input.finalRecipient,
      input.deadline,
      evmChains,
    ),
});
const chains = chainsPayingOut();

const inputOf = (step: Partial<SplitStep>, overrides: Partial<LegStepInput> = {}): LegStepInput => ({
  step: { legIndex: 0, kind: 'swap', signing: 'evm-transaction', ...step },
  leg: swapLeg,
  spend: 1_500_000n,
  minOut: 400n,
  signer: USER,
  recipient: USER,
  finalRecipient: USER,
  deadline: DEADLINE,
  sponsored: false,
  ...overrides,
});

describe('evmBridgePayoutOf', () => {
  it('pays the EVM recipient with deposit on the bridge id of the destination, else its EVM chain id', () => {
    expect(evmBridgePayoutOf(bridgeLeg, USER, chains)).toEqual({
      chainId: 31338,
      recipient: USER,
      encoding: 'address',
    });
    expect(evmBridgePayoutOf({ ...bridgeLeg, destinationBridgeChainId: 7 }, USER, chains).chainId).toBe(7);
    expect(() => evmBridgePayoutOf(swapLeg, USER, chains)).toThrow('has no destinationChain');
  });
});

describe('the settlement of an EVM step', () => {
  const familyOf = (chain: string) => (chain === 'noble-devnet' ? 'cosmos' : 'evm');
  it('a devnet-bridge deposit towards Noble waits for the mint there (cctp); towards an EVM chain, a THORChain deposit or a swap, nothing', () => {
    const settle = evmStepSpecFamily.settlementOf!;
    expect(settle({ ...bridgeLeg, destinationChain: 'noble-devnet' }, familyOf)).toBe('cctp');
    expect(settle(bridgeLeg, familyOf)).toBeUndefined();
    expect(settle({ ...bridgeLeg, provider: 'thorchain' }, familyOf)).toBeUndefined();
    expect(settle(swapLeg, familyOf)).toBeUndefined();
  });
});

describe('evmDestinationSwapOf', () => {
  it('the destination router swaps along the path for the minimum scaled to what the bridge guarantees', () => {
    expect(evmDestinationSwapOf(bridgeLeg, swapOnB, 500n, USER, DEADLINE, chains)).toEqual({
      destinationChainId: 31338,
      destinationRouter: DEST_PERMIT_ROUTER,
      destinationVenue: ROUTER,
      path: swapOnB.path,
      amountOutMin: '150',
      unwrapNative: true,
      recipient: USER,
      deadline: Number(DEADLINE),
    });
    // Never above the swap leg's own minimum when the bridge guarantees more than it was quoted for.
    expect(evmDestinationSwapOf(bridgeLeg, swapOnB, 5000n, USER, DEADLINE, chains).amountOutMin).toBe('300');
  });

  it('refuses a destination swap without a SwapGatewayRouter or a path', () => {
    const bare = { ...chains, permitContractsOf: () => undefined };
    expect(() => evmDestinationSwapOf(bridgeLeg, swapOnB, 500n, USER, DEADLINE, bare)).toThrow(
      'cannot run through its SwapGatewayRouter',
    );
  });
});

describe('evmStepOf', () => {
  it('approve of the spender: what the leg spends, its gas covered on a sponsored swap', () => {
    const step = evmStepOf(inputOf({ kind: 'approve', approves: 'spender' }, { sponsored: true }), chains);
    expect(step).toMatchObject({
      kind: 'approve',
      approve: { token: USDC_A.address, spender: ROUTER, amount: '1500000' },
      sponsored: { mode: 'covered-transaction' },
    });
    expect(step.call!.to).toBe(USDC_A.address);
    expect(erc20Interface.decodeFunctionData('approve', step.call!.data)).toEqual([ROUTER, 1_500_000n]);
  });

  it('approve of Permit2: the token’s EIP-2612 permit to sign when it has one, else an approve of MaxUint256', () => {
    const permit = evmStepOf(
      inputOf({ kind: 'approve', approves: 'permit2', signing: 'eip2612-permit' }),
      chains,
    );
    expect(permit).toEqual({
      kind: 'approve',
      call: null,
      approve: { token: USDC_A.address, spender: PERMIT2, amount: '1500000' },
      sponsored: {
        mode: 'eip2612-permit',
        permit: {
          token: USDC_A.address,
          tokenName: 'USD Coin',
          version: '2',
          spender: PERMIT2,
          value: MaxUint256.toString(),
        },
      },
    });
    const approve = evmStepOf(inputOf({ kind: 'approve', approves: 'permit2' }), chains);
    expect(approve.sponsored).toBeUndefined();
    expect(erc20Interface.decodeFunctionData('approve', approve.call!.data)).toEqual([PERMIT2, MaxUint256]);
  });

  it('permit2-intent: the swap leg as the witness binding path, minimum out, recipient and deadline', () => {
    const step = evmStepOf(inputOf({ signing: 'permit2-intent' }, { sponsored: true }), chains);
    expect(step).toEqual({
      kind: 'swap',
      call: null,
      sponsored: {
        mode: 'permit2-intent',
        intent: {
          kind: 'swap',
          permit2: PERMIT2,
          router: PERMIT_ROUTER,
          venue: ROUTER,
          token: USDC_A.address,
          amount: '1500000',
          path: swapLeg.path,
          amountOutMin: '400',
          unwrapNative: false,
          recipient: USER,
          deadline: Number(DEADLINE),
        },
      },
    });
  });

  it('permit2-intent of a bridge-swap: the deposit to the destination router and the swap it runs', () => {
    const input = inputOf(
      { kind: 'bridge', signing: 'permit2-intent', bridgeSwap: true },
      { leg: bridgeLeg, next: swapOnB, minOut: 500n, sponsored: true },
    );
    expect(evmStepOf(input, chains).sponsored).toEqual({
      mode: 'permit2-intent',
      intent: {
        kind: 'bridge-swap',
        permit2: PERMIT2,
        router: PERMIT_ROUTER,
        venue: BRIDGE,
        token: USDC_A.address,
        amount: '1500000',
        destinationChainId: 31338,
        destinationRouter: DEST_PERMIT_ROUTER,
        destinationVenue: ROUTER,
        path: swapOnB.path,
        amountOutMin: '150',
        unwrapNative: true,
        recipient: USER,
        deadline: Number(DEADLINE),
      },
    });
  });

  it('permit2-intent of an across leg: the SpokePool deposit with the quote’s terms, the output scaled like minOut, never above the quote', () => {
    const across: RouteLeg = {
      ...bridgeLeg,
      provider: 'across',
      spender: SPOKE_POOL,
      minAmountOut: '1400000',
      across: {
        spokePool: SPOKE_POOL,
        outputToken: USDC_B.address!,
        outputAmount: '1400000',
        quoteTimestamp: 1_800_000_000,
        fillDeadline: 1_800_010_000,
        exclusiveRelayer: EXCLUSIVE_RELAYER,
        exclusivityDeadline: 0,
      },
    };
    const terms = (outputAmount: string) => ({
      outputToken: USDC_B.address,
      outputAmount,
      exclusiveRelayer: EXCLUSIVE_RELAYER,
      quoteTimestamp: 1_800_000_000,
      fillDeadline: 1_800_010_000,
      exclusivityParameter: 0,
    });
    const common = {
      permit2: PERMIT2,
      router: PERMIT_ROUTER,
      venue: SPOKE_POOL,
      token: USDC_A.address,
      destinationChainId: 31338,
      recipient: USER,
      deadline: Number(DEADLINE),
    };
    // Spending 1.0 of the quoted 1.5: the output asked for is scaled like minOut.
    const plain = inputOf(
      { kind: 'bridge', signing: 'permit2-intent' },
      { leg: across, spend: 1_000_000n, minOut: 933_333n, sponsored: true },
    );
    expect(evmStepOf(plain, chains).sponsored).toEqual({
      mode: 'permit2-intent',
      intent: { ...common, kind: 'across', amount: '1000000', across: terms('933333') },
    });
    // With an integrator fee: Permit2 moves the spend and the fee, the signed intent lists the fee
    // (the router pays it and deposits the spend, for which the output was quoted).
    const feeRecipient = getAddress('0x' + 'fa'.repeat(20));
    const withFee = inputOf(
      { kind: 'bridge', signing: 'permit2-intent' },
      {
        leg: across,
        spend: 1_000_000n,
        minOut: 933_333n,
        sponsored: true,
        integratorFees: [{ recipient: feeRecipient, amount: 5_000n }],
      },
    );
    expect(evmStepOf(withFee, chains).sponsored).toEqual({
      mode: 'permit2-intent',
      intent: {
        ...common,
        kind: 'across',
        amount: '1005000',
        across: terms('933333'),
        integratorFees: [{ recipient: feeRecipient, amount: '5000' }],
      },
    });
    // Into a Uniswap V3 swap on the destination: one across-swap through its SwapRouter02.
    const v3OnB: RouteLeg = { ...swapOnB, provider: 'uniswap-v3', spender: SWAP_ROUTER_02, poolFees: [500] };
    const swapInput = inputOf(
      { kind: 'bridge', signing: 'permit2-intent', bridgeSwap: true },
      // A minOut above the quote (never signed): the quoted outputAmount.
      { leg: across, next: v3OnB, minOut: 1_500_000n, sponsored: true },
    );
    expect(evmStepOf(swapInput, chains).sponsored).toEqual({
      mode: 'permit2-intent',
      intent: {
        ...common,
        kind: 'across-swap',
        amount: '1500000',
        across: terms('1400000'),
        destinationRouter: DEST_PERMIT_ROUTER,
        destinationVenue: SWAP_ROUTER_02,
        path: v3OnB.path,
        poolFees: [500],
        amountOutMin: '300',
        unwrapNative: true,
      },
    });
    // With an integrator fee: Permit2 moves the spend and the fee, the signed across-swap lists the
    // fee (the router pays it and deposits the spend, for which the output was quoted).
    const swapWithFee = inputOf(
      { kind: 'bridge', signing: 'permit2-intent', bridgeSwap: true },
      {
        leg: across,
        next: v3OnB,
        minOut: 1_500_000n,
        sponsored: true,
        integratorFees: [{ recipient: feeRecipient, amount: 7_500n }],
      },
    );
    expect(evmStepOf(swapWithFee, chains).sponsored?.intent).toMatchObject({
      kind: 'across-swap',
      amount: '1507500',
      across: terms('1400000'),
      amountOutMin: '300',
      integratorFees: [{ recipient: feeRecipient, amount: '7500' }],
    });
  });

  it('a bridge paying 32 bytes (a Solana wallet) is a bridge-to witness, or depositTo as a transaction', () => {
    const bytes32 = '0x' + 'ee'.repeat(32);
    const toSolana = chainsPayingOut(() => ({
      chainId: 1399811149,
      recipient: bytes32,
      encoding: 'bytes32',
    }));
    const intent = evmStepOf(
      inputOf({ kind: 'bridge', signing: 'permit2-intent' }, { leg: bridgeLeg }),
      toSolana,
    );
    expect(intent.sponsored?.intent).toMatchObject({
      kind: 'bridge-to',
      destinationChainId: 1399811149,
      recipient: bytes32,
    });
    const deposit = evmStepOf(inputOf({ kind: 'bridge' }, { leg: bridgeLeg }), toSolana);
    expect(deposit.call!.to).toBe(BRIDGE);
    expect(devnetBridgeInterface.decodeFunctionData('depositTo', deposit.call!.data)).toEqual([
      1_500_000n,
      1399811149n,
      bytes32,
    ]);
  });

  it('a user-paid bridge paying 32 bytes with integrator fees: depositToWithFees pulls the deposit plus the fees, pays them and deposits the rest with depositTo', () => {
    const bytes32 = '0x' + 'ee'.repeat(32);
    const toSolana = chainsPayingOut(() => ({
      chainId: 1399811149,
      recipient: bytes32,
      encoding: 'bytes32',
    }));
    const feeA = getAddress('0x' + 'fa'.repeat(20));
    const feeB = getAddress('0x' + 'fb'.repeat(20));
    const integratorFees = [
      { recipient: feeA, amount: 4_500n },
      { recipient: feeB, amount: 1_500n },
    ];
    const deposit = evmStepOf(inputOf({ kind: 'bridge' }, { leg: bridgeLeg, integratorFees }), toSolana);
    expect(deposit.call).toMatchObject({ to: PERMIT_ROUTER, value: '0' });
    const [terms, fees, permit] = swapGatewayRouterInterface.decodeFunctionData(
      'depositToWithFees',
      deposit.call!.data,
    );
    // The bridge, what the router pulls (the deposit plus both fees), the bridge's id of the
    // destination, the 32-byte recipient.
    expect(terms.toArray()).toEqual([BRIDGE, 1_506_000n, 1399811149n, bytes32]);
    expect(fees.toArray().map((fee: { toArray(): unknown[] }) => fee.toArray())).toEqual([
      [feeA, 4_500n],
      [feeB, 1_500n],
    ]);
    // Allowance: the wallet approved the router for the gross amount, no signature.
    expect(permit.toArray()).toEqual([2n, 0n, 0n, '0x']);
    // Sponsored, the signed BridgeToIntent lists the fees; Permit2 moves the gross amount.
    const sponsored = evmStepOf(
      inputOf({ kind: 'bridge', signing: 'permit2-intent' }, { leg: bridgeLeg, integratorFees }),
      toSolana,
    );
    expect(sponsored.sponsored?.intent).toMatchObject({
      kind: 'bridge-to',
      venue: BRIDGE,
      amount: '1506000',
      destinationChainId: 1399811149,
      recipient: bytes32,
      integratorFees: [
        { recipient: feeA, amount: '4500' },
        { recipient: feeB, amount: '1500' },
      ],
    });
  });

  it('the leg’s own transaction: the Uniswap V2 swap, through the SwapGatewayRouter with the first leg’s permit', () => {
    const plain = evmStepOf(inputOf({}), chains);
    expect(plain.call!.to).toBe(ROUTER);
    expect(uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', plain.call!.data)).toEqual(
      [1_500_000n, 400n, swapLeg.path, USER, DEADLINE],
    );
    const signature = '0x' + '11'.repeat(65);
    const permit = {
      router: PERMIT_ROUTER,
      permit2: PERMIT2,
      kind: 'permit2' as const,
      nonce: 9n,
      deadline: 5n,
      signature,
    };
    const withPermit = evmStepOf(inputOf({}, { permit }), chains);
    expect(withPermit.call!.to).toBe(PERMIT_ROUTER);
    const args = swapGatewayRouterInterface.decodeFunctionData('swapWithFees', withPermit.call!.data);
    expect((args.at(-1) as { toArray(): unknown[] }).toArray()).toEqual([1n, 9n, 5n, signature]);
  });

  it('a taxed leg swaps with Router02’s fee-on-transfer functions: its own call, or through the SwapGatewayRouter with a permit or as a sponsored intent', () => {
    const taxedLeg: RouteLeg = { ...swapLeg, sellTaxBps: 0, buyTaxBps: 300 };
    const plain = evmStepOf(inputOf({}, { leg: taxedLeg }), chains);
    expect(plain.call!.to).toBe(ROUTER);
    expect(
      uniswapV2RouterInterface.decodeFunctionData(
        'swapExactTokensForTokensSupportingFeeOnTransferTokens',
        plain.call!.data,
      ),
    ).toEqual([1_500_000n, 400n, swapLeg.path, USER, DEADLINE]);
    const toEth = evmStepOf(
      inputOf({}, { leg: { ...taxedLeg, tokenOut: { ...WETH_A, address: null } } }),
      chains,
    );
    expect(
      uniswapV2RouterInterface.decodeFunctionData(
        'swapExactTokensForETHSupportingFeeOnTransferTokens',
        toEth.call!.data,
      ),
    ).toEqual([1_500_000n, 400n, swapLeg.path, USER, DEADLINE]);
    // Untaxed (0 measured) stays the plain swap.
    const untaxed = evmStepOf(inputOf({}, { leg: { ...swapLeg, sellTaxBps: 0, buyTaxBps: 0 } }), chains);
    expect(uniswapV2RouterInterface.getFunction(untaxed.call!.data.slice(0, 10))?.name).toBe(
      'swapExactTokensForTokens',
    );
    // The router's Router02 swaps are the fee-on-transfer ones: the minimum out is what arrives, as is.
    const permit = {
      router: PERMIT_ROUTER,
      permit2: PERMIT2,
      kind: 'permit2' as const,
      nonce: 9n,
      deadline: DEADLINE,
      signature: '0x' + '11'.repeat(65),
    };
    const permitted = evmStepOf(inputOf({}, { leg: taxedLeg, permit }), chains);
    expect(permitted.call!.to).toBe(PERMIT_ROUTER);
    const [swap, path, fees] = swapGatewayRouterInterface.decodeFunctionData(
      'swapWithFees',
      permitted.call!.data,
    );
    expect(swap.toArray()).toEqual([ROUTER, 1_500_000n, 400n, USER, false, DEADLINE]);
    expect(path).toEqual(swapLeg.path);
    expect(fees).toEqual([]);
    const sponsored = evmStepOf(
      inputOf({ signing: 'permit2-intent' }, { leg: { ...taxedLeg, sellTaxBps: 500 }, sponsored: true }),
      chains,
    );
    expect(sponsored.sponsored).toMatchObject({
      mode: 'permit2-intent',
      intent: { kind: 'swap', router: PERMIT_ROUTER, venue: ROUTER, amount: '1500000', amountOutMin: '400' },
    });
  });

  it.each([
    ['buys', { sellTaxBps: 0, buyTaxBps: 300 }],
    ['sells', { sellTaxBps: 500, buyTaxBps: 0 }],
  ])(
    'a first leg that %s a taxed token with integrator fees goes through the router’s swapWithFees for the minimum out as it is',
    (_, taxes) => {
      const feeRecipient = getAddress('0x' + 'fa'.repeat(20));
      const step = evmStepOf(
        inputOf(
          {},
          {
            leg: { ...swapLeg, ...taxes },
            minOut: 970n,
            integratorFees: [{ recipient: feeRecipient, amount: 5_000n }],
          },
        ),
        chains,
      );
      expect(step.call!.to).toBe(PERMIT_ROUTER);
      const [swap, path, fees] = swapGatewayRouterInterface.decodeFunctionData(
        'swapWithFees',
        step.call!.data,
      );
      // Router02's fee-on-transfer swap checks the minimum against what the recipient received.
      expect(swap.toArray()).toEqual([ROUTER, 1_505_000n, 970n, USER, false, DEADLINE]);
      expect(path).toEqual(swapLeg.path);
      expect(fees.map((fee: { toArray(): unknown[] }) => fee.toArray())).toEqual([[feeRecipient, 5_000n]]);
    },
  );

  it('an aggregator’s prebuilt call is the step as it is, for the wallet it was built for', () => {
    const call = { to: ROUTER, data: '0x1234', value: '0', from: USER };
    expect(evmStepOf(inputOf({}, { leg: { ...swapLeg, call } }), chains)).toEqual({
      kind: 'swap',
      call: { to: ROUTER, data: '0x1234', value: '0' },
    });
    const forAnother = { ...call, from: ROUTER };
    expect(() => evmStepOf(inputOf({}, { leg: { ...swapLeg, call: forAnother } }), chains)).toThrow(
      /was built for/,
    );
  });

  it('an aggregator’s prebuilt call taking the integrator fees: its spender approved for the spend plus the fees, the call sent as built', () => {
    const call = { to: ROUTER, data: '0x1234', value: '0', from: USER };
    const integratorFees = [{ recipient: FEE_RECIPIENT, amount: 7_500n }];
    const leg = { ...swapLeg, spender: SPENDER_0X, call };
    const approve = evmStepOf(
      inputOf({ kind: 'approve', approves: 'spender' }, { leg, integratorFees }),
      chains,
    );
    expect(approve.approve).toEqual({ token: USDC_A.address, spender: SPENDER_0X, amount: '1507500' });
    expect(erc20Interface.decodeFunctionData('approve', approve.call!.data)).toEqual([
      SPENDER_0X,
      1_507_500n,
    ]);
    expect(evmStepOf(inputOf({}, { leg, integratorFees }), chains)).toEqual({
      kind: 'swap',
      call: { to: ROUTER, data: '0x1234', value: '0' },
    });
  });
});
