import { ACROSS_PROVIDER } from './families/evm/across-calldata';
import { THORCHAIN_PROVIDER } from './families/evm/thorchain-calldata';

/**
 * The contracts of a chain that take a permit instead of an approval (`ChainRegistry.permitContracts`,
 * from the chain's deployments): the SwapGatewayRouter, Permit2, and the venues the router may be
 * told to call there. The router itself has no configuration (the same contract at the same address
 * on every chain): the venue of each leg is an argument, signed by the owner on sponsored legs. The
 * service names only the chain's own venues, listed here.
 */
export interface PermitContracts {
  permit2: string;
  /** SwapGatewayRouter: the spender of both kinds of permit. */
  permitRouter: string;
  /** Uniswap V2 Router02 of the chain, when it has one. */
  uniswapV2Router?: string;
  /** Uniswap V3 SwapRouter02 of the chain, when it has one. */
  uniswapV3SwapRouter02?: string;
  /** The devnet bridge (devnet chains only). */
  bridge?: string;
  /** Across's SpokePool of the chain, when Across is deployed there (sponsored legs, and user-paid deposits paying integrator fees). */
  acrossSpokePool?: string;
}

/** The parts of a route leg that decide whether its input can come with a permit. */
export interface PermitLegView {
  kind: 'swap' | 'bridge';
  chain: string;
  provider: string;
  spender: string;
  tokenIn: { symbol: string; address: string | null };
  path?: string[];
  /** Uniswap V3 pool fees: the leg swaps on SwapRouter02. */
  poolFees?: number[];
  call?: unknown;
}

/**
 * The venue of `leg` that the router would be told to call: the chain's Across SpokePool for an
 * `across` bridge leg, the chain's bridge for another bridge leg, its SwapRouter02 for a swap with
 * pool fees (Uniswap V3), its Router02 for a swap with a path.
 */
export function permitVenueOf(leg: PermitLegView, contracts: PermitContracts): string | undefined {
  // THORChain's router is called by the wallet itself (depositWithExpiry), never by our router.
  if (leg.kind === 'bridge' && leg.provider === THORCHAIN_PROVIDER) return undefined;
  if (leg.kind === 'bridge')
    return leg.provider === ACROSS_PROVIDER ? contracts.acrossSpokePool : contracts.bridge;
  if (!leg.path) return undefined;
  return leg.poolFees ? contracts.uniswapV3SwapRouter02 : contracts.uniswapV2Router;
}

/**
 * Why a leg cannot pull its input through the chain's permit router, or null when it can: an
 * ERC-20 input into one of the chain's venues (Uniswap V2 with a path, Uniswap V3 with a path and
 * pool fees, the bridge, or, sponsored only, Across's SpokePool), the leg's spender being that
 * venue. The router's Across entry points are the sponsored ones (a Permit2 witness): a user-paid
 * permit cannot carry an Across deposit.
 */
export function permitLegProblem(
  leg: PermitLegView,
  contracts: PermitContracts | undefined,
  options: { sponsored?: boolean } = {},
): string | null {
  if (leg.kind === 'bridge' && leg.provider === ACROSS_PROVIDER && !options.sponsored)
    return 'The Across deposit cannot carry a permit (only a gas-covered build signs it for the router); use permitType approve';
  if (leg.tokenIn.address === null)
    return `The input token ${leg.tokenIn.symbol} is native: it needs no permit`;
  if (leg.call)
    return `The first leg (${leg.provider}) is a prebuilt call that cannot carry a permit; use permitType approve`;
  if (!contracts) return `${leg.chain} has no permit router; use permitType approve`;
  const venue = permitVenueOf(leg, contracts);
  if (!venue || leg.spender.toLowerCase() !== venue.toLowerCase()) {
    return `The first leg (${leg.provider}) does not go through a venue the permit router of ${leg.chain} calls; use permitType approve`;
  }
  return null;
}
