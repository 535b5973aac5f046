import type { Connection } from '@solana/web3.js';
import { getAddress, JsonRpcProvider, Network } from 'ethers';
import fs from 'node:fs';
import {
  catalogTokenAt,
  ChainCatalogError,
  ChainDeployments,
  REAL_NETWORK_CATALOG,
  TokenPermitDomain,
  validateChainDeployments,
} from './catalog';
import { ChainDescriptor, REAL_NETWORKS } from './chain-descriptor';
import {
  DEFAULT_DEVNET_MANIFEST,
  DevnetBitcoinView,
  CosmosDevnetChainManifest,
  DevnetChainView,
  devnetManifestSectionsOf,
  DevnetManifestView,
  DevnetSolanaView,
  readDevnetManifest,
} from './devnet-manifest';
import {
  boundedSolanaConnection,
  CountedJsonRpcProvider,
  WALLET_READ_BATCH_WINDOW_MS,
} from './families/bounded-rpc';
import type { ListedToken } from './families/family-traits';
import { findFamilyTraits } from './families/family-traits-table';
import { PermitContracts } from './permit-contracts';

export interface ChainRegistryOptions {
  /** Devnet manifest, when one is available. */
  manifest?: DevnetManifestView;
  /** RPC URLs of real networks keyed by chain id (`ethereum` → https://...). */
  rpcUrls?: Record<string, string | undefined>;
  /** Status API URLs keyed by chain id (`bitcoin` → an Esplora API). */
  statusApiUrls?: Record<string, string | undefined>;
  /** REST API URLs of the Cosmos real networks keyed by chain id (`osmosis-1` → https://...). */
  restUrls?: Record<string, string | undefined>;
  /** Why the manifest is missing, kept for health and debug output. */
  manifestProblem?: string;
  /** What the gateway uses on each real network; the shipped REAL_NETWORK_CATALOG unless a test says otherwise. */
  catalog?: readonly ChainDeployments[];
}

/**
 * The variables a chain registry is built from, as an app's validated config names them (every
 * app's config has DEVNET_MANIFEST; the real networks' endpoints only where the app uses them).
 */
export interface ChainRegistryConfig {
  DEVNET_MANIFEST: string;
  RPC_URL_ETHEREUM?: string;
  RPC_URL_BASE?: string;
  RPC_URL_ARBITRUM?: string;
  RPC_URL_SOLANA?: string;
  ESPLORA_URL_BITCOIN?: string;
  RPC_URL_COSMOSHUB?: string;
  REST_URL_COSMOSHUB?: string;
  RPC_URL_OSMOSIS?: string;
  REST_URL_OSMOSIS?: string;
  RPC_URL_NOBLE?: string;
  REST_URL_NOBLE?: string;
}

/**
 * The chains the suite knows: devnet chains from the manifest (with their RPC), then the real
 * networks (Ethereum, Base, Arbitrum, Solana), listed whether or not an RPC URL is configured.
 */
export class ChainRegistry {
  private readonly chains: ChainDescriptor[];
  private readonly byId = new Map<string, ChainDescriptor>();
  private readonly evmProviders = new Map<string, JsonRpcProvider>();
  private readonly solanaConnections = new Map<string, Connection>();
  private readonly deploymentsById = new Map<string, ChainDeployments>();

  /** Throws ChainCatalogError when a catalog entry fails its boot check (validateChainDeployments). */
  constructor(private readonly options: ChainRegistryOptions = {}) {
    const devnetChains = (options.manifest?.chains ?? []).map(devnetDescriptor);
    // Each family's section's chains, in the sections table's order (Solana, Bitcoin, Cosmos).
    const sections = options.manifest ? devnetManifestSectionsOf(options.manifest) : [];
    for (const { section, view } of sections) devnetChains.push(...section.descriptors(view));
    const realChains = REAL_NETWORKS.map((chain) => ({
      ...chain,
      rpcUrl: chain.rpcEnv ? options.rpcUrls?.[chain.id] || undefined : undefined,
      statusApiUrl: chain.statusApiEnv ? options.statusApiUrls?.[chain.id] || undefined : undefined,
      ...(chain.cosmos
        ? { cosmos: { ...chain.cosmos, restUrl: options.restUrls?.[chain.id] || chain.cosmos.restUrl } }
        : {}),
    }));
    this.chains = [...devnetChains, ...realChains];
    for (const chain of this.chains) this.byId.set(chain.id, chain);
    for (const devnet of options.manifest?.chains ?? [])
      this.deploymentsById.set(devnet.id, devnetDeployments(devnet));
    for (const { section, view } of sections)
      for (const deployments of section.deployments?.(view) ?? [])
        this.deploymentsById.set(deployments.chain, deployments);
    for (const entry of options.catalog ?? REAL_NETWORK_CATALOG) {
      const family = this.byId.get(entry.chain)?.family;
      if (family !== 'evm' && family !== 'solana')
        throw new ChainCatalogError(`catalog ${entry.chain}: not a real network the gateway signs on`);
      validateChainDeployments(entry, family);
      this.deploymentsById.set(entry.chain, entry);
    }
  }

  /**
   * The registry of an app, from its validated config: how every app builds its one registry (and
   * destroys it at shutdown, which releases the RPC providers' timers).
   */
  static fromConfig(config: ChainRegistryConfig): ChainRegistry {
    return ChainRegistry.fromEnvironment({
      DEVNET_MANIFEST: config.DEVNET_MANIFEST,
      RPC_URL_ETHEREUM: config.RPC_URL_ETHEREUM,
      RPC_URL_BASE: config.RPC_URL_BASE,
      RPC_URL_ARBITRUM: config.RPC_URL_ARBITRUM,
      RPC_URL_SOLANA: config.RPC_URL_SOLANA,
      ESPLORA_URL_BITCOIN: config.ESPLORA_URL_BITCOIN,
      RPC_URL_COSMOSHUB: config.RPC_URL_COSMOSHUB,
      REST_URL_COSMOSHUB: config.REST_URL_COSMOSHUB,
      RPC_URL_OSMOSIS: config.RPC_URL_OSMOSIS,
      REST_URL_OSMOSIS: config.REST_URL_OSMOSIS,
      RPC_URL_NOBLE: config.RPC_URL_NOBLE,
      REST_URL_NOBLE: config.REST_URL_NOBLE,
    });
  }

  /**
   * Registry from raw variables: DEVNET_MANIFEST (default .run/devnet/manifest.json; a missing
   * file means no devnet chains, not an error), RPC_URL_ETHEREUM / _BASE / _ARBITRUM / _SOLANA and
   * ESPLORA_URL_BITCOIN. Apps use fromConfig.
   */
  static fromEnvironment(env: Record<string, string | undefined>): ChainRegistry {
    const manifestPath = env.DEVNET_MANIFEST || DEFAULT_DEVNET_MANIFEST;
    let manifest: DevnetManifestView | undefined;
    let manifestProblem: string | undefined;
    if (fs.existsSync(manifestPath)) {
      manifest = readDevnetManifest(manifestPath);
    } else {
      manifestProblem = `no devnet manifest at ${manifestPath}`;
    }
    const rpcUrls: Record<string, string | undefined> = {};
    const statusApiUrls: Record<string, string | undefined> = {};
    const restUrls: Record<string, string | undefined> = {};
    for (const chain of REAL_NETWORKS) {
      rpcUrls[chain.id] = chain.rpcEnv ? env[chain.rpcEnv] : undefined;
      statusApiUrls[chain.id] = chain.statusApiEnv ? env[chain.statusApiEnv] : undefined;
      restUrls[chain.id] = chain.cosmos?.restEnv ? env[chain.cosmos.restEnv] : undefined;
    }
    return new ChainRegistry({ manifest, rpcUrls, statusApiUrls, restUrls, manifestProblem });
  }

  get manifest(): DevnetManifestView | undefined {
    return this.options.manifest;
  }

  get manifestProblem(): string | undefined {
    return this.options.manifestProblem;
  }

  list(): ChainDescriptor[] {
    return [...this.chains];
  }

  find(id: string): ChainDescriptor | undefined {
    return this.byId.get(id);
  }

  get(id: string): ChainDescriptor {
    const chain = this.byId.get(id);
    if (!chain) throw new Error(`Unknown chain ${id}`);
    return chain;
  }

  findByCaip2(caip2: string): ChainDescriptor | undefined {
    return this.chains.find((c) => c.caip2 === caip2);
  }

  /** The manifest entry of a devnet chain (tokens, Uniswap V2, bridge). */
  devnetChain(id: string): DevnetChainView | undefined {
    return this.options.manifest?.chains.find((c) => c.id === id);
  }

  /**
   * What the gateway uses on a chain (tokens, wrapped native coin, Permit2, DEXes, bridge protocol,
   * SwapGatewayRouter): the shipped catalog for real networks, the manifest for devnet chains. The
   * same shape for both, so callers never ask where a chain's contracts came from.
   */
  deployments(id: string): ChainDeployments | undefined {
    return this.deploymentsById.get(id);
  }

  /**
   * The SwapGatewayRouter and Permit2 of a chain and the venues the router may be told to call there
   * (Uniswap V2 Router02, V3 SwapRouter02, Across's SpokePool, and on a devnet chain its bridge), from its deployments
   * (the catalog, or the manifest); undefined where the router or Permit2 is not deployed.
   */
  permitContracts(id: string): PermitContracts | undefined {
    const deployments = this.deployments(id);
    if (!deployments?.gatewayRouter || !deployments.permit2) return undefined;
    const bridge = this.devnetChain(id)?.bridge.address;
    return {
      permit2: deployments.permit2,
      permitRouter: deployments.gatewayRouter,
      ...(deployments.uniswapV2 ? { uniswapV2Router: deployments.uniswapV2.router } : {}),
      ...(deployments.uniswapV3 ? { uniswapV3SwapRouter02: deployments.uniswapV3.swapRouter02 } : {}),
      ...(bridge ? { bridge } : {}),
      ...(deployments.across ? { acrossSpokePool: deployments.across.spokePool } : {}),
    };
  }

  /**
   * The EIP-712 domain of `token`'s EIP-2612 permit on a chain ({name, version}), or undefined when
   * the token has no EIP-2612 permit (WETH9) or is not among the chain's deployments.
   */
  tokenPermitOf(id: string, token: string): TokenPermitDomain | undefined {
    return catalogTokenAt(this.deployments(id), token)?.permit;
  }

  /**
   * Each devnet chain's native coin and its section's tokens, as the manifest lists them, chain by
   * chain in the manifest's order (EVM chains, Solana, Bitcoin, Cosmos chains); none without a
   * manifest.
   */
  devnetListedTokens(): ListedToken[] {
    const manifest = this.options.manifest;
    if (!manifest) return [];
    const sections = devnetManifestSectionsOf(manifest);
    // The devnet bridge has an end on every EVM chain and on the sections' chains that say so (Solana).
    const bridgeEnds =
      manifest.chains.length +
      sections.reduce((ends, { section, view }) => ends + (section.bridgeEnds?.(view) ?? 0), 0);
    const sectionsWithBridgeEnd = new Set(
      sections.filter(({ section, view }) => section.hasBridgeEnd?.(view)).map(({ key }) => key),
    );
    const lookup = {
      chain: (id: string) => this.get(id),
      find: (id: string) => this.find(id),
      bridgeEnds,
      sectionsWithBridgeEnd,
    };
    return [
      ...manifest.chains.flatMap((chain) => evmDevnetTokens(chain, this.get(chain.id), bridgeEnds)),
      ...sections.flatMap(({ section, view }) => section.listedTokens(view, lookup)),
    ];
  }

  /** The manifest's Solana section when `id` is the devnet Solana chain (`solana-devnet`). */
  devnetSolana(id: string): DevnetSolanaView | undefined {
    const solana = this.options.manifest?.solana;
    return solana && solana.id === id ? solana : undefined;
  }

  /** The manifest's Bitcoin section when `id` is the devnet Bitcoin chain (`bitcoin-devnet`). */
  devnetBitcoin(id: string): DevnetBitcoinView | undefined {
    const bitcoin = this.options.manifest?.bitcoin;
    return bitcoin && bitcoin.id === id ? bitcoin : undefined;
  }

  /** The manifest entry of a devnet Cosmos chain (`cosmoshub-devnet`, `osmosis-devnet`, `noble-devnet`). */
  devnetCosmos(id: string): CosmosDevnetChainManifest | undefined {
    return this.options.manifest?.cosmos?.find((chain) => chain.id === id);
  }

  /**
   * A chain has a signing surface exactly when an RPC URL is configured or known for it, and what
   * else its family signs through (FamilyTraits.hasSigningEndpoints: a Cosmos chain's REST API).
   */
  hasSigningSurface(id: string): boolean {
    const chain = this.byId.get(id);
    if (!chain?.rpcUrl) return false;
    return findFamilyTraits(chain.family)?.hasSigningEndpoints?.(chain) ?? true;
  }

  /**
   * Cached ethers provider with a static network (no eth_chainId probe per call, and no retry
   * loop when the node is down: calls fail fast and the caller decides).
   */
  evmProvider(id: string): JsonRpcProvider {
    const cached = this.evmProviders.get(id);
    if (cached) return cached;
    const chain = this.get(id);
    if (chain.family !== 'evm' || chain.evmChainId === undefined)
      throw new Error(`Chain ${id} is not an EVM chain`);
    if (!chain.rpcUrl)
      throw new Error(`Chain ${id} has no RPC URL configured (${chain.rpcEnv ?? 'devnet manifest'})`);
    const provider = new CountedJsonRpcProvider(
      chain.id,
      chain.rpcUrl,
      Network.from(chain.evmChainId),
      { staticNetwork: Network.from(chain.evmChainId), batchMaxCount: 1 },
      WALLET_READ_BATCH_WINDOW_MS,
    );
    this.evmProviders.set(id, provider);
    return provider;
  }

  /** Cached Solana Connection, every call bounded in time (boundedSolanaConnection's default). */
  solanaConnection(id: string): Connection {
    const cached = this.solanaConnections.get(id);
    if (cached) return cached;
    const chain = this.get(id);
    if (chain.family !== 'solana') throw new Error(`Chain ${id} is not a Solana chain`);
    if (!chain.rpcUrl) throw new Error(`Chain ${id} has no RPC URL configured (${chain.rpcEnv})`);
    const connection = boundedSolanaConnection(chain.rpcUrl, undefined, chain.id);
    this.solanaConnections.set(id, connection);
    return connection;
  }

  /** Releases provider resources (ethers keeps timers for pending requests). */
  destroy(): void {
    for (const provider of this.evmProviders.values()) provider.destroy();
    this.evmProviders.clear();
    this.solanaConnections.clear();
  }
}

/** A devnet chain's manifest entry in the catalog's shape. */
function devnetDeployments(chain: DevnetChainView): ChainDeployments {
  return {
    chain: chain.id,
    tokens: Object.entries(chain.tokens).map(([symbol, token]) => ({
      symbol,
      name: token.name,
      address: token.address,
      decimals: token.decimals,
      ...(token.permit ? { permit: { name: token.name, version: token.permitVersion ?? '1' } } : {}),
      verified: token.verified === true,
    })),
    wrappedNative: chain.tokens.WETH?.address,
    permit2: chain.permits?.permit2,
    gatewayRouter: chain.permits?.permitRouter,
    uniswapV2: chain.uniswapV2
      ? {
          factory: chain.uniswapV2.factory,
          router: chain.uniswapV2.router,
          initCodeHash: chain.uniswapV2.initCodeHash,
        }
      : undefined,
  };
}

function devnetDescriptor(chain: DevnetChainView): ChainDescriptor {
  return {
    id: chain.id,
    name: chain.name,
    family: 'evm',
    network: 'testnet',
    evmChainId: chain.chainId,
    caip2: `eip155:${chain.chainId}`,
    nativeSymbol: chain.nativeSymbol,
    nativeDecimals: 18,
    rpcUrl: chain.rpcUrl,
    devnet: true,
  };
}

/** A devnet EVM chain's native coin and ERC-20s; the bridge's token reaches every other bridge end. */
function evmDevnetTokens(
  chain: DevnetChainView,
  descriptor: ChainDescriptor,
  bridgeEnds: number,
): ListedToken[] {
  return [
    {
      chain: chain.id,
      symbol: chain.nativeSymbol,
      name: chain.nativeSymbol === 'ETH' ? 'Ether' : chain.nativeSymbol,
      decimals: descriptor.nativeDecimals,
      address: null,
      mint: null,
      listIndex: null,
      bridgedChains: 0,
    },
    ...Object.entries(chain.tokens).map(([symbol, token], index) => ({
      chain: chain.id,
      symbol,
      name: token.name,
      decimals: token.decimals,
      address: getAddress(token.address),
      mint: null,
      listIndex: index,
      // The devnet bridge carries its token to every other devnet chain (Solana included).
      bridgedChains: chain.bridge.token === symbol ? bridgeEnds - 1 : 0,
    })),
  ];
}
