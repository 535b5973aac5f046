import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { REAL_NETWORK_CATALOG, REAL_NETWORKS } from '@swapgw/chains';
import {
  CosmosDevnetChainManifest,
  DEVNET_MNEMONIC,
  devnetCosmosFeeGranterKeys,
  devnetBitcoinFeeWalletKeys,
  devnetRelayerKeys,
  devnetSolanaFeePayerKeys,
  devnetWallet,
  RunningMainnetReplica,
  startMainnetReplica,
} from '@swapgw/devnet';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import {
  api,
  ApiClient,
  createApiKey,
  freePort,
  Stack,
  startKafkaBroker,
  startStack,
  StartStackOptions,
  testEnv,
} from '@swapgw/testing';

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

/** What an e2e suite on the mainnet replica reaches: the chains, the apps, an API client. */
export interface ReplicaStack {
  replica: RunningMainnetReplica;
  stack: Stack;
  client: ApiClient;
  /** The gateway's URL and the API key `client` uses (for the SDK's own client). */
  gatewayUrl: string;
  apiKey: string;
  /** A Cosmos mainnet of the replica (`cosmoshub-4`, `osmosis-1`, `noble-1`): its RPC, REST and test wallets. */
  cosmosChain(id: string): CosmosDevnetChainManifest;
  /** A provider of a replica EVM chain (`ethereum`, `base`, `arbitrum`) that never caches reads. */
  provider(chain: string): JsonRpcProvider;
  /** The catalog address of `symbol` on `chain`. */
  tokenAddress(chain: string, symbol: string): string;
  balanceOf(chain: string, symbol: string, holder: string): Promise<bigint>;
  ethOf(chain: string, holder: string): Promise<bigint>;
  /** A new wallet holding `amount` of `symbol` on `chain` (from test account 9) and no ETH anywhere. */
  freshWalletWith(chain: string, symbol: string, amount: bigint): Promise<Wallet>;
  /** Account `index` of the standard test mnemonic, connected to `chain`. */
  account(index: number, chain: string): Wallet;
  stop(): Promise<void>;
}

/**
 * The mainnet replica (libs/devnet startMainnetReplica) on free ports and the five apps configured
 * exactly as production is: the shipped catalog, RPC_URL_* of the real networks, ESPLORA_URL_BITCOIN
 * and ACROSS_API_URL pointing at the replica (the Cosmos mainnets' RPC_URL_ / REST_URL_ too),
 * THORNODE_URL at its THORNode, relayer, fee-payer, Bitcoin fee-wallet and fee-granter keys; no
 * devnet chains (the replica's manifest has none). Its own Kafka broker and database, so the shared
 * stack of the e2e run is untouched.
 */
export async function startReplicaStack(
  label: string,
  options: Pick<StartStackOptions, 'appEnv'> = {},
): Promise<ReplicaStack> {
  const manifestPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `swapgw-${label}-`)), 'manifest.json');
  const databaseUrl = new URL(testEnv().databaseUrl);
  databaseUrl.pathname = `/swapgw_${label}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(databaseUrl.toString());
  const [replica, broker] = await Promise.all([
    startMainnetReplica({
      manifestPath,
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
      portSolana: 0,
      portBitcoin: 0,
    }),
    startKafkaBroker(),
  ]);
  const rpcOf = (id: string) => {
    const chain = replica.manifest.mainnetReplica.evm.find((c) => c.id === id);
    if (!chain) throw new Error(`the replica has no EVM chain ${id}`);
    return chain;
  };
  const evmIds = replica.manifest.mainnetReplica.evm.map((c) => c.id);
  const cosmosChains = replica.manifest.mainnetReplica.cosmos ?? [];
  // Each Cosmos mainnet's CometBFT RPC and REST API under the variables production sets (RPC_URL_COSMOSHUB, …).
  const cosmosEnv = Object.fromEntries(
    cosmosChains.flatMap((chain) => {
      const real = REAL_NETWORKS.find((n) => n.id === chain.id);
      if (!real?.rpcEnv || !real.cosmos?.restEnv)
        throw new Error(`${chain.id} is not a shipped Cosmos network`);
      return [
        [real.rpcEnv, chain.rpc],
        [real.cosmos.restEnv, chain.rest],
      ];
    }),
  );
  const cosmosChain = (id: string) => {
    const chain = cosmosChains.find((c) => c.id === id);
    if (!chain) throw new Error(`the replica has no Cosmos chain ${id}`);
    return chain;
  };
  const bitcoin = replica.manifest.mainnetReplica.bitcoin;
  if (!bitcoin) throw new Error('the replica started no Bitcoin chain');
  const thornode = { THORNODE_URL: bitcoin.thorchain.thornodeUrl };
  let stack: Stack;
  let gatewayUrl: string;
  try {
    stack = await startStack({
      env: {
        KAFKA_BROKERS: broker.brokers,
        DATABASE_URL: databaseUrl.toString(),
        DEVNET_MANIFEST: manifestPath,
        RPC_URL_ETHEREUM: rpcOf('ethereum').rpcUrl,
        RPC_URL_BASE: rpcOf('base').rpcUrl,
        RPC_URL_ARBITRUM: rpcOf('arbitrum').rpcUrl,
        RPC_URL_SOLANA: replica.manifest.mainnetReplica.solana.rpcUrl,
        ESPLORA_URL_BITCOIN: bitcoin.esploraUrl,
        ACROSS_API_URL: replica.manifest.mainnetReplica.acrossApiUrl,
        ...cosmosEnv,
      },
      appEnv: {
        ...options.appEnv,
        'quote-service': { ...thornode, ...options.appEnv?.['quote-service'] },
        'execution-planner': { ...thornode, ...options.appEnv?.['execution-planner'] },
        'signer-surface': {
          RELAYER_KEYS: JSON.stringify(devnetRelayerKeys(DEVNET_MNEMONIC, evmIds)),
          SOLANA_FEE_PAYER_KEYS: JSON.stringify(devnetSolanaFeePayerKeys('solana')),
          // The replica's fee wallets on `bitcoin`: mainnet keys m/84'/0'/1'/0/<index> of the test mnemonic.
          BITCOIN_FEE_WALLET_KEYS: JSON.stringify(
            devnetBitcoinFeeWalletKeys(bitcoin.id, DEVNET_MNEMONIC, bitcoin.feeWallets, 'mainnet'),
          ),
          COSMOS_FEE_GRANTER_KEYS: JSON.stringify(devnetCosmosFeeGranterKeys(cosmosChains, DEVNET_MNEMONIC)),
          ...options.appEnv?.['signer-surface'],
        },
      },
    });
    if (stack.gatewayUrl === undefined) {
      await stack.stop();
      throw new Error('the replica stack started no gateway');
    }
    gatewayUrl = stack.gatewayUrl;
  } catch (error) {
    await Promise.allSettled([broker.stop(), replica.stop()]);
    await dropDatabase(databaseUrl.toString());
    throw error;
  }
  const apiKey = await createApiKey(`${label}-${randomBytes(3).toString('hex')}`, {
    ...testEnv().env,
    DATABASE_URL: databaseUrl.toString(),
  });
  const providers = new Map<string, JsonRpcProvider>();
  const provider = (chain: string) => {
    let cached = providers.get(chain);
    if (!cached) {
      const { rpcUrl, chainId } = rpcOf(chain);
      cached = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true, cacheTimeout: -1 });
      providers.set(chain, cached);
    }
    return cached;
  };
  const tokenAddress = (chain: string, symbol: string) => {
    const token = REAL_NETWORK_CATALOG.find((e) => e.chain === chain)?.tokens.find(
      (t) => t.symbol === symbol,
    );
    if (!token) throw new Error(`the catalog lists no ${symbol} on ${chain}`);
    return token.address;
  };
  const account = (index: number, chain: string) =>
    devnetWallet(DEVNET_MNEMONIC, index).connect(provider(chain)) as unknown as Wallet;
  const balanceOf = async (chain: string, symbol: string, holder: string) =>
    (await new Contract(tokenAddress(chain, symbol), ERC20, provider(chain)).getFunction('balanceOf')(
      holder,
    )) as bigint;
  return {
    replica,
    stack,
    client: api(gatewayUrl, apiKey),
    gatewayUrl,
    apiKey,
    cosmosChain,
    provider,
    tokenAddress,
    balanceOf,
    ethOf: (chain, holder) => provider(chain).getBalance(holder),
    account,
    async freshWalletWith(chain, symbol, amount) {
      const wallet = Wallet.createRandom() as unknown as Wallet;
      const token = new Contract(tokenAddress(chain, symbol), ERC20, account(9, chain));
      await (await token.getFunction('transfer')(wallet.address, amount)).wait();
      return wallet;
    },
    async stop() {
      await stack.stop();
      for (const cached of providers.values()) cached.destroy();
      await Promise.allSettled([broker.stop(), replica.stop()]);
      await dropDatabase(databaseUrl.toString());
    },
  };
}
