import { getAddress } from 'ethers';

/** The EIP-712 domain of a token's EIP-2612 `permit` (name and version as the token hashes them). */
export interface TokenPermitDomain {
  name: string;
  version: string;
}

/** A token the gateway routes through on a chain: what quotes, permits and GET /tokens need. */
export interface CatalogToken {
  symbol: string;
  name: string;
  /** EVM contract address, or the SPL mint on Solana. */
  address: string;
  decimals: number;
  logoURI?: string;
  /** Present exactly when the token implements EIP-2612 with this domain. */
  permit?: TokenPermitDomain;
  /**
   * false: not vouched for, so quote-service measures its transfer taxes and restrictions on chain
   * before quoting it (the token-tax probe). The shipped catalog's tokens are curated (undefined
   * reads as vouched for); a devnet manifest token is vouched for only with `verified: true`.
   */
  verified?: boolean;
}

export interface UniswapV2Contracts {
  factory: string;
  router: string;
  /** keccak256 of the pair creation code: pair addresses are computed, not looked up. */
  initCodeHash: string;
}

export interface UniswapV3Contracts {
  factory: string;
  quoterV2: string;
  swapRouter02: string;
  /** keccak256 of the pool creation code: pool addresses are computed, not looked up. */
  poolInitCodeHash: string;
  /** Fee tiers (hundredths of a bip) quoted on this chain. */
  feeTiers: number[];
}

/** Across: the chain's SpokePool (deposits with `depositV3`, fills with `fillV3Relay`). */
export interface AcrossContracts {
  spokePool: string;
}

/**
 * Everything the gateway uses on one chain beside its RPC: tokens, the wrapped native coin,
 * Permit2, DEX deployments, the bridge protocol's contracts and our SwapGatewayRouter. The shipped
 * catalog (real networks) and the devnet manifest both produce this shape, so nothing downstream
 * knows where a chain's contracts came from.
 */
export interface ChainDeployments {
  /** API id of the chain (`base`). */
  chain: string;
  tokens: CatalogToken[];
  /** WETH (EVM) or wrapped SOL: stands in for the native coin in DEX paths. */
  wrappedNative?: string;
  permit2?: string;
  /** SwapGatewayRouter: the spender of permits and intents on this chain (absent: not deployed yet). */
  gatewayRouter?: string;
  uniswapV2?: UniswapV2Contracts;
  uniswapV3?: UniswapV3Contracts;
  across?: AcrossContracts;
}

export class ChainCatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainCatalogError';
  }
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * Checks one chain's deployments the way a boot check should: every EVM address in its checksum
 * form (a typo in one letter's case is caught, not silently lowercased), decimals in range, one
 * entry per symbol and address, init code hashes 32 bytes, fee tiers known to Uniswap V3. Throws
 * ChainCatalogError naming the chain and the field.
 */
export function validateChainDeployments(entry: ChainDeployments, family: 'evm' | 'solana'): void {
  const where = (field: string) => `catalog ${entry.chain}: ${field}`;
  const address = (value: string | undefined, field: string) => {
    if (value === undefined) return;
    if (family === 'solana') {
      if (!BASE58.test(value))
        throw new ChainCatalogError(`${where(field)} ${value} is not a base58 address`);
      return;
    }
    let checksummed: string;
    try {
      checksummed = getAddress(value.toLowerCase());
    } catch {
      throw new ChainCatalogError(`${where(field)} ${value} is not an EVM address`);
    }
    if (checksummed !== value)
      throw new ChainCatalogError(`${where(field)} ${value} is not in checksum form (${checksummed})`);
  };
  const symbols = new Set<string>();
  const addresses = new Set<string>();
  for (const token of entry.tokens) {
    address(token.address, `tokens.${token.symbol}.address`);
    if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36)
      throw new ChainCatalogError(
        `${where(`tokens.${token.symbol}.decimals`)} ${token.decimals} is out of range`,
      );
    if (symbols.has(token.symbol))
      throw new ChainCatalogError(`${where('tokens')} lists ${token.symbol} twice`);
    if (addresses.has(token.address.toLowerCase()))
      throw new ChainCatalogError(`${where('tokens')} lists ${token.address} twice`);
    if (token.permit && (!token.permit.name || !token.permit.version))
      throw new ChainCatalogError(`${where(`tokens.${token.symbol}.permit`)} needs a name and a version`);
    symbols.add(token.symbol);
    addresses.add(token.address.toLowerCase());
  }
  address(entry.wrappedNative, 'wrappedNative');
  if (entry.wrappedNative && !addresses.has(entry.wrappedNative.toLowerCase()))
    throw new ChainCatalogError(`${where('wrappedNative')} ${entry.wrappedNative} is not among the tokens`);
  address(entry.permit2, 'permit2');
  address(entry.gatewayRouter, 'gatewayRouter');
  if (entry.gatewayRouter && !entry.permit2)
    throw new ChainCatalogError(`${where('gatewayRouter')} needs permit2 on the same chain`);
  if (entry.uniswapV2) {
    address(entry.uniswapV2.factory, 'uniswapV2.factory');
    address(entry.uniswapV2.router, 'uniswapV2.router');
    if (!BYTES32.test(entry.uniswapV2.initCodeHash))
      throw new ChainCatalogError(`${where('uniswapV2.initCodeHash')} is not 32 bytes`);
  }
  if (entry.uniswapV3) {
    address(entry.uniswapV3.factory, 'uniswapV3.factory');
    address(entry.uniswapV3.quoterV2, 'uniswapV3.quoterV2');
    address(entry.uniswapV3.swapRouter02, 'uniswapV3.swapRouter02');
    if (!BYTES32.test(entry.uniswapV3.poolInitCodeHash))
      throw new ChainCatalogError(`${where('uniswapV3.poolInitCodeHash')} is not 32 bytes`);
    const unknown = entry.uniswapV3.feeTiers.filter((fee) => !UNISWAP_V3_FEE_TIERS.includes(fee));
    if (entry.uniswapV3.feeTiers.length === 0 || unknown.length > 0)
      throw new ChainCatalogError(
        `${where('uniswapV3.feeTiers')} must be among ${UNISWAP_V3_FEE_TIERS.join(', ')}`,
      );
  }
  if (entry.across) address(entry.across.spokePool, 'across.spokePool');
  if ((entry.uniswapV2 || entry.uniswapV3) && !entry.wrappedNative)
    throw new ChainCatalogError(`${where('wrappedNative')} is needed by its DEX deployments`);
}

/** Uniswap V3's fee tiers and their tick spacings, as the factory enables them. */
export const UNISWAP_V3_TICK_SPACING: Readonly<Record<number, number>> = {
  100: 1,
  500: 10,
  3000: 60,
  10000: 200,
};
export const UNISWAP_V3_FEE_TIERS = Object.keys(UNISWAP_V3_TICK_SPACING).map(Number);

/** The token of `deployments` at `address` (case-insensitive), if listed. */
export function catalogTokenAt(
  deployments: ChainDeployments | undefined,
  address: string,
): CatalogToken | undefined {
  const wanted = address.toLowerCase();
  return deployments?.tokens.find((token) => token.address.toLowerCase() === wanted);
}

/** The token of `deployments` with `symbol`, if listed. */
export function catalogTokenOf(
  deployments: ChainDeployments | undefined,
  symbol: string,
): CatalogToken | undefined {
  return deployments?.tokens.find((token) => token.symbol === symbol);
}
