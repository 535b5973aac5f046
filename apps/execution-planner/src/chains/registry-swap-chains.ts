import { Connection, PublicKey } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { ChainFamily, ChainRegistry, PermitContracts, readErc20Allowance, readEvmBalance } from '@swapgw/chains';
import { SwapChains } from './swap-chains';

/** SwapChains over the shared chain registry (devnet manifest + configured RPCs). */
export class RegistrySwapChains implements SwapChains {
  private readonly solanaConnections = new Map<string, Connection>();

  constructor(
    private readonly registry: ChainRegistry,
    private readonly rpcTimeoutMs = 5000,
  ) {}

  hasSigningSurface(chain: string): boolean {
    return this.registry.hasSigningSurface(chain);
  }

  familyOf(chain: string): ChainFamily {
    return this.registry.get(chain).family;
  }

  evmChainIdOf(chain: string): number {
    const id = this.registry.get(chain).evmChainId;
    if (id === undefined) throw new Error(`Chain ${chain} has no EVM chain id`);
    return id;
  }

  async balanceOf(chain: string, token: string | null, holder: string): Promise<bigint> {
    if (this.familyOf(chain) === 'solana') return this.solanaBalanceOf(chain, token, holder);
    return readEvmBalance(this.registry.evmProvider(chain), token, holder);
  }

  async allowanceOf(chain: string, token: string, owner: string, spender: string): Promise<bigint> {
    return readErc20Allowance(this.registry.evmProvider(chain), token, owner, spender);
  }

  permitContractsOf(chain: string): PermitContracts | undefined {
    return this.registry.permitContracts(chain);
  }

  tokenPermitOf(chain: string, token: string): { name: string; version: string } | undefined {
    return this.registry.tokenPermitOf(chain, token);
  }

  private async solanaBalanceOf(chain: string, mint: string | null, holder: string): Promise<bigint> {
    const connection = this.solanaConnection(chain);
    const owner = new PublicKey(holder);
    if (mint === null) return BigInt(await connection.getBalance(owner));
    const account = getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);
    // A wallet that never held the token has no account yet: its balance is 0, not an error.
    if (!(await connection.getAccountInfo(account))) return 0n;
    return BigInt((await connection.getTokenAccountBalance(account)).value.amount);
  }

  /**
   * Every call bounded in time: web3.js's default fetch would wait on an unreachable node, and a
   * build must answer 503 instead.
   */
  private solanaConnection(chain: string): Connection {
    let connection = this.solanaConnections.get(chain);
    if (!connection) {
      const rpcUrl = this.registry.get(chain).rpcUrl;
      if (!rpcUrl) throw new Error(`Chain ${chain} has no RPC URL`);
      const timeoutMs = this.rpcTimeoutMs;
      connection = new Connection(rpcUrl, {
        commitment: 'confirmed',
        disableRetryOnRateLimit: true,
        fetch: (input, init) =>
          fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
            // Rethrown as this realm's Error: web3.js settles the call only for `instanceof Error`.
            throw new Error(error.message);
          }),
      });
      this.solanaConnections.set(chain, connection);
    }
    return connection;
  }
}
