import {
  Contract,
  ContractRunner,
  HDNodeWallet,
  JsonRpcApiProviderOptions,
  JsonRpcProvider,
  Wallet,
} from 'ethers';
import { CosmosDevnetChainManifest, DevnetChain, DevnetManifest, loadDevnetManifest } from '@swapgw/devnet';
import { testEnv } from '@swapgw/testing';

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

/** The devnet manifest of the test run (chains, tokens, mnemonic, Solana). */
export const devnetManifest = (): DevnetManifest => loadDevnetManifest(testEnv().devnetManifest);

/**
 * The devnet's EVM chains as an e2e suite uses them: the anvil accounts, one provider per chain
 * (created on first use, closed by destroy() in afterAll) and the ERC-20 tokens.
 */
export class DevnetEvm {
  readonly manifest = devnetManifest();
  private readonly providers = new Map<string, JsonRpcProvider>();

  /** `providerOptions` beside staticNetwork, e.g. `{ cacheTimeout: -1 }` to read every call afresh. */
  constructor(private readonly providerOptions: JsonRpcApiProviderOptions = {}) {}

  /** The devnet's Cosmos chain `id` (its RPC, REST, prefix, channels). */
  cosmos(id: string): CosmosDevnetChainManifest {
    const chain = this.manifest.cosmos.find((c) => c.id === id);
    if (!chain) throw new Error(`the devnet has no Cosmos chain ${id}`);
    return chain;
  }

  chain(id: string): DevnetChain {
    const chain = this.manifest.chains.find((c) => c.id === id);
    if (!chain) throw new Error(`the devnet has no chain ${id}`);
    return chain;
  }

  provider(chainId: string): JsonRpcProvider {
    let provider = this.providers.get(chainId);
    if (!provider) {
      const chain = this.chain(chainId);
      const options = { ...this.providerOptions, staticNetwork: true };
      provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, options);
      this.providers.set(chainId, provider);
    }
    return provider;
  }

  /** Anvil account `index` of the devnet mnemonic (accounts 1-9 are funded with every token). */
  account(index: number): HDNodeWallet {
    return HDNodeWallet.fromPhrase(this.manifest.mnemonic, undefined, `m/44'/60'/0'/0/${index}`);
  }

  /** The ERC-20 `symbol` of `chainId`, read through the chain's provider unless a signer is given. */
  token(chainId: string, symbol: string, runner?: ContractRunner): Contract {
    return new Contract(this.chain(chainId).tokens[symbol].address, ERC20, runner ?? this.provider(chainId));
  }

  async balanceOf(chainId: string, symbol: string, holder: string): Promise<bigint> {
    return (await this.token(chainId, symbol).getFunction('balanceOf')(holder)) as bigint;
  }

  /**
   * A fresh wallet holding `amount` of `symbol` on `chainId` and no ETH (a zero-gas wallet), funded
   * by anvil account `funderIndex`.
   */
  async freshWalletHolding(
    chainId: string,
    symbol: string,
    amount: bigint,
    funderIndex: number,
  ): Promise<HDNodeWallet> {
    const wallet = Wallet.createRandom();
    const funder = this.account(funderIndex).connect(this.provider(chainId));
    await (await this.token(chainId, symbol, funder).getFunction('transfer')(wallet.address, amount)).wait();
    return wallet;
  }

  ethOf(chainId: string, holder: string): Promise<bigint> {
    return this.provider(chainId).getBalance(holder);
  }

  destroy(): void {
    for (const provider of this.providers.values()) provider.destroy();
    this.providers.clear();
  }
}
