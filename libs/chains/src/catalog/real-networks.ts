import type { ChainDeployments, UniswapV2Contracts, UniswapV3Contracts } from './chain-catalog';

/**
 * The shipped catalog: what the gateway uses on each supported real network. An operator sets RPC
 * URLs and keys; every address here is the canonical mainnet deployment (Circle's native USDC, the
 * chain's WETH, Uniswap's Permit2 / V2 / V3 deployments, Across's SpokePools), and our
 * SwapGatewayRouter at its CREATE2 address. Checked at boot by
 * validateChainDeployments and listed in docs/chains.md. Changing an address is a code change,
 * reviewed like one.
 */

/** keccak256 of UniswapV2Pair's creation code, the same on every chain Uniswap deployed V2 to. */
const UNISWAP_V2_INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';
/** keccak256 of UniswapV3Pool's creation code (POOL_INIT_CODE_HASH in v3-periphery PoolAddress). */
const UNISWAP_V3_POOL_INIT_CODE_HASH = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';
const UNISWAP_V3_FEE_TIERS = [100, 500, 3000, 10000];

/** Permit2: one address on every EVM chain (deployed with CREATE2). */
export const CANONICAL_PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/**
 * Our SwapGatewayRouter: constructor(permit2) only, no admin, no configuration, deployed with CREATE2
 * through the deterministic deployment proxy with a fixed salt (`npm run contracts -- deploy`), so
 * it has this one address on every chain (and on the devnet and the mainnet replica). A unit test
 * (gateway-router-address.spec.ts) fails when the compiled router would land elsewhere.
 */
export const SWAP_GATEWAY_ROUTER = '0xaF6a9937da6E97b4eB02C30E44221B81DdBB9F8b';

/** Circle's FiatToken v2.2 hashes permits with name "USD Coin" and version "2" on these chains. */
const USDC_PERMIT = { name: 'USD Coin', version: '2' };
const USDC_LOGO = 'https://assets.coingecko.com/coins/images/6319/large/usdc.png';
const WETH_LOGO = 'https://assets.coingecko.com/coins/images/2518/large/weth.png';

const uniswapV3 = (factory: string, quoterV2: string, swapRouter02: string): UniswapV3Contracts => ({
  factory,
  quoterV2,
  swapRouter02,
  poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  feeTiers: UNISWAP_V3_FEE_TIERS,
});

const uniswapV2 = (factory: string, router: string): UniswapV2Contracts => ({
  factory,
  router,
  initCodeHash: UNISWAP_V2_INIT_CODE_HASH,
});

export const REAL_NETWORK_CATALOG: readonly ChainDeployments[] = [
  {
    chain: 'ethereum',
    tokens: [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        decimals: 6,
        logoURI: USDC_LOGO,
        permit: USDC_PERMIT,
      },
      {
        symbol: 'WETH',
        name: 'Wrapped Ether',
        address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        decimals: 18,
        logoURI: WETH_LOGO,
      },
    ],
    wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    permit2: CANONICAL_PERMIT2,
    gatewayRouter: SWAP_GATEWAY_ROUTER,
    uniswapV2: uniswapV2(
      '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
      '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    ),
    uniswapV3: uniswapV3(
      '0x1F98431c8aD98523631AE4a59f267346ea31F984',
      '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
      '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
    ),
    across: { spokePool: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5' },
  },
  {
    chain: 'base',
    tokens: [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: 6,
        logoURI: USDC_LOGO,
        permit: USDC_PERMIT,
      },
      {
        symbol: 'WETH',
        name: 'Wrapped Ether',
        address: '0x4200000000000000000000000000000000000006',
        decimals: 18,
        logoURI: WETH_LOGO,
      },
    ],
    wrappedNative: '0x4200000000000000000000000000000000000006',
    permit2: CANONICAL_PERMIT2,
    gatewayRouter: SWAP_GATEWAY_ROUTER,
    uniswapV2: uniswapV2(
      '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
      '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
    ),
    uniswapV3: uniswapV3(
      '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
      '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
      '0x2626664c2603336E57B271c5C0b26F421741e481',
    ),
    across: { spokePool: '0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64' },
  },
  {
    chain: 'arbitrum',
    tokens: [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        decimals: 6,
        logoURI: USDC_LOGO,
        permit: USDC_PERMIT,
      },
      {
        symbol: 'WETH',
        name: 'Wrapped Ether',
        address: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
        decimals: 18,
        logoURI: WETH_LOGO,
      },
    ],
    wrappedNative: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
    permit2: CANONICAL_PERMIT2,
    gatewayRouter: SWAP_GATEWAY_ROUTER,
    uniswapV2: uniswapV2(
      '0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9',
      '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
    ),
    uniswapV3: uniswapV3(
      '0x1F98431c8aD98523631AE4a59f267346ea31F984',
      '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
      '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
    ),
    across: { spokePool: '0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A' },
  },
  {
    chain: 'solana',
    tokens: [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        decimals: 6,
        logoURI: USDC_LOGO,
      },
      {
        symbol: 'USDT',
        name: 'Tether USD',
        address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
        decimals: 6,
      },
      {
        symbol: 'WSOL',
        name: 'Wrapped SOL',
        address: 'So11111111111111111111111111111111111111112',
        decimals: 9,
      },
    ],
    wrappedNative: 'So11111111111111111111111111111111111111112',
  },
];
