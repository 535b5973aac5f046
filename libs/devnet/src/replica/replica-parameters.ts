import { parseUnits } from 'ethers';

/**
 * The mainnet replica's chains: the real networks' API ids and chain ids (from @swapgw/chains'
 * REAL_NETWORKS), each on a local port.
 */
export const REPLICA_EVM_PORTS = { ethereum: 8545, base: 8546, arbitrum: 8547 } as const;
export type ReplicaEvmChainId = keyof typeof REPLICA_EVM_PORTS;
export const REPLICA_EVM_CHAIN_IDS = Object.keys(REPLICA_EVM_PORTS) as ReplicaEvmChainId[];
export const REPLICA_SOLANA_CHAIN_ID = 'solana';
export const REPLICA_SOLANA_DEFAULT_PORT = 8899;
export const REPLICA_BITCOIN_CHAIN_ID = 'bitcoin';
/** The replica's Esplora port in the standard layout: esplora/electrs's, as the devnet's Bitcoin chain. */
export const REPLICA_BITCOIN_DEFAULT_PORT = 3002;
/** THORChain's own chain prefixes of the replica's EVM chains (its assets `BASE.USDC-0X8335…`). */
export const REPLICA_THORCHAIN_PREFIXES: Readonly<Record<string, string>> = {
  ethereum: 'ETH',
  base: 'BASE',
  arbitrum: 'ARB',
};

const usdc = (amount: string) => parseUnits(amount, 6);
const ether = (amount: string) => parseUnits(amount, 18);

/** The price every pool starts at: 1 WETH = 3000 USDC. */
export const REPLICA_WETH_PRICE = { weth: ether('1'), usdc: usdc('3000') } as const;

/**
 * Uniswap V3 USDC/WETH pools, one position each around the price, deep like a busy mainnet pool:
 * a 1 WETH swap moves the price by a few hundredths of a percent.
 */
export const REPLICA_V3_POOLS = [
  { fee: 500, tickSpacing: 10, rangeFactor: 1.2, wethInRange: ether('5000') },
  { fee: 3000, tickSpacing: 60, rangeFactor: 1.5, wethInRange: ether('2000') },
] as const;

/** Fee tier 100 (tick spacing 1), enabled by Uniswap governance on mainnet after deployment. */
export const REPLICA_V3_EXTRA_FEE_TIER = { fee: 100, tickSpacing: 1 } as const;

/** The Uniswap V2 USDC/WETH pair's reserves. */
export const REPLICA_V2_POOL = { weth: ether('1000'), usdc: usdc('3000000') } as const;

/** What each test account (1-9) holds on every EVM replica, besides anvil's 10,000 ETH. */
export const REPLICA_USER_FUNDING = { WETH: ether('100'), USDC: usdc('1000000') } as const;

/** The deployer's ETH: enough to wrap the WETH of every pool. */
export const REPLICA_DEPLOYER_ETH = ether('1000000');
