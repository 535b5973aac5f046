/**
 * The contracts of a chain that take a permit instead of an approval (devnet manifest
 * `chains[].permits`): the SwapGatewayRouter, fixed to that chain's Uniswap V2 router and bridge,
 * and Permit2.
 */
export interface PermitContracts {
  permit2: string;
  /** SwapGatewayRouter: the spender of both kinds of permit. */
  permitRouter: string;
  /** The Router02 and the bridge the permitRouter calls: a leg through others cannot use it. */
  uniswapV2Router: string;
  bridge: string;
}

/** The parts of a route leg that decide whether its input can come with a permit. */
export interface PermitLegView {
  kind: 'swap' | 'bridge';
  chain: string;
  provider: string;
  spender: string;
  tokenIn: { symbol: string; address: string | null };
  path?: string[];
  call?: unknown;
}

/**
 * Why a leg cannot pull its input through the chain's permit router, or null when it can: an
 * ERC-20 input into the Uniswap V2 router (with a path) or the bridge that the permit router calls.
 */
export function permitLegProblem(leg: PermitLegView, contracts: PermitContracts | undefined): string | null {
  if (leg.tokenIn.address === null)
    return `The input token ${leg.tokenIn.symbol} is native: it needs no permit`;
  if (leg.call)
    return `The first leg (${leg.provider}) is a prebuilt call that cannot carry a permit; use permitType approve`;
  if (!contracts) return `${leg.chain} has no permit router; use permitType approve`;
  const target = leg.kind === 'bridge' ? contracts.bridge : contracts.uniswapV2Router;
  if (leg.spender.toLowerCase() !== target.toLowerCase() || (leg.kind === 'swap' && !leg.path)) {
    return `The first leg (${leg.provider}) does not go through a contract the permit router of ${leg.chain} calls; use permitType approve`;
  }
  return null;
}
