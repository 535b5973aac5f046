import { Contract, MaxUint256, type Signer, type TransactionReceipt } from 'ethers';
import { withGasHeadroom } from './gas-headroom';

// A wallet other than the gateway's trading through a Uniswap V2 pool of a local chain, as the
// suites that move prices do (price checks, block-scoped quotes, limit-order triggers).

const ROUTER_ABI = [
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
];
const ERC20_APPROVE_ABI = ['function approve(address spender, uint256 amount) returns (bool)'];

export interface UniswapV2Sale {
  /** The Uniswap V2 Router02 of the chain. */
  router: string;
  /** The trading wallet, connected to the chain; it receives the output. */
  trader: Signer;
  /** Token addresses, the one sold first. */
  path: readonly string[];
  /** Base units of path[0] sold; no minimum out. */
  amountIn: bigint;
  /** Approve the router for path[0] first (skip when the trader already did). Default true. */
  approve?: boolean;
}

/**
 * `trader` sells `amountIn` of path[0] through the router, with no minimum, and answers the mined
 * receipt. The transaction goes with a quarter more gas than its estimate, as wallets send it
 * (gas-headroom.ts: why an exact estimate is not enough through a pair).
 */
export async function sellThroughUniswapV2(sale: UniswapV2Sale): Promise<TransactionReceipt> {
  const { router, trader, path, amountIn } = sale;
  if (sale.approve ?? true) {
    const token = new Contract(path[0], ERC20_APPROVE_ABI, trader);
    await (await token.getFunction('approve')(router, MaxUint256)).wait();
  }
  const swap = new Contract(router, ROUTER_ABI, trader).getFunction('swapExactTokensForTokens');
  const deadline = Math.floor(Date.now() / 1000) + 600;
  const args = [amountIn, 0n, [...path], await trader.getAddress(), deadline] as const;
  const gas = await swap.estimateGas(...args);
  const sent = await swap(...args, { gasLimit: withGasHeadroom(gas) });
  const receipt = await sent.wait();
  if (!receipt) throw new Error(`trade ${sent.hash} was not mined`);
  return receipt;
}
