// @swapgw/chains (the catalog) loads decorated message classes, which need reflect-metadata first.
import 'reflect-metadata';
import fs from 'node:fs';
import { ChainDeployments, REAL_NETWORK_CATALOG, REAL_NETWORKS } from '@swapgw/chains';
import { devnetWallet } from '../accounts';
import { AnvilNode, DEVNET_MNEMONIC, startAnvil } from '../anvil';
import { loadEvmArtifacts } from '@swapgw/evm-contracts';
import { loadUniswapArtifacts } from '../contracts/uniswap-artifacts';
import { loadUniswapV3Artifacts } from '../contracts/uniswap-v3-artifacts';
import { DevnetError } from '../devnet-error';
import { ANVIL_ACCOUNTS, USER_ACCOUNT_INDICES } from '../devnet-parameters';
import { localProvider } from '../evm-provider';
import { MainnetReplicaEvmChain, MainnetReplicaManifest } from '../manifest';
import { removeManifestIfWrittenAt, writeDevnetManifest } from '../manifest-writer';
import { RelayerLogger } from '../bridge/bridge-relayer';
import { RunningReplicaAcross, setUpReplicaAcross, startReplicaAcross, stderrLogger } from './across-replica';
import { RunningReplicaBitcoin, setUpReplicaThorchain, startReplicaBitcoin } from './bitcoin-replica';
import { deployReplicaChain } from './deploy-replica-chain';
import { deployReplicaGatewayRouter } from './replica-gateway-router';
import {
  REPLICA_BITCOIN_DEFAULT_PORT,
  REPLICA_EVM_CHAIN_IDS,
  REPLICA_EVM_PORTS,
  REPLICA_SOLANA_CHAIN_ID,
  REPLICA_SOLANA_DEFAULT_PORT,
  ReplicaEvmChainId,
} from './replica-parameters';
import { SolanaReplicaHandle, startSolanaReplica } from './solana-replica';
import { CosmosDevnetHandle, startCosmosDevnet } from '../cosmos/cosmos-devnet';
import { cosmosReplicaNetwork } from './cosmos-replica';

export interface StartMainnetReplicaOptions {
  /** Where to write the manifest; written last, so its presence means the replica is ready. */
  manifestPath: string;
  /** RPC port of `ethereum` (default 8545). */
  portEthereum?: number;
  /** RPC port of `base` (default 8546). */
  portBase?: number;
  /** RPC port of `arbitrum` (default 8547). */
  portArbitrum?: number;
  /**
   * RPC port of `solana`; 0 = any free port. Default: 8899 when no EVM port is given, else any free
   * port (as the devnet's Solana chain).
   */
  portSolana?: number;
  /** Solana slot length (default 400 ms). */
  solanaSlotMs?: number;
  /**
   * Esplora port of `bitcoin`; 0 = any free port. Default: 3002 when no EVM port is given, else any
   * free port (as portSolana).
   */
  portBitcoin?: number;
  /** Bitcoin block interval (default 1000 ms, the devnet's). */
  bitcoinBlockMs?: number;
  /** The THORChain relayer's log lines (default: JSON lines on stderr). */
  logger?: RelayerLogger;
  host?: string;
  /** Unset: automine. Set: blocks every N seconds once everything is in place. */
  blockTimeSeconds?: number;
  /** Where our compiled contracts are cached (default <repo>/.cache/evm-contracts). */
  artifactsCacheDir?: string;
}

export interface RunningMainnetReplica {
  manifest: MainnetReplicaManifest;
  manifestPath: string;
  /** Stops the five chains and THORChain, and removes the manifest (if still this run's). */
  stop(): Promise<void>;
}

/**
 * Starts the mainnet replica instead of the devnet: anvil chains `ethereum` (1), `base` (8453) and
 * `arbitrum` (42161) with WETH, USDC, Permit2 and Uniswap V2/V3 at the addresses of the shipped
 * catalog (REAL_NETWORK_CATALOG) and USDC/WETH pools at 1 WETH = 3000 USDC, a Solana replica with
 * the USDC mint at its mainnet address, the Cosmos mainnets (cosmos-replica.ts), the test accounts
 * funded; a `bitcoin` chain on mainnet addresses with THORChain between it and the EVM chains
 * (bitcoin-replica.ts); then the manifest. The three EVM chains start and are filled in parallel.
 */
export async function startMainnetReplica(
  options: StartMainnetReplicaOptions,
): Promise<RunningMainnetReplica> {
  const mnemonic = DEVNET_MNEMONIC;
  const requestedPorts: Record<ReplicaEvmChainId, number | undefined> = {
    ethereum: options.portEthereum,
    base: options.portBase,
    arbitrum: options.portArbitrum,
  };
  const anyEvmPortGiven = Object.values(requestedPorts).some((port) => port !== undefined);
  fs.rmSync(options.manifestPath, { force: true });

  const chains = REPLICA_EVM_CHAIN_IDS.map((id) => ({
    id,
    chainId: evmChainIdOf(id),
    catalog: catalogOf(id),
    port: requestedPorts[id] ?? REPLICA_EVM_PORTS[id],
  }));
  const artifacts = loadEvmArtifacts(options.artifactsCacheDir);
  const uniswapV2 = loadUniswapArtifacts();
  const uniswapV3 = loadUniswapV3Artifacts();
  for (const { catalog } of chains)
    assertInitCodeHashesMatch(catalog, uniswapV2.pairInitCodeHash, uniswapV3.poolInitCodeHash);

  const nodes: AnvilNode[] = [];
  let solana: SolanaReplicaHandle | undefined;
  let across: RunningReplicaAcross | undefined;
  let cosmos: CosmosDevnetHandle | undefined;
  let bitcoin: RunningReplicaBitcoin | undefined;
  const stopChains = async () => {
    await Promise.all([across?.stop(), bitcoin?.stop()]);
    await Promise.all([...nodes.map((node) => node.stop()), solana?.stop(), cosmos?.stop()]);
  };
  try {
    const [cosmosStarted, solanaStarted, ...started] = await Promise.allSettled([
      // The Cosmos mainnets under their real ids and channels, on free ports.
      startCosmosDevnet({
        standardPorts: false,
        host: options.host,
        mnemonic,
        network: cosmosReplicaNetwork(),
      }),
      startSolanaReplica({
        catalog: catalogOf(REPLICA_SOLANA_CHAIN_ID),
        port: options.portSolana ?? (anyEvmPortGiven ? 0 : REPLICA_SOLANA_DEFAULT_PORT),
        host: options.host,
        slotMs: options.solanaSlotMs,
      }),
      ...chains.map((chain) =>
        startAnvil({
          port: chain.port,
          chainId: chain.chainId,
          host: options.host,
          mnemonic,
          accounts: ANVIL_ACCOUNTS,
        }),
      ),
    ]);
    for (const result of started) if (result.status === 'fulfilled') nodes.push(result.value as AnvilNode);
    if (solanaStarted.status === 'fulfilled') solana = solanaStarted.value as SolanaReplicaHandle;
    if (cosmosStarted.status === 'fulfilled') cosmos = cosmosStarted.value as CosmosDevnetHandle;
    const failed = [cosmosStarted, solanaStarted, ...started].find(
      (r): r is PromiseRejectedResult => r.status === 'rejected',
    );
    if (failed) throw failed.reason;

    const evm: MainnetReplicaEvmChain[] = chains.map((chain, i) => ({
      id: chain.id,
      chainId: chain.chainId,
      rpcUrl: nodes[i].rpcUrl,
    }));
    const thorchainFromBlocks = await Promise.all(
      chains.map(async (chain, i) => {
        const provider = localProvider(nodes[i].rpcUrl, chain.chainId);
        try {
          await deployReplicaChain({
            catalog: chain.catalog,
            chainId: chain.chainId,
            provider,
            mnemonic,
            artifacts,
            uniswapV2,
            uniswapV3,
          });
          await deployReplicaGatewayRouter({ catalog: chain.catalog, provider, mnemonic, artifacts });
          await setUpReplicaAcross({ catalog: chain.catalog, chainId: chain.chainId, provider, mnemonic });
          const fromBlock = await setUpReplicaThorchain({
            catalog: chain.catalog,
            provider,
            mnemonic,
            artifactsCacheDir: options.artifactsCacheDir,
          });
          if (options.blockTimeSeconds !== undefined)
            await provider.send('evm_setIntervalMining', [options.blockTimeSeconds]);
          return fromBlock;
        } finally {
          provider.destroy();
        }
      }),
    );

    across = await startReplicaAcross({
      chains: chains.map((chain, i) => ({ ...chain, rpcUrl: nodes[i].rpcUrl })),
      mnemonic,
      host: options.host,
      blockTimeSeconds: options.blockTimeSeconds,
    });
    bitcoin = await startReplicaBitcoin({
      chains: chains.map((chain, i) => ({
        ...chain,
        rpcUrl: nodes[i].rpcUrl,
        fromBlock: thorchainFromBlocks[i],
      })),
      mnemonic,
      port: options.portBitcoin ?? (anyEvmPortGiven ? 0 : REPLICA_BITCOIN_DEFAULT_PORT),
      host: options.host,
      blockMs: options.bitcoinBlockMs,
      blockTimeSeconds: options.blockTimeSeconds,
      logger: options.logger ?? stderrLogger(),
    });

    const solanaChain = solana as SolanaReplicaHandle;
    const manifest: MainnetReplicaManifest = {
      generatedAtMs: Date.now(),
      chains: [],
      accounts: USER_ACCOUNT_INDICES.map((index) => ({
        index,
        address: devnetWallet(mnemonic, index).address,
      })),
      mainnetReplica: {
        evm,
        solana: { id: REPLICA_SOLANA_CHAIN_ID, rpcUrl: solanaChain.rpcUrl, accounts: solanaChain.accounts },
        acrossApiUrl: across.apiUrl,
        cosmos: (cosmos as CosmosDevnetHandle).chains.map((chain) => chain.manifest),
        bitcoin: bitcoin.manifest,
      },
    };
    writeDevnetManifest(options.manifestPath, manifest);

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        await stopChains();
        removeManifestIfWrittenAt(options.manifestPath, manifest.generatedAtMs);
      })());
    return { manifest, manifestPath: options.manifestPath, stop };
  } catch (error) {
    await stopChains();
    throw error;
  }
}

function catalogOf(chain: string): ChainDeployments {
  const entry = REAL_NETWORK_CATALOG.find((c) => c.chain === chain);
  if (!entry) throw new DevnetError('DEPLOYMENT_FAILED', `the shipped catalog has no ${chain}`);
  return entry;
}

function evmChainIdOf(chain: string): number {
  const id = REAL_NETWORKS.find((n) => n.id === chain)?.evmChainId;
  if (id === undefined) throw new DevnetError('DEPLOYMENT_FAILED', `${chain} is not a known EVM network`);
  return id;
}

/**
 * The routers and quoters find pairs and pools by CREATE2 with these hashes: the published
 * bytecode we deploy must be the bytecode the catalog's hashes describe.
 */
function assertInitCodeHashesMatch(
  catalog: ChainDeployments,
  pairInitCodeHash: string,
  poolInitCodeHash: string,
): void {
  const mismatch = (what: string, catalogHash: string | undefined, published: string) =>
    new DevnetError(
      'INIT_CODE_HASH_MISMATCH',
      `catalog ${catalog.chain}: ${what} init code hash ${catalogHash} is not the published bytecode's ${published}`,
    );
  if (catalog.uniswapV2?.initCodeHash.toLowerCase() !== pairInitCodeHash.toLowerCase())
    throw mismatch('Uniswap V2 pair', catalog.uniswapV2?.initCodeHash, pairInitCodeHash);
  if (catalog.uniswapV3?.poolInitCodeHash.toLowerCase() !== poolInitCodeHash.toLowerCase())
    throw mismatch('Uniswap V3 pool', catalog.uniswapV3?.poolInitCodeHash, poolInitCodeHash);
}
