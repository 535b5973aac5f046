import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import type { ChainFamily } from './chain-descriptor';
import { PermitContracts, permitLegProblem } from './permit-contracts';
import { bridgeSwapLegOf, SplitStep, splitSteps, StepSplitChains } from './step-split';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ROUTER = hex(4);
const BRIDGE = hex(5);
const SWAP_ROUTER_02 = hex(6);
const SPOKE_POOL = hex(7);
const contracts: PermitContracts = {
  permit2: hex(10),
  permitRouter: hex(11),
  uniswapV2Router: ROUTER,
  uniswapV3SwapRouter02: SWAP_ROUTER_02,
  bridge: BRIDGE,
  acrossSpokePool: SPOKE_POOL,
};
const FAMILIES: Record<string, ChainFamily> = {
  'devnet-a': 'evm',
  'devnet-b': 'evm',
  'solana-devnet': 'solana',
  bitcoin: 'bitcoin',
};
const USDC_PERMIT = { name: 'USD Coin', version: '2' };

const chains: StepSplitChains = {
  familyOf: (chain) => FAMILIES[chain],
  permitContractsOf: (chain) => (FAMILIES[chain] === 'evm' ? contracts : undefined),
  tokenPermitOf: (_chain, token) => (token === hex(1) ? USDC_PERMIT : undefined),
};

const token = (chain: string, symbol: string, address: string | null, decimals = 18): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
const usdc = (chain: string) => token(chain, 'USDC', hex(1), 6);
const weth = (chain: string) => token(chain, 'WETH', hex(2));
const leg = (overrides: Partial<RouteLeg>): RouteLeg => ({
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: usdc('devnet-a'),
  tokenOut: weth('devnet-a'),
  amountIn: '1000000',
  expectedAmountOut: '1',
  minAmountOut: '1',
  spender: ROUTER,
  path: [hex(1), hex(2)],
  estimatedDurationSeconds: 1,
  ...overrides,
});
const bridgeToB = leg({
  kind: 'bridge',
  provider: 'devnet-bridge',
  tokenOut: usdc('devnet-b'),
  spender: BRIDGE,
  path: undefined,
  destinationChain: 'devnet-b',
});
const swapOnB = leg({ chain: 'devnet-b', tokenIn: usdc('devnet-b'), tokenOut: weth('devnet-b') });
const aggregatorSwap = leg({
  provider: 'lifi',
  spender: hex(20),
  path: undefined,
  call: { to: hex(20), data: '0x', value: '0', from: hex(21) },
});
const solanaSwap = leg({
  chain: 'solana-devnet',
  provider: 'jupiter',
  tokenIn: token('solana-devnet', 'USDC', MINT, 6),
  tokenOut: token('solana-devnet', 'SOL', null, 9),
});
const solanaBridgeToA = leg({
  kind: 'bridge',
  chain: 'solana-devnet',
  provider: 'devnet-bridge',
  tokenIn: token('solana-devnet', 'USDC', MINT, 6),
  tokenOut: usdc('devnet-a'),
  spender: hex(8),
  path: undefined,
  destinationChain: 'devnet-a',
});

/** `kind@leg:signing` (+ `>permit2|spender` for approves, `+swap` for a bridge-swap). */
const shapeOf = (steps: SplitStep[]) =>
  steps.map(
    (s) =>
      `${s.kind}@${s.legIndex}:${s.signing}${s.approves ? `>${s.approves}` : ''}${s.bridgeSwap ? '+swap' : ''}`,
  );
const sponsored = (legs: RouteLeg[]) => shapeOf(splitSteps(legs, chains, { gasPayment: 'sponsored' }));
const userPaid = (
  legs: RouteLeg[],
  options: { firstLegPermit?: 'eip2612' | 'permit2'; permit2Allowance?: bigint } = {},
) => shapeOf(splitSteps(legs, chains, { gasPayment: 'user', ...options }));

describe('splitSteps (how legs become wallet-signed steps)', () => {
  describe('sponsored', () => {
    it('an ERC-20 leg through the router: an approve of Permit2 (the token permit when it has one), then the intent', () => {
      expect(sponsored([leg({})])).toEqual(['approve@0:eip2612-permit>permit2', 'swap@0:permit2-intent']);
      const wethIn = leg({ tokenIn: weth('devnet-a'), tokenOut: usdc('devnet-a'), path: [hex(2), hex(1)] });
      expect(sponsored([wethIn])).toEqual(['approve@0:evm-transaction>permit2', 'swap@0:permit2-intent']);
    });

    it('a native input or an aggregator call: transactions, with an approve of the spender only for an ERC-20', () => {
      const ethIn = leg({ tokenIn: token('devnet-a', 'ETH', null), path: [hex(2), hex(1)] });
      expect(sponsored([ethIn])).toEqual(['swap@0:evm-transaction']);
      expect(sponsored([aggregatorSwap])).toEqual([
        'approve@0:evm-transaction>spender',
        'swap@0:evm-transaction',
      ]);
    });

    it('a chain without permit contracts: the leg is the wallet’s transactions', () => {
      const noPermits = { ...chains, permitContractsOf: () => undefined };
      expect(shapeOf(splitSteps([leg({})], noPermits, { gasPayment: 'sponsored' }))).toEqual([
        'approve@0:evm-transaction>spender',
        'swap@0:evm-transaction',
      ]);
    });

    it('a bridge into a swap through both routers signs once on the source, from EVM or from Solana', () => {
      expect(sponsored([bridgeToB, swapOnB])).toEqual([
        'approve@0:eip2612-permit>permit2',
        'bridge@0:permit2-intent+swap',
      ]);
      expect(sponsored([solanaBridgeToA, leg({})])).toEqual(['bridge@0:solana-transaction+swap']);
    });

    it('Solana legs sign one transaction; legs of a chain of an unknown family, none', () => {
      expect(sponsored([solanaSwap])).toEqual(['swap@0:solana-transaction']);
      expect(sponsored([leg({ chain: 'nowhere' })])).toEqual([]);
    });

    it('a Bitcoin bridge leg signs one PSBT and never binds the destination swap (its memo cannot carry one)', () => {
      const btcToA = leg({
        kind: 'bridge',
        chain: 'bitcoin',
        spender: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
        tokenIn: token('bitcoin', 'BTC', null, 8),
        tokenOut: usdc('devnet-a'),
        destinationChain: 'devnet-a',
      });
      expect(sponsored([btcToA, leg({})])).toEqual([
        'bridge@0:bitcoin-psbt',
        'approve@1:eip2612-permit>permit2',
        'swap@1:permit2-intent',
      ]);
      expect(userPaid([btcToA])).toEqual(['bridge@0:bitcoin-psbt']);
    });
  });

  describe('user-paid', () => {
    it('approves the spender before each ERC-20 leg and never binds a bridge-swap', () => {
      expect(userPaid([bridgeToB, swapOnB])).toEqual([
        'approve@0:evm-transaction>spender',
        'bridge@0:evm-transaction',
        'approve@1:evm-transaction>spender',
        'swap@1:evm-transaction',
      ]);
      expect(userPaid([solanaSwap])).toEqual(['swap@0:solana-transaction']);
    });

    it('a first-leg permit replaces its approve; Permit2 is approved first when the allowance to it is short', () => {
      expect(userPaid([leg({}), swapOnB], { firstLegPermit: 'eip2612' })).toEqual([
        'swap@0:evm-transaction',
        'approve@1:evm-transaction>spender',
        'swap@1:evm-transaction',
      ]);
      expect(userPaid([leg({})], { firstLegPermit: 'permit2', permit2Allowance: 999_999n })).toEqual([
        'approve@0:evm-transaction>permit2',
        'swap@0:evm-transaction',
      ]);
      expect(userPaid([leg({})], { firstLegPermit: 'permit2' })[0]).toBe('approve@0:evm-transaction>permit2');
      expect(userPaid([leg({})], { firstLegPermit: 'permit2', permit2Allowance: 1_000_000n })).toEqual([
        'swap@0:evm-transaction',
      ]);
    });
  });

  describe('bridgeSwapLegOf', () => {
    it('only a final bridge into a swap of the bridged token on an EVM chain, through routers on both ends', () => {
      expect(bridgeSwapLegOf([bridgeToB, swapOnB], chains)).toBe(0);
      expect(bridgeSwapLegOf([leg({}), bridgeToB, swapOnB], chains)).toBe(1);
      expect(bridgeSwapLegOf([swapOnB], chains)).toBeNull();
      expect(bridgeSwapLegOf([bridgeToB, swapOnB, swapOnB], chains)).toBeNull();
      const otherToken = leg({
        chain: 'devnet-b',
        tokenIn: weth('devnet-b'),
        tokenOut: usdc('devnet-b'),
        path: [hex(2), hex(1)],
      });
      expect(bridgeSwapLegOf([bridgeToB, otherToken], chains)).toBeNull();
      expect(
        bridgeSwapLegOf([bridgeToB, swapOnB], {
          ...chains,
          permitContractsOf: (c) => (c === 'devnet-a' ? contracts : undefined),
        }),
      ).toBeNull();
      expect(
        bridgeSwapLegOf([bridgeToB, swapOnB], {
          ...chains,
          familyOf: (c) => (c === 'devnet-b' ? 'solana' : 'evm'),
        }),
      ).toBeNull();
    });

    it('Across into a Uniswap V3 swap (what AcrossSwapMessage carries), never into a V2 one; the devnet bridge the other way round', () => {
      const acrossToB = { ...bridgeToB, provider: 'across', spender: SPOKE_POOL };
      const v3OnB = { ...swapOnB, provider: 'uniswap-v3', spender: SWAP_ROUTER_02, poolFees: [500] };
      expect(bridgeSwapLegOf([acrossToB, v3OnB], chains)).toBe(0);
      expect(bridgeSwapLegOf([acrossToB, swapOnB], chains)).toBeNull();
      expect(bridgeSwapLegOf([bridgeToB, v3OnB], chains)).toBeNull();
      expect(sponsored([acrossToB, v3OnB])).toEqual([
        'approve@0:eip2612-permit>permit2',
        'bridge@0:permit2-intent+swap',
      ]);
      expect(sponsored([acrossToB])).toEqual(['approve@0:eip2612-permit>permit2', 'bridge@0:permit2-intent']);
      // A deposit through another SpokePool than the chain's is the wallet's own transaction.
      expect(sponsored([{ ...acrossToB, spender: hex(9) }])).toEqual([
        'approve@0:evm-transaction>spender',
        'bridge@0:evm-transaction',
      ]);
      // User-paid, an Across deposit carries no permit: the router has no such entry point.
      expect(permitLegProblem(acrossToB, contracts)).toMatch(/Across deposit cannot carry a permit/);
      expect(permitLegProblem(acrossToB, contracts, { sponsored: true })).toBeNull();
    });

    it('from Solana only the devnet bridge deposit of an SPL token, not a prebuilt transaction', () => {
      expect(bridgeSwapLegOf([solanaBridgeToA, leg({})], chains)).toBe(0);
      const prebuilt = {
        ...solanaBridgeToA,
        solanaTransaction: { serializedTransaction: 'AA==', lastValidBlockHeight: 1, signer: MINT },
      };
      expect(bridgeSwapLegOf([prebuilt, leg({})], chains)).toBeNull();
      const native = { ...solanaBridgeToA, tokenIn: token('solana-devnet', 'SOL', null, 9) };
      expect(bridgeSwapLegOf([native, leg({})], chains)).toBeNull();
    });
  });
});
