import { Contract, getAddress, JsonRpcProvider, MaxUint256, parseUnits } from 'ethers';
import type { ChainDeployments } from '@swapgw/chains';
import { BITCOIN_BRIDGE_CHAIN_ID, thorchainAssetOf } from '@swapgw/chains/bitcoin-bridge';
import type { MainnetReplicaBitcoinChain } from '@swapgw/chains/devnet-manifest';
import { loadEvmArtifacts } from '@swapgw/evm-contracts';
import { devnetWallet } from '../accounts';
import {
  BITCOIN_BRIDGE_OUTBOUND_FEE_SATS,
  BITCOIN_BRIDGE_USDC_PER_BTC,
  BITCOIN_DEVNET_BLOCK_MS,
  BITCOIN_FEE_WALLET_INDICES,
  BITCOIN_KEY_FUNDING,
  BITCOIN_TEST_WALLET_INDICES,
  LocalBitcoinChain,
  startLocalBitcoinChain,
} from '../bitcoin/bitcoin-devnet';
import { bitcoinDevnetKey, BITCOIN_WALLET_PURPOSES, bitcoinTestWallet } from '../bitcoin/bitcoin-keys';
import { EsploraClient } from '../bitcoin/esplora-client';
import { BitcoinBridgeDestination, BitcoinBridgeEndpoint } from '../bridge/bitcoin-bridge-endpoint';
import { BridgeRelayer, RelayerLogger } from '../bridge/bridge-relayer';
import { LocalThornode } from '../bridge/local-thornode';
import {
  routerDepositLookup,
  routerOutboundLookup,
  routerRefundLookup,
  ThorchainRouterEndpoint,
} from '../bridge/thorchain-router-endpoint';
import { DevnetError } from '../devnet-error';
import {
  BRIDGE,
  DEPLOYER_INDEX,
  DEVNET_THORCHAIN_ROUTER,
  estimateBitcoinBridgeDurationSeconds,
  RELAYER_POLL_INTERVAL_MS,
  THORCHAIN_VAULT_INDEX,
} from '../devnet-parameters';
import { localProvider } from '../evm-provider';
import { placeAtCanonicalAddress } from './canonical-placement';
import { REPLICA_BITCOIN_CHAIN_ID, REPLICA_THORCHAIN_PREFIXES } from './replica-parameters';

/** The USDC THORChain's vault holds on every EVM replica chain to pay swaps out of Bitcoin with. */
export const REPLICA_THORCHAIN_VAULT_USDC = parseUnits('10000000', 6);

export interface ReplicaThorchainChain {
  id: string;
  chainId: number;
  rpcUrl: string;
  catalog: ChainDeployments;
}

/**
 * THORChain on one EVM replica chain, as mainnet has it: its router (ThorchainRouter.sol, THORChain's
 * router surface) at DEVNET_THORCHAIN_ROUTER, and its vault (test account THORCHAIN_VAULT_INDEX)
 * holding USDC deposited to itself through the router (the router pays a vault's outbounds from
 * what was deposited to it). Returns the block after the vault's own deposit: the first whose
 * deposits are users'.
 */
export async function setUpReplicaThorchain(input: {
  catalog: ChainDeployments;
  provider: JsonRpcProvider;
  mnemonic: string;
  artifactsCacheDir?: string;
}): Promise<number> {
  const { catalog, provider, mnemonic } = input;
  const deployer = devnetWallet(mnemonic, DEPLOYER_INDEX, provider);
  const vault = devnetWallet(mnemonic, THORCHAIN_VAULT_INDEX, provider);
  const usdc = usdcOf(catalog);
  await placeAtCanonicalAddress(provider, deployer, {
    label: `${catalog.chain} THORChain router`,
    artifact: loadEvmArtifacts(input.artifactsCacheDir).ThorchainRouter,
    address: DEVNET_THORCHAIN_ROUTER,
  });
  try {
    const mint = new Contract(usdc, ['function mint(address,uint256)'], deployer);
    await (await mint.mint(vault.address, REPLICA_THORCHAIN_VAULT_USDC)).wait();
    const token = new Contract(usdc, ['function approve(address,uint256) returns (bool)'], vault);
    await (await token.approve(DEVNET_THORCHAIN_ROUTER, MaxUint256)).wait();
    const router = new Contract(
      DEVNET_THORCHAIN_ROUTER,
      ['function deposit(address vault, address asset, uint256 amount, string memo) payable'],
      vault,
    );
    const funded = await (
      await router.deposit(vault.address, usdc, REPLICA_THORCHAIN_VAULT_USDC, 'ADD:vault liquidity')
    ).wait();
    return Number(funded.blockNumber) + 1;
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${catalog.chain}: funding THORChain's vault failed: ${(error as Error).message}`,
    );
  }
}

export interface RunningReplicaBitcoin {
  /** The manifest's `mainnetReplica.bitcoin`. */
  manifest: MainnetReplicaBitcoinChain;
  /** THORNode's API serving the replica: the apps' THORNODE_URL. */
  thornodeUrl: string;
  stop(): Promise<void>;
}

/**
 * The replica's `bitcoin` chain (the devnet's in-process chain on mainnet addresses) and THORChain
 * between it and the EVM replica chains: the test wallets `m/84'/0'/0'/0/<i>`, `m/86'/0'/0'/0/<i>`
 * and `m/49'/0'/0'/0/<i>` (5 BTC each), the fee wallets `m/84'/0'/1'/0/<i>` and THORChain's
 * Bitcoin vault `m/84'/0'/2'/0/0` funded at start; a local THORNode (inbound_addresses, quote/swap,
 * tx/status) over the vaults, with each chain's real THORChain prefix (`ETH`, `BASE`, `ARB`); and
 * the relayer playing THORChain's bifrost: router deposits paid in BTC from the Bitcoin vault
 * (`OUT:<HASH>`), Bitcoin deposits paid in USDC by the EVM vault's `transferOut` (`OUT:<HASH>`),
 * anything else refunded as THORChain refunds.
 */
export async function startReplicaBitcoin(options: {
  chains: (ReplicaThorchainChain & { fromBlock: number })[];
  mnemonic: string;
  port: number;
  host?: string;
  blockMs?: number;
  blockTimeSeconds?: number;
  logger: RelayerLogger;
}): Promise<RunningReplicaBitcoin> {
  const { mnemonic, logger } = options;
  const host = options.host ?? '127.0.0.1';
  const blockMs = options.blockMs ?? BITCOIN_DEVNET_BLOCK_MS;
  const network = 'mainnet' as const;
  const key = (kind: 'fee-wallet' | 'bridge-vault', index: number) =>
    bitcoinDevnetKey(kind, index, mnemonic, network);
  const walletKinds = Object.keys(BITCOIN_WALLET_PURPOSES) as (keyof typeof BITCOIN_WALLET_PURPOSES)[];
  const wallets = (kind: keyof typeof BITCOIN_WALLET_PURPOSES) =>
    BITCOIN_TEST_WALLET_INDICES.map((index) => ({
      index,
      wallet: bitcoinTestWallet(kind, index, network, mnemonic),
    }));
  const vaultKey = key('bridge-vault', 0);
  const bitcoin: LocalBitcoinChain = await startLocalBitcoinChain({
    network,
    id: REPLICA_BITCOIN_CHAIN_ID,
    port: options.port,
    host,
    blockMs,
    mnemonic,
    funding: [
      ...walletKinds.flatMap((kind) =>
        wallets(kind).map(({ wallet }) => ({ script: wallet.script, ...BITCOIN_KEY_FUNDING.wallet })),
      ),
      ...BITCOIN_FEE_WALLET_INDICES.map((index) => ({
        script: key('fee-wallet', index).script,
        ...BITCOIN_KEY_FUNDING['fee-wallet'],
      })),
      { script: vaultKey.script, ...BITCOIN_KEY_FUNDING['bridge-vault'] },
    ],
  });

  const terms = {
    usdcPerBtc: BITCOIN_BRIDGE_USDC_PER_BTC,
    feeBps: BRIDGE.feeBps,
    outboundFeeSats: BITCOIN_BRIDGE_OUTBOUND_FEE_SATS,
  };
  const thorchainVault = devnetWallet(mnemonic, THORCHAIN_VAULT_INDEX);
  const destinations = options.chains.map((chain) => {
    const prefix = REPLICA_THORCHAIN_PREFIXES[chain.id];
    if (!prefix) throw new DevnetError('DEPLOYMENT_FAILED', `THORChain names no chain ${chain.id}`);
    const usdc = usdcOf(chain.catalog);
    const decimals = chain.catalog.tokens.find((t) => t.symbol === 'USDC')?.decimals ?? 6;
    return {
      chain,
      usdc,
      prefix,
      asset: thorchainAssetOf(prefix, { symbol: 'USDC', address: usdc }),
      decimals,
      inboundAddress: thorchainVault.address,
      payoutOf: routerOutboundLookup(chain.rpcUrl, DEVNET_THORCHAIN_ROUTER, thorchainVault.address),
      router: {
        address: DEVNET_THORCHAIN_ROUTER,
        vault: thorchainVault.address,
        depositOf: routerDepositLookup(chain.rpcUrl, DEVNET_THORCHAIN_ROUTER),
        refundOf: routerRefundLookup(chain.rpcUrl, DEVNET_THORCHAIN_ROUTER, thorchainVault.address),
      },
    };
  });
  const durationSeconds = estimateBitcoinBridgeDurationSeconds(
    RELAYER_POLL_INTERVAL_MS,
    blockMs,
    options.blockTimeSeconds,
  );
  const bitcoinEndpoint = new BitcoinBridgeEndpoint({
    chain: REPLICA_BITCOIN_CHAIN_ID,
    bridge: { ...terms, chainId: BITCOIN_BRIDGE_CHAIN_ID, vault: vaultKey.address },
    esplora: new EsploraClient(bitcoin.esploraUrl),
    vaultKey,
    destinations: Object.fromEntries(
      destinations.map((d) => [d.chain.id, { bridgeChainId: BigInt(d.chain.chainId), recipient: 'evm' }]),
    ) as Record<string, BitcoinBridgeDestination>,
    thorchainAssets: Object.fromEntries(
      destinations.map((d) => [d.asset, { chain: d.chain.id, decimals: d.decimals }]),
    ),
    logger,
  });
  let thornode: LocalThornode | undefined;
  let relayer: BridgeRelayer | undefined;
  try {
    thornode = new LocalThornode({
      bitcoin: {
        vault: vaultKey.address,
        terms,
        esplora: new EsploraClient(bitcoin.esploraUrl),
        blockMs,
        outboundOf: (hash) => bitcoinEndpoint.thorchainOutboundOf(hash),
      },
      destinations,
      estimatedDurationSeconds: durationSeconds,
    });
    const thornodeUrl = `http://${host}:${await thornode.listen(0, host)}`;
    const running = thornode;
    relayer = new BridgeRelayer(
      [
        ...destinations.map(
          (d) =>
            new ThorchainRouterEndpoint({
              chain: d.chain.id,
              chainId: d.chain.chainId,
              router: DEVNET_THORCHAIN_ROUTER,
              usdc: d.usdc,
              provider: localProvider(d.chain.rpcUrl, d.chain.chainId),
              vault: thorchainVault,
              trading: { prefix: d.prefix, stopped: (prefix) => running.tradingStopped(prefix) },
              bitcoin: { bridgeChainId: BigInt(BITCOIN_BRIDGE_CHAIN_ID), terms, network },
              paysOut: true,
              fromBlock: d.chain.fromBlock,
              logger,
            }),
        ),
        bitcoinEndpoint,
      ],
      { pollIntervalMs: RELAYER_POLL_INTERVAL_MS, logger },
    );
    await relayer.start();
    const listed = (entries: { index: number; wallet: { address: string } }[]) =>
      entries.map(({ index, wallet }) => ({ index, address: wallet.address }));
    const manifest: MainnetReplicaBitcoinChain = {
      id: REPLICA_BITCOIN_CHAIN_ID,
      network,
      esploraUrl: bitcoin.esploraUrl,
      blockMs,
      accounts: listed(wallets('p2wpkh')),
      taprootAccounts: listed(wallets('p2tr')),
      nestedSegwitAccounts: listed(wallets('p2sh-p2wpkh')),
      feeWallets: BITCOIN_FEE_WALLET_INDICES.map((index) => ({
        index,
        address: key('fee-wallet', index).address,
      })),
      thorchain: {
        thornodeUrl,
        bitcoinVault: vaultKey.address,
        router: DEVNET_THORCHAIN_ROUTER,
        evmVault: getAddress(thorchainVault.address),
      },
    };
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        await relayer?.stop();
        await Promise.all([running.close(), bitcoin.stop()]);
      })());
    return { manifest, thornodeUrl, stop };
  } catch (error) {
    await relayer?.stop();
    await Promise.all([thornode?.close(), bitcoin.stop()]);
    throw error;
  }
}

function usdcOf(catalog: ChainDeployments): string {
  const address = catalog.tokens.find((t) => t.symbol === 'USDC')?.address;
  if (!address) throw new DevnetError('DEPLOYMENT_FAILED', `catalog ${catalog.chain} has no USDC`);
  return getAddress(address);
}
