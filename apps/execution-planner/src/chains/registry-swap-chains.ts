import { OnApplicationShutdown } from '@nestjs/common';
import {
  AddressCheckedChain,
  ChainDescriptor,
  ChainFamily,
  ChainRegistry,
  DEFAULT_RPC_TIMEOUT_MS,
  PermitContracts,
} from '@swapgw/chains';
import { ChainFamilies, SigningChainClient } from '@swapgw/chains/families';
import { SwapChains } from './swap-chains';
import type { StartupWarmup } from '@swapgw/runtime';

/**
 * SwapChains over the shared chain registry (devnet manifest + configured RPCs). Balances and
 * allowances are read through each chain's family client, every call bounded by `rpcTimeoutMs`
 * (an unreachable node must make a build answer 503, not hang it).
 */
export class RegistrySwapChains implements SwapChains, OnApplicationShutdown {
  private readonly families: ChainFamilies;

  constructor(
    private readonly registry: ChainRegistry,
    rpcTimeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  ) {
    this.families = new ChainFamilies(registry, rpcTimeoutMs);
  }

  startupWarmup(): StartupWarmup {
    return this.families.startupWarmup('planner chains');
  }

  hasSigningSurface(chain: string): boolean {
    return this.registry.hasSigningSurface(chain);
  }

  familyOf(chain: string): ChainFamily {
    return this.registry.get(chain).family;
  }

  addressChainOf(chain: string): AddressCheckedChain {
    return this.registry.get(chain);
  }

  evmChainIdOf(chain: string): number {
    const id = this.registry.get(chain).evmChainId;
    if (id === undefined) throw new Error(`Chain ${chain} has no EVM chain id`);
    return id;
  }

  balanceOf(chain: string, token: string | null, holder: string): Promise<bigint> {
    return this.client(chain).readBalance(holder, token);
  }

  async allowanceOf(chain: string, token: string, owner: string, spender: string): Promise<bigint> {
    const allowance = await this.client(chain).readAllowance(token, owner, spender);
    if (allowance === null) throw new Error(`Chain ${chain} has no allowances`);
    return allowance;
  }

  permitContractsOf(chain: string): PermitContracts | undefined {
    return this.registry.permitContracts(chain);
  }

  tokenPermitOf(chain: string, token: string): { name: string; version: string } | undefined {
    return this.registry.tokenPermitOf(chain, token);
  }

  descriptorOf(chain: string): ChainDescriptor {
    return this.registry.get(chain);
  }

  /** Releases the family clients' providers once the app's consumers have stopped. */
  onApplicationShutdown(): void {
    this.families.destroy();
  }

  private client(chain: string): SigningChainClient {
    const lookup = this.families.signing(chain);
    if (!lookup.ok) throw new Error(lookup.reason);
    return lookup.client;
  }
}
