import { Contract } from 'ethers';
import { ChainRegistry } from '@swapgw/chains';

/** What the planner needs to know about chains: signing surfaces, EVM chain ids, balances. */
export interface SwapChains {
  hasSigningSurface(chain: string): boolean;
  evmChainIdOf(chain: string): number;
  /** `token` null = the native coin. */
  balanceOf(chain: string, token: string | null, holder: string): Promise<bigint>;
}

export const SWAP_CHAINS = Symbol('SwapChains');

const erc20BalanceAbi = ['function balanceOf(address owner) view returns (uint256)'];

/** SwapChains over the shared chain registry (devnet manifest + configured RPCs). */
export class RegistrySwapChains implements SwapChains {
  constructor(private readonly registry: ChainRegistry) {}

  hasSigningSurface(chain: string): boolean {
    return this.registry.hasSigningSurface(chain);
  }

  evmChainIdOf(chain: string): number {
    const id = this.registry.get(chain).evmChainId;
    if (id === undefined) throw new Error(`Chain ${chain} has no EVM chain id`);
    return id;
  }

  async balanceOf(chain: string, token: string | null, holder: string): Promise<bigint> {
    const provider = this.registry.evmProvider(chain);
    if (token === null) return provider.getBalance(holder);
    const contract = new Contract(token, erc20BalanceAbi, provider);
    return (await contract.getFunction('balanceOf')(holder)) as bigint;
  }
}
