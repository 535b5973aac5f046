import { sellThroughUniswapV2 } from '@swapgw/devnet';
import { Contract, Interface, Wallet } from 'ethers';
import { DevnetEvm } from './devnet-evm';

// Another wallet trading through a devnet Uniswap V2 pool, as the price-check suites move prices.

const ROUTER = new Interface([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);

/** The router's interface, to decode a payload's swapExactTokensForTokens. */
export const UNISWAP_V2_ROUTER = ROUTER;

const pathOf = (devnet: DevnetEvm, chain: string, sell: string, buy: string) => [
  devnet.chain(chain).tokens[sell].address,
  devnet.chain(chain).tokens[buy].address,
];

/**
 * `trader` (connected to `chain`) sells `amountIn` base units of `sell` for `buy` through the
 * chain's Uniswap V2 router, approving it first; no minimum.
 */
export async function tradeThroughPool(
  devnet: DevnetEvm,
  chain: string,
  trader: Wallet,
  sell: string,
  buy: string,
  amountIn: bigint,
): Promise<void> {
  await sellThroughUniswapV2({
    router: devnet.chain(chain).uniswapV2.router,
    trader,
    path: pathOf(devnet, chain, sell, buy),
    amountIn,
  });
}

/** What `chain`'s pool pays now for `amountIn` of `sell`, in base units of `buy`. */
export async function poolAmountOut(
  devnet: DevnetEvm,
  chain: string,
  sell: string,
  buy: string,
  amountIn: bigint,
): Promise<bigint> {
  const router = new Contract(devnet.chain(chain).uniswapV2.router, ROUTER, devnet.provider(chain));
  const amounts = (await router.getFunction('getAmountsOut')(
    amountIn,
    pathOf(devnet, chain, sell, buy),
  )) as bigint[];
  return amounts[amounts.length - 1];
}
