import fs from 'node:fs';
import { AnvilNode, DEVNET_MNEMONIC, startAnvil } from './anvil';
import { devnetWallet } from './accounts';
import { BridgeRelayer, RelayerLogger } from './bridge/bridge-relayer';
import { EvmBridgeEndpoint } from './bridge/evm-bridge-endpoint';
import { SolanaBridgeEndpoint } from './bridge/solana-bridge-endpoint';
import { BitcoinBridgeDestination, BitcoinBridgeEndpoint } from './bridge/bitcoin-bridge-endpoint';
import { bitcoinDepositPayoutLookup } from './bridge/bridge-payouts';
import { DEVNET_THORCHAIN_PREFIXES, LocalThornode, LocalThornodeDestination } from './bridge/local-thornode';
import {
  routerDepositLookup,
  routerRefundLookup,
  ThorchainRouterEndpoint,
} from './bridge/thorchain-router-endpoint';
import { BITCOIN_BRIDGE_CHAIN_ID, thorchainAssetOf } from '@swapgw/chains/bitcoin-bridge';
import { bitcoinDevnetKey } from './bitcoin/bitcoin-keys';
import { EsploraClient } from './bitcoin/esplora-client';
import { loadEvmArtifacts } from '@swapgw/evm-contracts';
import { loadUniswapArtifacts } from './contracts/uniswap-artifacts';
import { deployDevnetChain } from './deploy/deploy-chain';
import {
  ANVIL_ACCOUNTS,
  BRIDGE,
  DEVNET_CHAINS,
  estimateBitcoinBridgeDurationSeconds,
  estimateBridgeDurationSeconds,
  estimateSolanaBridgeDurationSeconds,
  RELAYER_INDEX,
  DEVNET_THORCHAIN_ROUTER,
  THORCHAIN_VAULT_INDEX,
  RELAYER_POLL_INTERVAL_MS,
  SOLANA_SLOT_MS,
  USER_ACCOUNT_INDICES,
} from './devnet-parameters';
import { evmRpc } from './evm-json-rpc';
import { localProvider } from './evm-provider';
import { DevnetManifest } from './manifest';
import { removeManifestIfWrittenAt, writeDevnetManifest } from './manifest-writer';
import { solanaConnection } from './solana/solana-connection';
import { SOLANA_DEVNET_DEFAULT_PORT, SolanaDevnetHandle, startSolanaDevnet } from './solana/solana-devnet';
import { solanaBridgeAuthority } from './solana/solana-keys';
import {
  BITCOIN_DEVNET_BLOCK_MS,
  BITCOIN_DEVNET_DEFAULT_PORT,
  BitcoinDevnetHandle,
  startBitcoinDevnet,
} from './bitcoin/bitcoin-devnet';
import {
  CosmosDevnetHandle,
  NOBLE_DEVNET_ID,
  nobleCctpParams,
  startCosmosDevnet,
} from './cosmos/cosmos-devnet';
import { NobleBridgeEndpoint } from './cosmos/noble-bridge-endpoint';
import { cctpDomainOfBridgeChain, NOBLE_BRIDGE_CHAIN_ID } from '@swapgw/chains/families';
import { SOLANA_BRIDGE_CHAIN_ID } from '@swapgw/chains/solana-bridge';

/**
 * The CCTP domains the devnet's Noble burns towards: the EVM devnets (no CCTP domain: their chain
 * ids), Solana (domain 5) and the bridge's Bitcoin end (DEVNET_BITCOIN_CCTP_DOMAIN, paid in BTC).
 */
const NOBLE_CCTP_REMOTE_DOMAINS: readonly number[] = [
  ...DEVNET_CHAINS.map((spec) => cctpDomainOfBridgeChain(spec.chainId)),
  cctpDomainOfBridgeChain(SOLANA_BRIDGE_CHAIN_ID),
  cctpDomainOfBridgeChain(BITCOIN_BRIDGE_CHAIN_ID),
];
/** x/cctp's module account on Noble: bech32('noble', sha256('cctp')[:20]), the SDK's NewModuleAddress. */
const NOBLE_CCTP_MODULE_ADDRESS = 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5';

export interface StartDevnetOptions {
  /** Where to write the manifest; written last, so its presence means the devnet is ready. */
  manifestPath: string;
  /** RPC port of devnet-a (default 8545). */
  portA?: number;
  /** RPC port of devnet-b (default 8546). */
  portB?: number;
  /**
   * RPC port of solana-devnet; 0 = any free port. Default: 8899 when neither portA nor portB is
   * given (the standard layout), else any free port, so a caller that picks its own EVM ports (a
   * test, a second stack) never collides with a developer's devnet on 8899.
   */
  portSolana?: number;
  /** Esplora port of bitcoin-devnet; 0 = any free port. Default: 3002 in the standard layout, as portSolana. */
  portBitcoin?: number;
  /** Bitcoin block interval (default 1000 ms). */
  bitcoinBlockMs?: number;
  /** Block interval of the Cosmos chains (default 1000 ms). */
  cosmosBlockMs?: number;
  /** Solana slot length (default 400 ms, Solana's). */
  solanaSlotMs?: number;
  host?: string;
  /**
   * Unset: automine (each transaction mined at once). Set: blocks every N seconds after
   * deployment, for trying flows where "submitted" and "confirmed" differ in time.
   */
  blockTimeSeconds?: number;
  relayerPollIntervalMs?: number;
  logger?: RelayerLogger;
  /** Where compiled contract artifacts are cached (default <repo>/.cache/evm-contracts). */
  artifactsCacheDir?: string;
}

export interface RunningDevnet {
  manifest: DevnetManifest;
  manifestPath: string;
  /** Stops the relayer, the four chains and removes the manifest (if still this run's). */
  stop(): Promise<void>;
}

/**
 * Starts the devnet: two fresh anvil chains, contracts deployed and seeded identically on every
 * start, the local Solana and Bitcoin chains, the bridge relayer between them all, and the manifest
 * describing it all.
 */
export async function startDevnet(options: StartDevnetOptions): Promise<RunningDevnet> {
  const mnemonic = DEVNET_MNEMONIC;
  const ports = [
    options.portA ?? DEVNET_CHAINS[0].defaultPort,
    options.portB ?? DEVNET_CHAINS[1].defaultPort,
  ];
  const pollIntervalMs = options.relayerPollIntervalMs ?? RELAYER_POLL_INTERVAL_MS;
  const logger = options.logger ?? consoleLogger();
  // A manifest left by an earlier run must not be mistaken for this run's readiness.
  fs.rmSync(options.manifestPath, { force: true });

  const artifacts = loadEvmArtifacts(options.artifactsCacheDir);
  const uniswap = loadUniswapArtifacts();
  const relayer = devnetWallet(mnemonic, RELAYER_INDEX);
  const thorchainVault = devnetWallet(mnemonic, THORCHAIN_VAULT_INDEX);

  const solanaPort =
    options.portSolana ??
    (options.portA === undefined && options.portB === undefined ? SOLANA_DEVNET_DEFAULT_PORT : 0);
  const solanaSlotMs = options.solanaSlotMs ?? SOLANA_SLOT_MS;
  const standardLayout = options.portA === undefined && options.portB === undefined;
  const bitcoinPort = options.portBitcoin ?? (standardLayout ? BITCOIN_DEVNET_DEFAULT_PORT : 0);
  const bitcoinBlockMs = options.bitcoinBlockMs ?? BITCOIN_DEVNET_BLOCK_MS;

  const nodes: AnvilNode[] = [];
  let solana: SolanaDevnetHandle | undefined;
  let bitcoin: BitcoinDevnetHandle | undefined;
  let thornode: LocalThornode | undefined;
  let cosmos: CosmosDevnetHandle | undefined;
  const stopNodes = async () => {
    await Promise.all([
      ...nodes.map((n) => n.stop()),
      solana?.stop(),
      bitcoin?.stop(),
      cosmos?.stop(),
      thornode?.close(),
    ]);
  };
  try {
    const [cosmosStarted, solanaStarted, bitcoinStarted, ...started] = await Promise.allSettled([
      // The Cosmos chains on their standard ports (26657…, 1317…) in the standard layout, as Bitcoin's.
      startCosmosDevnet({
        standardPorts: standardLayout,
        host: options.host,
        blockMs: options.cosmosBlockMs,
        mnemonic,
        cctpRemoteDomains: NOBLE_CCTP_REMOTE_DOMAINS,
      }),
      startSolanaDevnet({ port: solanaPort, host: options.host, slotMs: solanaSlotMs }),
      startBitcoinDevnet({
        port: bitcoinPort,
        host: options.host,
        blockMs: bitcoinBlockMs,
        mnemonic,
        bridgeFeeBps: BRIDGE.feeBps,
      }),
      ...DEVNET_CHAINS.map((spec, i) =>
        startAnvil({
          port: ports[i],
          chainId: spec.chainId,
          host: options.host,
          mnemonic,
          accounts: ANVIL_ACCOUNTS,
        }),
      ),
    ]);
    for (const result of started) if (result.status === 'fulfilled') nodes.push(result.value as AnvilNode);
    if (bitcoinStarted.status === 'fulfilled') bitcoin = bitcoinStarted.value as BitcoinDevnetHandle;
    if (cosmosStarted.status === 'fulfilled') cosmos = cosmosStarted.value as CosmosDevnetHandle;
    if (solanaStarted.status === 'rejected') throw solanaStarted.reason;
    solana = solanaStarted.value as SolanaDevnetHandle;
    if (bitcoinStarted.status === 'rejected') throw bitcoinStarted.reason;
    const bitcoinChain = bitcoinStarted.value as BitcoinDevnetHandle;
    if (cosmosStarted.status === 'rejected') throw cosmosStarted.reason;
    const cosmosChains = cosmosStarted.value as CosmosDevnetHandle;
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const solanaChain = solana.manifest;
    const nobleChain = cosmosChains.chains.find((c) => c.manifest.id === NOBLE_DEVNET_ID);
    if (!nobleChain) throw new Error(`the Cosmos devnet has no ${NOBLE_DEVNET_ID}`);

    const providers = nodes.map((node, i) => localProvider(node.rpcUrl, DEVNET_CHAINS[i].chainId));
    const chains = await Promise.all(
      DEVNET_CHAINS.map((spec, i) =>
        deployDevnetChain({
          spec,
          rpcUrl: nodes[i].rpcUrl,
          provider: providers[i],
          mnemonic,
          relayerAddress: relayer.address,
          artifacts,
          uniswap,
        }),
      ),
    );
    providers.forEach((p) => p.destroy());

    if (options.blockTimeSeconds !== undefined) {
      // Deployment ran under automine for speed; switch to interval mining for the session.
      await Promise.all(
        nodes.map((node) => evmRpc(node.rpcUrl, 'evm_setIntervalMining', [options.blockTimeSeconds])),
      );
    }

    // THORChain's API over the bridge's Bitcoin end: each EVM chain's USDC as a THORChain asset.
    const thorchainDestinations: (LocalThornodeDestination & { chain: string; usdc: string })[] =
      chains.flatMap((chain) => {
        const prefix = DEVNET_THORCHAIN_PREFIXES[chain.id];
        const usdc = chain.tokens[chain.bridge.token];
        return prefix && usdc
          ? [
              {
                chain: chain.id,
                usdc: usdc.address,
                prefix,
                asset: thorchainAssetOf(prefix, { symbol: chain.bridge.token, address: usdc.address }),
                decimals: usdc.decimals,
                inboundAddress: chain.bridge.address,
                payoutOf: bitcoinDepositPayoutLookup(
                  chain.rpcUrl,
                  chain.bridge.address,
                  BigInt(bitcoinChain.manifest.bridge.chainId),
                ),
                router: {
                  address: DEVNET_THORCHAIN_ROUTER,
                  vault: thorchainVault.address,
                  depositOf: routerDepositLookup(chain.rpcUrl, DEVNET_THORCHAIN_ROUTER),
                  refundOf: routerRefundLookup(chain.rpcUrl, DEVNET_THORCHAIN_ROUTER, thorchainVault.address),
                },
              },
            ]
          : [];
      });
    const bitcoinBridgeDurationSeconds = estimateBitcoinBridgeDurationSeconds(
      pollIntervalMs,
      bitcoinBlockMs,
      options.blockTimeSeconds,
    );
    const bitcoinVaultKey = bitcoinDevnetKey('bridge-vault', 0, mnemonic);
    const bitcoinEndpoint = new BitcoinBridgeEndpoint({
      chain: bitcoinChain.manifest.id,
      bridge: bitcoinChain.manifest.bridge,
      esplora: new EsploraClient(bitcoinChain.manifest.esploraUrl),
      vaultKey: bitcoinVaultKey,
      destinations: Object.fromEntries([
        ...chains.map((chain) => [chain.id, { bridgeChainId: BigInt(chain.chainId), recipient: 'evm' }]),
        [solanaChain.id, { bridgeChainId: BigInt(solanaChain.bridge.chainId), recipient: 'solana' }],
        // Noble's CCTP end mints the USDC a deposit's memo names for a `noble1…` account.
        [
          NOBLE_DEVNET_ID,
          {
            bridgeChainId: BigInt(NOBLE_BRIDGE_CHAIN_ID),
            recipient: 'cosmos',
            bech32Prefix: nobleChain.chain.spec.bech32Prefix,
          },
        ],
      ]) as Record<string, BitcoinBridgeDestination>,
      thorchainAssets: Object.fromEntries(
        thorchainDestinations.map((d) => [d.asset, { chain: d.chain, decimals: d.decimals }]),
      ),
      thorchainSigningHalted: () => thornode?.signingStopped('BTC') ?? false,
      logger,
    });
    thornode = new LocalThornode({
      bitcoin: {
        vault: bitcoinChain.manifest.bridge.vault,
        terms: bitcoinChain.manifest.bridge,
        esplora: new EsploraClient(bitcoinChain.manifest.esploraUrl),
        blockMs: bitcoinBlockMs,
        outboundOf: (hash) => bitcoinEndpoint.thorchainOutboundOf(hash),
      },
      destinations: thorchainDestinations,
      estimatedDurationSeconds: bitcoinBridgeDurationSeconds,
    });
    const thornodeHost = options.host ?? '127.0.0.1';
    const thornodeUrl = `http://${thornodeHost}:${await thornode.listen(0, thornodeHost)}`;

    const bridgeRelayer = new BridgeRelayer(
      [
        ...chains.map(
          (chain) =>
            new EvmBridgeEndpoint({
              chain: chain.id,
              chainId: chain.chainId,
              bridgeAddress: chain.bridge.address,
              provider: localProvider(chain.rpcUrl, chain.chainId),
              relayer,
              solanaBridgeChainIds: [BigInt(solanaChain.bridge.chainId)],
              nobleBridgeChainIds: [BigInt(NOBLE_BRIDGE_CHAIN_ID)],
              bitcoinBridgeChainIds: [BigInt(bitcoinChain.manifest.bridge.chainId)],
              logger,
            }),
        ),
        new SolanaBridgeEndpoint({
          manifest: solanaChain,
          connection: solanaConnection(solanaChain.rpcUrl),
          authority: solanaBridgeAuthority(),
          feeBps: BRIDGE.feeBps,
          logger,
        }),
        // THORChain's inbound on the EVM chains: the router's deposits, paid out in BTC by the vault.
        ...chains.flatMap((chain) => {
          const destination = thorchainDestinations.find((d) => d.chain === chain.id);
          return destination
            ? [
                new ThorchainRouterEndpoint({
                  chain: chain.id,
                  chainId: chain.chainId,
                  router: DEVNET_THORCHAIN_ROUTER,
                  usdc: destination.usdc,
                  provider: localProvider(chain.rpcUrl, chain.chainId),
                  vault: thorchainVault,
                  trading: {
                    prefix: destination.prefix,
                    stopped: (prefix) => thornode?.tradingStopped(prefix) ?? false,
                  },
                  bitcoin: {
                    bridgeChainId: BigInt(bitcoinChain.manifest.bridge.chainId),
                    terms: bitcoinChain.manifest.bridge,
                  },
                  logger,
                }),
              ]
            : [];
        }),
        bitcoinEndpoint,
        // Noble's CCTP: burns relayed to the EVM chains, Solana and Bitcoin, USDC bridged to Noble minted there.
        new NobleBridgeEndpoint({
          chain: nobleChain.chain,
          cctp: nobleCctpParams(NOBLE_CCTP_REMOTE_DOMAINS),
          feeBps: BRIDGE.feeBps,
          bitcoinNetwork: bitcoinVaultKey.network,
          logger,
        }),
      ],
      { pollIntervalMs, logger },
    );
    await bridgeRelayer.start();

    const manifest: DevnetManifest = {
      generatedAtMs: Date.now(),
      mnemonic,
      chains,
      bridge: {
        provider: BRIDGE.provider,
        feeBps: BRIDGE.feeBps,
        estimatedDurationSeconds: estimateBridgeDurationSeconds(pollIntervalMs, options.blockTimeSeconds),
        relayer: relayer.address,
      },
      accounts: USER_ACCOUNT_INDICES.map((index) => ({
        index,
        address: devnetWallet(mnemonic, index).address,
      })),
      solana: {
        ...solanaChain,
        bridge: {
          ...solanaChain.bridge,
          estimatedDurationSeconds: estimateSolanaBridgeDurationSeconds(
            pollIntervalMs,
            solanaSlotMs,
            options.blockTimeSeconds,
          ),
        },
      },
      bitcoin: {
        ...bitcoinChain.manifest,
        bridge: {
          ...bitcoinChain.manifest.bridge,
          estimatedDurationSeconds: bitcoinBridgeDurationSeconds,
          thornode: {
            url: thornodeUrl,
            chains: Object.fromEntries(thorchainDestinations.map((d) => [d.chain, d.prefix])),
          },
        },
      },
      cosmos: cosmosChains.chains.map((chain) =>
        chain.manifest.id === NOBLE_DEVNET_ID
          ? {
              ...chain.manifest,
              bridge: {
                chainId: NOBLE_BRIDGE_CHAIN_ID,
                token: 'USDC',
                denom: nobleCctpParams([]).burnToken,
                moduleAddress: NOBLE_CCTP_MODULE_ADDRESS,
                // A burn's block, a relayer poll, the mint's block (or the EVM side's), as Bitcoin's end.
                estimatedDurationSeconds: estimateBitcoinBridgeDurationSeconds(
                  pollIntervalMs,
                  chain.manifest.blockMs,
                  options.blockTimeSeconds,
                ),
              },
            }
          : chain.manifest,
      ),
    };
    writeDevnetManifest(options.manifestPath, manifest);

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        await bridgeRelayer.stop();
        await stopNodes();
        removeManifestIfWrittenAt(options.manifestPath, manifest.generatedAtMs);
      })());
    return { manifest, manifestPath: options.manifestPath, stop };
  } catch (error) {
    await stopNodes();
    throw error;
  }
}

/** JSON lines on stderr, leaving stdout to the CLI's readiness lines. */
function consoleLogger(): RelayerLogger {
  const write = (level: string) => (message: unknown, context?: string) =>
    process.stderr.write(
      JSON.stringify({
        level,
        time: new Date().toISOString(),
        service: 'devnet',
        context,
        ...(typeof message === 'object' ? message : { msg: message }),
      }) + '\n',
    );
  return { log: write('info'), warn: write('warn'), error: write('error') };
}
