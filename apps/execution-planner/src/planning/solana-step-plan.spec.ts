import { Keypair, PublicKey } from '@solana/web3.js';
import { bridgeSwapLegOf } from '@swapgw/chains';
import { CodedError, RouteLeg, RoutePlan, TokenRef } from '@swapgw/contracts';
import { getAddress } from 'ethers';
import { devnetBridgeInterface, erc20Interface, uniswapV2RouterInterface } from '@swapgw/chains/families';
import { balanceKey, balancesToRead } from './bridged-balances';
import { planSteps, StepPlanContext } from './step-plan';
import { walletsOf } from './swap-wallets';

// EVM ⇄ Solana routes as quote-service builds them over the devnet bridge, and Jupiter legs.
const EVM_USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EVM_OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SOL_USER = Keypair.fromSeed(Buffer.alloc(32, 1)).publicKey.toBase58();
const SOL_OTHER = Keypair.fromSeed(Buffer.alloc(32, 2)).publicKey.toBase58();
const MINT = Keypair.fromSeed(Buffer.alloc(32, 3)).publicKey.toBase58();
const VAULT = Keypair.fromSeed(Buffer.alloc(32, 4)).publicKey.toBase58();
const BSOL = Keypair.fromSeed(Buffer.alloc(32, 5)).publicKey.toBase58();
const JUPITER = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';
const SOLANA_BRIDGE_ID = 1399811149;
const ROUTER_A = getAddress('0x' + 'a1'.repeat(20));
const BRIDGE_A = getAddress('0x' + 'b1'.repeat(20));

const token = (chain: string, symbol: string, address: string | null, decimals: number): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)), 6);
const WETH_A = token('devnet-a', 'WETH', getAddress('0x' + '22'.repeat(20)), 18);
const USDC_S = token('solana-devnet', 'USDC', MINT, 6);
const BSOL_S = token('solana-devnet', 'bSOL', BSOL, 9);

const NOW_MS = 1_800_000_000_000;
const context: StepPlanContext = {
  nowMs: NOW_MS,
  swapDeadlineSeconds: 3600,
  evmChainIdOf: (chain) => ({ 'devnet-a': 31337 })[chain] ?? Number.NaN,
  familyOf: (chain) => (chain.startsWith('solana') ? 'solana' : 'evm'),
  balancesBefore: new Map([
    [balanceKey('devnet-a', USDC_A.address), 1_000_000_000_000n],
    [balanceKey('solana-devnet', MINT), 7_000_000n],
  ]),
};

const base = { expectedAmountOut: '0', minAmountOut: '0', estimatedDurationSeconds: 3 };
const solanaToEvmBridge: RouteLeg = {
  ...base,
  kind: 'bridge',
  chain: 'solana-devnet',
  provider: 'devnet-bridge',
  tokenIn: USDC_S,
  tokenOut: USDC_A,
  amountIn: '20000000',
  expectedAmountOut: '19990000',
  minAmountOut: '19990000',
  spender: VAULT,
  destinationChain: 'devnet-a',
  destinationBridgeChainId: 31337,
};
const swapOnA: RouteLeg = {
  ...base,
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: USDC_A,
  tokenOut: WETH_A,
  amountIn: '19990000',
  expectedAmountOut: '6600000000000000',
  minAmountOut: '6500000000000000',
  spender: ROUTER_A,
  path: [USDC_A.address!, WETH_A.address!],
};
const evmToSolanaBridge: RouteLeg = {
  ...base,
  kind: 'bridge',
  chain: 'devnet-a',
  provider: 'devnet-bridge',
  tokenIn: USDC_A,
  tokenOut: USDC_S,
  amountIn: '30000000',
  expectedAmountOut: '29985000',
  minAmountOut: '29985000',
  spender: BRIDGE_A,
  destinationChain: 'solana-devnet',
  destinationBridgeChainId: SOLANA_BRIDGE_ID,
};
const jupiterSwap = (signer: string): RouteLeg => ({
  ...base,
  kind: 'swap',
  chain: 'solana-devnet',
  provider: 'jupiter',
  tokenIn: USDC_S,
  tokenOut: BSOL_S,
  amountIn: '29985000',
  expectedAmountOut: '150000000',
  minAmountOut: '149000000',
  spender: JUPITER,
  solanaTransaction: { serializedTransaction: 'AQID', signer, lastValidBlockHeight: 1234 },
});

const planOf = (legs: RouteLeg[], recipient?: string): RoutePlan => ({
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
  ...(recipient ? { recipient } : {}),
  legs,
});

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as CodedError).code;
  }
};

describe('planSteps on Solana routes', () => {
  it('Solana → EVM: one bridge-deposit step signed by the Solana wallet, then approve → swap signed by the EVM recipient once the USDC arrived', () => {
    const plan = planOf([solanaToEvmBridge, swapOnA]);
    const steps = planSteps(plan, { userAddress: SOL_USER, recipient: EVM_OTHER }, context);

    expect(steps.map((s) => `${s.kind}@${s.chain} by ${s.signer}`)).toEqual([
      `bridge@solana-devnet by ${SOL_USER}`,
      `approve@devnet-a by ${EVM_OTHER}`,
      `swap@devnet-a by ${EVM_OTHER}`,
    ]);
    expect(steps[0].call).toBeNull();
    expect(steps[0].approve).toBeUndefined(); // SPL transfers need no allowance
    // The bridge pays the EVM wallet that signs the next steps.
    expect(steps[0].solana).toEqual({
      kind: 'bridge-deposit',
      mint: MINT,
      vault: VAULT,
      amount: '20000000',
      destinationChainId: 31337,
      recipient: EVM_OTHER,
    });
    const waitFor = {
      token: USDC_A.address,
      holder: EVM_OTHER,
      minBalance: String(1_000_000_000_000n + 19_990_000n),
    };
    expect(steps[1].waitFor).toEqual(waitFor);
    expect(steps[1].approve).toEqual({ token: USDC_A.address, spender: ROUTER_A, amount: '19990000' });
    const swap = uniswapV2RouterInterface.decodeFunctionData('swapExactTokensForTokens', steps[2].call!.data);
    expect(swap[0]).toBe(19_990_000n);
    expect(swap[3]).toBe(EVM_OTHER);
    expect(
      balancesToRead(
        plan,
        walletsOf(plan, { userAddress: SOL_USER, recipient: EVM_OTHER }, context.familyOf).walletOn,
        context.familyOf,
      ),
    ).toEqual([{ chain: 'devnet-a', token: USDC_A.address, holder: EVM_OTHER }]);
  });

  it('EVM → Solana: approve the bridge, then depositTo(amount, Solana bridge id, the 32 bytes of the Solana recipient)', () => {
    const steps = planSteps(
      planOf([evmToSolanaBridge]),
      { userAddress: EVM_USER, recipient: SOL_OTHER },
      context,
    );

    expect(steps.map((s) => `${s.kind}@${s.chain} by ${s.signer}`)).toEqual([
      `approve@devnet-a by ${EVM_USER}`,
      `bridge@devnet-a by ${EVM_USER}`,
    ]);
    expect(erc20Interface.decodeFunctionData('approve', steps[0].call!.data).toArray()).toEqual([
      BRIDGE_A,
      30_000_000n,
    ]);
    expect(steps[1].call!.to).toBe(BRIDGE_A);
    const depositTo = devnetBridgeInterface.decodeFunctionData('depositTo', steps[1].call!.data);
    expect(depositTo.toArray()).toEqual([
      30_000_000n,
      BigInt(SOLANA_BRIDGE_ID),
      '0x' + new PublicKey(SOL_OTHER).toBuffer().toString('hex'),
    ]);
  });

  it('EVM → Solana then Jupiter: the Solana step hands out the prebuilt transaction, signed by the recipient, after the bridged USDC arrived', () => {
    const steps = planSteps(
      planOf([evmToSolanaBridge, jupiterSwap(SOL_OTHER)]),
      { userAddress: EVM_USER, recipient: SOL_OTHER },
      context,
    );

    expect(steps.map((s) => `${s.kind}@${s.chain}`)).toEqual([
      'approve@devnet-a',
      'bridge@devnet-a',
      'swap@solana-devnet',
    ]);
    const depositTo = devnetBridgeInterface.decodeFunctionData('depositTo', steps[1].call!.data);
    expect(depositTo[2]).toBe('0x' + new PublicKey(SOL_OTHER).toBuffer().toString('hex')); // bridged to the wallet that signs on Solana
    expect(steps[2]).toMatchObject({
      signer: SOL_OTHER,
      call: null,
      solana: { kind: 'prebuilt-transaction', serializedTransaction: 'AQID', lastValidBlockHeight: 1234 },
      waitFor: { token: MINT, holder: SOL_OTHER, minBalance: String(7_000_000n + 29_985_000n) },
    });
  });

  it('a Solana-only Jupiter swap is one step signed by the user', () => {
    const steps = planSteps(
      planOf([{ ...jupiterSwap(SOL_USER), amountIn: '5000000' }]),
      { userAddress: SOL_USER },
      context,
    );
    expect(steps).toEqual([
      expect.objectContaining({
        index: 1,
        kind: 'swap',
        chain: 'solana-devnet',
        signer: SOL_USER,
        solana: expect.objectContaining({ kind: 'prebuilt-transaction' }),
      }),
    ]);
  });

  it('takes the recipient from the quote when the request names none', () => {
    const steps = planSteps(
      planOf([solanaToEvmBridge, swapOnA], EVM_OTHER),
      { userAddress: SOL_USER },
      context,
    );
    expect(steps[0].solana!.recipient).toBe(EVM_OTHER);
    expect(steps[2].signer).toBe(EVM_OTHER);
  });

  it.each([
    [
      'an EVM userAddress on a Solana first leg',
      [solanaToEvmBridge, swapOnA],
      { userAddress: EVM_USER, recipient: EVM_OTHER },
    ],
    [
      'a Solana userAddress on an EVM first leg',
      [evmToSolanaBridge],
      { userAddress: SOL_USER, recipient: SOL_OTHER },
    ],
    [
      'a Solana recipient of an EVM destination',
      [solanaToEvmBridge, swapOnA],
      { userAddress: SOL_USER, recipient: SOL_OTHER },
    ],
    [
      'an EVM recipient of a Solana destination',
      [evmToSolanaBridge],
      { userAddress: EVM_USER, recipient: EVM_OTHER },
    ],
    ['no recipient on a cross-family route', [evmToSolanaBridge], { userAddress: EVM_USER }],
    ['a Jupiter transaction built for another wallet', [jupiterSwap(SOL_OTHER)], { userAddress: SOL_USER }],
  ])('rejects %s with INVALID_ADDRESS', (_name, legs, request) => {
    expect(codeOf(() => planSteps(planOf(legs as RouteLeg[]), request, context))).toBe('INVALID_ADDRESS');
  });

  it('rejects a Jupiter leg priced without a transaction, and a permit on a Solana source, with VALIDATION_FAILED', () => {
    const { solanaTransaction: _none, ...priced } = jupiterSwap(SOL_USER);
    expect(codeOf(() => planSteps(planOf([priced]), { userAddress: SOL_USER }, context))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      codeOf(() =>
        planSteps(
          planOf([solanaToEvmBridge]),
          { userAddress: SOL_USER, recipient: EVM_OTHER, permitType: 'eip2612', permitDeadline: NOW_MS + 1 },
          context,
        ),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('sponsored Solana → EVM swap through the destination’s SwapGatewayRouter: one Solana signature (bridge-swap)', () => {
  const PERMIT_ROUTER_A = getAddress('0x' + 'd1'.repeat(20));
  const PERMIT2_A = getAddress('0x' + 'd2'.repeat(20));
  const ETH_A = token('devnet-a', 'ETH', null, 18);
  const deadline = NOW_MS / 1000 + 3600;
  const routerContext: StepPlanContext = {
    ...context,
    permitContractsOf: (chain) =>
      chain === 'devnet-a'
        ? { permitRouter: PERMIT_ROUTER_A, permit2: PERMIT2_A, uniswapV2Router: ROUTER_A, bridge: BRIDGE_A }
        : undefined,
    // The destination's balance is never waited on: nothing is read for it.
    balancesBefore: new Map(),
  };

  it('one bridge-deposit step, paid by the service’s fee payer, to the destination router with the swap as its message; no devnet-a steps', () => {
    const plan = planOf([solanaToEvmBridge, swapOnA]);
    const steps = planSteps(plan, { userAddress: SOL_USER, recipient: EVM_OTHER }, routerContext);

    expect(steps).toEqual([
      {
        index: 1,
        legIndex: 0,
        kind: 'bridge',
        chain: 'solana-devnet',
        signer: SOL_USER,
        call: null,
        sponsored: { mode: 'solana-fee-payer' },
        solana: {
          kind: 'bridge-deposit',
          mint: MINT,
          vault: VAULT,
          amount: '20000000',
          destinationChainId: 31337,
          recipient: PERMIT_ROUTER_A,
          message: {
            venue: ROUTER_A,
            path: [USDC_A.address, WETH_A.address],
            amountOutMin: '6500000000000000',
            recipient: EVM_OTHER,
            unwrapNative: false,
            deadline,
          },
        },
      },
    ]);
    expect(bridgeSwapLegOf(plan.legs, routerContext)).toBe(0);
  });

  it('scales the destination minimum to what the bridge guarantees; native ETH out unwraps; the recipient may come from the quote', () => {
    const bridge = { ...solanaToEvmBridge, minAmountOut: '19980000' };
    const swap = { ...swapOnA, tokenOut: ETH_A };
    const steps = planSteps(planOf([bridge, swap], EVM_OTHER), { userAddress: SOL_USER }, routerContext);
    expect(steps).toHaveLength(1);
    expect(steps[0].solana!.message).toEqual({
      venue: ROUTER_A,
      path: [USDC_A.address, WETH_A.address],
      amountOutMin: '6496748374187093', // 6.5e15 × 19,980,000 / 19,990,000, rounded down
      recipient: EVM_OTHER,
      unwrapNative: true,
      deadline,
    });
  });

  it.each([
    ['devnet-a has no SwapGatewayRouter', { permitContractsOf: () => undefined }, {}],
    ['the destination swap goes through another router', {}, { spender: getAddress('0x' + 'a9'.repeat(20)) }],
    [
      'the destination swap is an aggregator’s prebuilt call',
      {},
      { provider: 'lifi', call: { to: ROUTER_A, data: '0x', value: '0', from: EVM_OTHER }, path: undefined },
    ],
    [
      'the destination swap does not start with the bridged token',
      {},
      { tokenIn: WETH_A, tokenOut: USDC_A, path: [WETH_A.address!, USDC_A.address!] },
    ],
  ])(
    'keeps the bridge to the recipient and its devnet-a steps when %s',
    (_name, contextOverrides: Partial<StepPlanContext>, swapOverrides: Partial<RouteLeg>) => {
      const steps = planSteps(
        planOf([solanaToEvmBridge, { ...swapOnA, ...swapOverrides }]),
        { userAddress: SOL_USER, recipient: EVM_OTHER },
        {
          ...routerContext,
          balancesBefore: context.balancesBefore,
          ...contextOverrides,
        },
      );
      expect(steps[0].solana).toEqual({
        kind: 'bridge-deposit',
        mint: MINT,
        vault: VAULT,
        amount: '20000000',
        destinationChainId: 31337,
        recipient: EVM_OTHER,
      });
      expect(steps.slice(1).map((s) => `${s.chain} by ${s.signer}`)).toEqual([
        'devnet-a by ' + EVM_OTHER,
        'devnet-a by ' + EVM_OTHER,
      ]);
    },
  );

  it('gasPayment user keeps the deposit to the recipient, then its own approve and swap on devnet-a', () => {
    const steps = planSteps(
      planOf([solanaToEvmBridge, swapOnA]),
      { userAddress: SOL_USER, recipient: EVM_OTHER, gasPayment: 'user' },
      { ...routerContext, balancesBefore: context.balancesBefore },
    );
    expect(steps.map((s) => `${s.kind}@${s.chain}:${s.sponsored?.mode}`)).toEqual([
      'bridge@solana-devnet:undefined',
      'approve@devnet-a:undefined',
      'swap@devnet-a:undefined',
    ]);
    expect(steps[0].solana).not.toHaveProperty('message');
    expect(steps[0].solana!.recipient).toBe(EVM_OTHER);
  });

  it('bridgeSwapLegOf: a Solana bridge with a final swap on EVM only, not a bridge to Solana nor a Solana swap', () => {
    expect(bridgeSwapLegOf([solanaToEvmBridge], routerContext)).toBeNull();
    expect(bridgeSwapLegOf([evmToSolanaBridge, jupiterSwap(SOL_OTHER)], routerContext)).toBeNull();
    expect(
      bridgeSwapLegOf(
        [{ ...solanaToEvmBridge, tokenIn: { ...USDC_S, address: null } }, swapOnA],
        routerContext,
      ),
    ).toBeNull();
  });
});
