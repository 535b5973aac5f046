// Test support for the relaying integration specs: one anvil chain and a schema of its own in the
// test run's PostgreSQL, and signer-surface "nodes" over them (each its own DataSource, providers,
// relayer pool, Relayers and tracker: one signer-surface instance each).
import { Clock, SystemClock } from '@swapgw/runtime';
import { DEFAULT_RELAYER_GAS_EXTRA } from '@swapgw/chains';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { HDNodeWallet } from 'ethers';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, FindOptionsWhere } from 'typeorm';
import { SignerChains } from '../src/chains/signer-chains';
import { signerDatabaseOptions } from '../src/database/signer-database';
import {
  RelayedTrackingPolicy,
  RelayedTransactionTracker,
} from '../src/sponsorship/tracking/relayed-transaction-tracker';
import { TrackedRows } from '../src/sponsorship/tracking/tracked-rows';
import { EvmRelayedTracking } from '../src/families/evm/evm-relayed-tracking';
import { RelayerKeySet } from '../src/sponsorship/relayer-keys';
import { RelayerPool } from '../src/families/evm/relayer-pool';
import { Relayers, RelayersPolicy } from '../src/families/evm/relayers';
import { SponsoredTransactionEntity } from '../src/sponsorship/sponsored-transaction.entity';
import { WeiByChain } from '../src/sponsorship/wei-settings';
import { relayersOn, relayingRepositoriesOf } from './relaying-repositories';
import { registryOf, startTestChain, TestChain } from './signer-test-chain';

export const ETH = 10n ** 18n;

/** The relayers' policy of the specs: signer-surface's defaults, no absolute fee cap. */
export const TEST_RELAYERS_POLICY: RelayersPolicy = {
  gasLimitPercent: 120,
  gasLimitExtra: DEFAULT_RELAYER_GAS_EXTRA,
  feeCeilingPercent: 300,
  maxFeePerGas: new WeiByChain(2n ** 256n - 1n),
};

export interface RelayingNode {
  dataSource: DataSource;
  chains: SignerChains;
  pool: RelayerPool;
  relayers: Relayers;
  tracker: RelayedTransactionTracker;
}

export interface RelayingNodeOptions {
  tracking?: Partial<RelayedTrackingPolicy>;
  policy?: Partial<RelayersPolicy>;
  now?: Clock;
}

export class RelayingTestBench {
  private readonly dataSources: DataSource[] = [];
  private readonly signerChains: SignerChains[] = [];

  private constructor(
    readonly chainName: string,
    readonly chain: TestChain,
    private readonly databaseUrl: string,
    readonly schema: string,
    private readonly tracking: RelayedTrackingPolicy,
  ) {}

  /** A fresh chain named `chainName` and a fresh, migrated signer schema. */
  static async start(chainName: string, tracking: RelayedTrackingPolicy): Promise<RelayingTestBench> {
    const chain = await startTestChain(chainName);
    const databaseUrl = testEnv().databaseUrl;
    const schema = `signer_${chainName.replace(/-/g, '_')}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    await prepareDatabase(signerDatabaseOptions(databaseUrl, 1, schema));
    return new RelayingTestBench(chainName, chain, databaseUrl, schema, tracking);
  }

  /** One signer-surface's relaying over `wallets` (the relayer keys of the chain). */
  async node(wallets: HDNodeWallet[], options: RelayingNodeOptions = {}): Promise<RelayingNode> {
    const dataSource = new DataSource(
      serviceDataSourceOptions(signerDatabaseOptions(this.databaseUrl, 5, this.schema)),
    );
    await dataSource.initialize();
    this.dataSources.push(dataSource);
    const chains = new SignerChains(
      registryOf([{ id: this.chainName, chainId: this.chain.chainId, rpcUrl: this.chain.rpcUrl }]),
      5_000,
    );
    this.signerChains.push(chains);
    const pool = new RelayerPool(
      new RelayerKeySet(new Map([[this.chainName, wallets.map((w) => w.privateKey)]])),
      chains,
      new WeiByChain(ETH),
    );
    const now = options.now ?? new SystemClock();
    const ledger = relayingRepositoriesOf(dataSource).transactions;
    const relayers = relayersOn(
      dataSource,
      chains,
      pool,
      { ...TEST_RELAYERS_POLICY, ...options.policy },
      now,
    );
    const rows = new TrackedRows(ledger, { ...this.tracking, ...options.tracking }, now);
    const tracker = new RelayedTransactionTracker(rows, [
      new EvmRelayedTracking(chains, pool, relayers, rows),
    ]);
    return { dataSource, chains, pool, relayers, tracker };
  }

  /** The ledger's rows matching `where`, by relayer and nonce. */
  ledger(
    dataSource: DataSource,
    where: FindOptionsWhere<SponsoredTransactionEntity> = {},
  ): Promise<SponsoredTransactionEntity[]> {
    return dataSource.manager.find(SponsoredTransactionEntity, {
      where,
      order: { relayer: 'ASC', nonce: 'ASC', createdAt: 'ASC' },
    });
  }

  rpc(method: string, params: unknown[] = []): Promise<unknown> {
    return this.chain.provider.send(method, params);
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.dataSources.map((ds) => ds.destroy()));
    for (const chains of this.signerChains) chains.destroy();
    await this.chain.stop();
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
    } finally {
      await client.end();
    }
  }
}
