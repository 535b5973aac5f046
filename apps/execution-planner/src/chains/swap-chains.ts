import type { AddressCheckedChain, ChainDescriptor, ChainFamily, PermitContracts } from '@swapgw/chains';
import type { StartupWarmup } from '@swapgw/runtime';

/** What the planner needs to know about chains: signing surfaces, families, EVM chain ids, balances. */
export interface SwapChains {
  /** The start-up warm-up of its chain clients (StartupWarmup); none for chains without clients. */
  startupWarmup?(): StartupWarmup;
  hasSigningSurface(chain: string): boolean;
  familyOf(chain: string): ChainFamily;
  /** What an address on the chain is checked against: its family and, for Bitcoin, its network. */
  addressChainOf(chain: string): AddressCheckedChain;
  evmChainIdOf(chain: string): number;
  /**
   * `token` null = the native coin. On Solana `token` is the SPL mint and the balance is the one of
   * the holder's associated token account (0 when it does not exist yet).
   */
  balanceOf(chain: string, token: string | null, holder: string): Promise<bigint>;
  /** ERC-20 `allowance(owner, spender)` on an EVM chain. */
  allowanceOf(chain: string, token: string, owner: string, spender: string): Promise<bigint>;
  /** Permit2 and the SwapGatewayRouter of a chain (devnet manifest `permits`), if it has them. */
  permitContractsOf(chain: string): PermitContracts | undefined;
  /** The EIP-712 domain {name, version} of the token's EIP-2612 permit; undefined without one. */
  tokenPermitOf(chain: string, token: string): { name: string; version: string } | undefined;
  /**
   * The chain's descriptor, whose fields of a family's own its step builders read (a Cosmos chain's
   * `cosmos`: prefix, ICS-20 channels); undefined where none is known (a test's chains).
   */
  descriptorOf(chain: string): ChainDescriptor | undefined;
}

export const SWAP_CHAINS = Symbol('SwapChains');
