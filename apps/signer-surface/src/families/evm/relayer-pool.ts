import { Logger } from '@nestjs/common';
import { Wallet } from 'ethers';
import { SignerChains } from '../../chains/signer-chains';
import { shortMessageOf } from '@swapgw/chains';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { WeiByChain } from '../../sponsorship/wei-settings';

/**
 * The relayer accounts of each chain (ethers Wallets of the configured keys, never connected to a
 * provider: signing is local) and what is known of their balances. Built at boot: a key for a chain
 * the registry does not know, or for a chain without EVM transactions, stops the app there.
 */
export class RelayerPool {
  private readonly logger = new Logger(RelayerPool.name);
  private readonly walletsByChain = new Map<string, Wallet[]>();
  /** Last balance read per `chain:address`; absent until first read. */
  private readonly balances = new Map<string, bigint>();

  constructor(
    keys: RelayerKeySet,
    private readonly chains: SignerChains,
    private readonly minBalance: WeiByChain,
  ) {
    const problems: string[] = [];
    for (const chain of keys.chains()) {
      const family = chains.find(chain)?.family;
      if (family === 'evm') {
        this.walletsByChain.set(
          chain,
          keys.keysOf(chain).map((key) => new Wallet(key)),
        );
      } else {
        const why = family ? `a ${family} chain: relayers send EVM transactions only` : 'which is not known';
        problems.push(`RELAYER_KEYS names chain ${chain}, ${why}`);
      }
    }
    if (problems.length > 0) throw new Error(`Invalid relayer configuration: ${problems.join('; ')}`);
    for (const chain of this.walletsByChain.keys()) {
      if (chains.families.evm(chain).ok) continue;
      this.logger.warn({
        msg: 'relayers configured for a chain without RPC: sponsorship there is unavailable',
        chain,
      });
    }
  }

  chainIds(): string[] {
    return [...this.walletsByChain.keys()];
  }

  wallets(chain: string): readonly Wallet[] {
    return this.walletsByChain.get(chain) ?? [];
  }

  wallet(chain: string, address: string): Wallet | undefined {
    return this.wallets(chain).find((w) => w.address === address);
  }

  minBalanceOf(chain: string): bigint {
    return this.minBalance.of(chain);
  }

  /**
   * Whether an account may send a transaction that can cost `costWei`: at least the chain's minimum
   * balance, and at least the cost. An account whose balance was never read counts as usable (the
   * sender reads it under the lock before using it).
   */
  canPay(chain: string, address: string, costWei: bigint): boolean {
    const balance = this.balances.get(`${chain}:${address}`);
    return balance === undefined || isEnough(balance, this.minBalanceOf(chain), costWei);
  }

  /** Addresses of the chain's relayers that can pay `costWei`, per the balances last read. */
  payers(chain: string, costWei: bigint): string[] {
    return this.wallets(chain)
      .map((w) => w.address)
      .filter((address) => this.canPay(chain, address, costWei));
  }

  noteBalance(chain: string, address: string, wei: bigint): void {
    this.balances.set(`${chain}:${address}`, wei);
    RelayingMetrics.balance(chain, address, wei, this.minBalanceOf(chain));
  }

  /** Reads the balance of every relayer of `chains` (default all); one that fails keeps its last value. */
  async refreshBalances(chains: string[] = this.chainIds()): Promise<void> {
    const reads = chains.flatMap((chain) => {
      const lookup = this.chains.families.evm(chain);
      if (!lookup.ok) return [];
      const { provider } = lookup.client;
      return this.wallets(chain).map(async (wallet) => {
        try {
          this.noteBalance(chain, wallet.address, await provider.getBalance(wallet.address));
        } catch (error) {
          this.logger.warn({
            msg: 'relayer balance read failed',
            chain,
            address: wallet.address,
            error: shortMessageOf(error),
          });
        }
      });
    });
    await Promise.all(reads);
  }
}

export function isEnough(balance: bigint, minBalance: bigint, costWei: bigint): boolean {
  return balance >= minBalance && balance >= costWei;
}
