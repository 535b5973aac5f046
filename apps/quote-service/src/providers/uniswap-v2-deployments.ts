import { ChainRegistry } from '@swapgw/chains';
import { getAddress } from 'ethers';

export interface UniswapV2Deployment {
  chain: string;
  factory: string;
  router: string;
  /** keccak256 of the pair creation code: pair addresses are computed, not looked up. */
  initCodeHash: string;
  /** Wrapped native coin: stands in for the native coin in paths. */
  weth: string;
}

/** Uniswap V2 on Ethereum mainnet (factory, Router02, WETH9): the canonical deployment. */
const ETHEREUM_MAINNET: Omit<UniswapV2Deployment, 'chain'> = {
  factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
  router: '0x7a250d5630B4cF539739dF2C5dAcc4c660F2488D',
  initCodeHash: '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
  weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
};

/**
 * Where Uniswap V2 can be read on a chain: devnet chains from the manifest, Ethereum mainnet from
 * the canonical addresses. Only chains with an RPC URL qualify, since quotes read reserves on chain.
 */
export function uniswapV2Deployment(
  registry: ChainRegistry,
  chainId: string,
): UniswapV2Deployment | undefined {
  const chain = registry.find(chainId);
  // Only the devnet's EVM chains (manifest `chains`) and EVM chain id 1 have one: no family check needed.
  if (!chain?.rpcUrl) return undefined;
  const devnet = registry.devnetChain(chainId);
  if (devnet) {
    const weth = devnet.tokens.WETH;
    if (!weth) return undefined;
    return {
      chain: chainId,
      factory: getAddress(devnet.uniswapV2.factory),
      router: getAddress(devnet.uniswapV2.router),
      initCodeHash: devnet.uniswapV2.initCodeHash,
      weth: getAddress(weth.address),
    };
  }
  if (chain.evmChainId === 1) return { chain: chainId, ...ETHEREUM_MAINNET };
  return undefined;
}
