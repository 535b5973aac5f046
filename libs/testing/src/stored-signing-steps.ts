import type {
  BitcoinStepSpec,
  SigningApproveSpec,
  SigningCall,
  SigningStepKind,
  SigningWaitForSpec,
  SolanaStepSpec,
  SponsoredStepSpec,
} from '@swapgw/contracts';
import {
  dropDatabase,
  pgClientConfig,
  prepareDatabase,
  revertLastMigration,
  ServiceDataSourceOptions,
  serviceDataSourceOptions,
} from '@swapgw/persistence';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/**
 * A signing step as the planner's `swap_steps` and the signer's `signing_requests` stored it before
 * issue 32: one nullable jsonb column per field of any kind of step (`waitFor` is `wait_for`).
 */
export interface StepFieldColumns {
  call: SigningCall | null;
  solana: SolanaStepSpec | null;
  bitcoin: BitcoinStepSpec | null;
  approve: SigningApproveSpec | null;
  waitFor: SigningWaitForSpec | null;
  sponsored: SponsoredStepSpec | null;
}

/** One step of every variant a swap signs, as it sat in the per-field columns. */
export interface StoredStepExample {
  name: string;
  kind: SigningStepKind;
  chain: string;
  from: string;
  columns: StepFieldColumns;
}

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const WETH = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const ROUTER = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const VENUE = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const SOLANA_USER = '7cVfgArCheMR6Cs4t6vz5rfnqd56vZq4ndaBrY5xkxXy';
const SOLANA_MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const SOLANA_VAULT = 'GvDMxPzN1sCj7L26YDK2HnMRXEQmQ2aemov8YBtPS7vR';
const SOLANA_FEE_RECIPIENT = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const BITCOIN_USER = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
const BITCOIN_VAULT = 'bcrt1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qzf7n0e';

const none: StepFieldColumns = {
  call: null,
  solana: null,
  bitcoin: null,
  approve: null,
  waitFor: null,
  sponsored: null,
};
const approveCall: SigningCall = {
  to: USDC,
  data: '0x095ea7b30000000000000000000000009fe46736679d2d9a65f0992f2272de9f3c7fa6e000000000000000000000000000000000000000000000000000000000001e8480',
  value: '0',
};
const swapCall: SigningCall = { to: ROUTER, data: '0x38ed1739', value: '0' };

/**
 * Every variant of SigningStep as the old columns held it: user-paid and sponsored EVM transactions
 * (with an approve, with a waitFor on the native coin: a `token` that is a legitimate null), typed
 * data (EIP-2612 permit, Permit2 intent), Solana deposits and prebuilt transactions, a Bitcoin PSBT.
 */
export const STORED_STEP_EXAMPLES: readonly StoredStepExample[] = [
  {
    name: 'a user-paid approve',
    kind: 'approve',
    chain: 'devnet-a',
    from: USER,
    columns: { ...none, call: approveCall, approve: { token: USDC, spender: ROUTER, amount: '2000000' } },
  },
  {
    name: 'a user-paid swap waiting for the native coin',
    kind: 'swap',
    chain: 'devnet-b',
    from: USER,
    columns: {
      ...none,
      call: { to: ROUTER, data: '0x7ff36ab5', value: '1000000000000000' },
      waitFor: { token: null, holder: USER, minBalance: '1000000000000000' },
    },
  },
  {
    name: 'a covered transaction',
    kind: 'swap',
    chain: 'devnet-a',
    from: USER,
    columns: { ...none, call: swapCall, sponsored: { mode: 'covered-transaction' } },
  },
  {
    name: 'an approve signed as an EIP-2612 permit',
    kind: 'approve',
    chain: 'devnet-a',
    from: USER,
    columns: {
      ...none,
      approve: { token: USDC, spender: PERMIT2, amount: '2000000' },
      sponsored: {
        mode: 'eip2612-permit',
        permit: { token: USDC, tokenName: 'USD Coin', version: '2', spender: PERMIT2, value: '2000000' },
      },
    },
  },
  {
    name: 'a Permit2 intent after a bridge',
    kind: 'swap',
    chain: 'devnet-b',
    from: USER,
    columns: {
      ...none,
      waitFor: { token: USDC, holder: USER, minBalance: '1990000' },
      sponsored: {
        mode: 'permit2-intent',
        intent: {
          kind: 'swap',
          permit2: PERMIT2,
          router: ROUTER,
          token: USDC,
          amount: '1990000',
          venue: VENUE,
          path: [USDC, WETH],
          amountOutMin: '650000000000000',
          recipient: USER,
          deadline: 1_893_456_000,
        },
      },
    },
  },
  {
    name: 'a sponsored Solana bridge deposit carrying a swap and a fee',
    kind: 'bridge',
    chain: 'solana-devnet',
    from: SOLANA_USER,
    columns: {
      ...none,
      solana: {
        kind: 'bridge-deposit',
        mint: SOLANA_MINT,
        vault: SOLANA_VAULT,
        amount: '5000000',
        destinationChainId: 31337,
        recipient: ROUTER,
        message: {
          venue: VENUE,
          path: [USDC, WETH],
          amountOutMin: '1600000000000000',
          recipient: USER,
          unwrapNative: true,
          deadline: 1_893_456_000,
        },
        integratorFees: [{ recipient: SOLANA_FEE_RECIPIENT, amount: '25000' }],
      },
      sponsored: { mode: 'solana-fee-payer' },
    },
  },
  {
    name: 'a prebuilt Solana transaction',
    kind: 'swap',
    chain: 'solana-devnet',
    from: SOLANA_USER,
    columns: {
      ...none,
      solana: {
        kind: 'prebuilt-transaction',
        serializedTransaction:
          'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
        lastValidBlockHeight: 48_211,
      },
    },
  },
  {
    name: 'a sponsored Bitcoin deposit',
    kind: 'bridge',
    chain: 'bitcoin-regtest',
    from: BITCOIN_USER,
    columns: {
      ...none,
      bitcoin: {
        kind: 'bridge-deposit',
        vault: BITCOIN_VAULT,
        signerPublicKey: '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
        amount: '150000',
        memo: `=:ETH.ETH:${USER}:0`,
      },
      sponsored: { mode: 'bitcoin-fee-wallet' },
    },
  },
];

/** The old columns' values in their order (`call`, `solana`, `bitcoin`, `approve`, `wait_for`, `sponsored`), as SQL parameters. */
export const stepFieldParameters = (columns: StepFieldColumns): (string | null)[] =>
  [columns.call, columns.solana, columns.bitcoin, columns.approve, columns.waitFor, columns.sponsored].map(
    (value) => (value === null ? null : JSON.stringify(value)),
  );

/** The SQL list of the old columns, in stepFieldParameters' order. */
export const STEP_FIELD_COLUMN_LIST = '"call", "solana", "bitcoin", "approve", "wait_for", "sponsored"';

/**
 * A service's database kept across the upgrade that moves steps into `spec`: migrated to just before
 * `migration`, filled the old way, then migrated up, reverted and up again, read between.
 */
export class UpgradedStepDatabase {
  private connected: Client | null = null;

  constructor(
    private readonly options: ServiceDataSourceOptions,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    private readonly migration: Function,
  ) {}

  /** A client of its own, for what the test writes and reads as SQL. */
  get client(): Client {
    if (!this.connected) throw new Error('migrateToBefore() first');
    return this.connected;
  }

  async migrateToBefore(): Promise<void> {
    const migrations = this.options.migrations as unknown[];
    const index = migrations.indexOf(this.migration);
    if (index < 0) throw new Error(`${this.migration.name} is not one of the service's migrations`);
    await prepareDatabase({ ...this.options, migrations: migrations.slice(0, index) as never });
    this.connected = new Client(pgClientConfig(this.options.url));
    await this.connected.connect();
  }

  /** Every migration, as the service runs them at boot. */
  migrateUp(): Promise<void> {
    return prepareDatabase(this.options);
  }

  /** Reverts the migrations after `migration`, newest first, then `migration` itself. */
  async revertThroughMigration(): Promise<void> {
    const migrations = this.options.migrations as unknown[];
    const count = migrations.length - migrations.indexOf(this.migration);
    for (let reverted = 0; reverted < count; reverted++) await revertLastMigration(this.options);
  }

  /** The service's own DataSource (its entities), to read through its repositories. */
  openDataSource(): Promise<DataSource> {
    return new DataSource(serviceDataSourceOptions(this.options)).initialize();
  }

  async close(): Promise<void> {
    await this.connected?.end();
    await dropDatabase(this.options.url);
  }

  /** The old columns of `swapId`'s rows in `table`, in step order. */
  async stepColumnsOf(table: string, swapId: string): Promise<StepFieldColumns[]> {
    const { rows } = await this.client.query(
      `SELECT ${STEP_FIELD_COLUMN_LIST} FROM ${table} WHERE "swap_id" = $1 ORDER BY "step_index"`,
      [swapId],
    );
    return rows.map((row: Record<string, unknown>) => ({
      call: row.call as SigningCall | null,
      solana: row.solana as SolanaStepSpec | null,
      bitcoin: row.bitcoin as BitcoinStepSpec | null,
      approve: row.approve as SigningApproveSpec | null,
      waitFor: row.wait_for as SigningWaitForSpec | null,
      sponsored: row.sponsored as SponsoredStepSpec | null,
    }));
  }

  /** The `spec` of `swapId`'s rows in `table`, in step order, as stored. */
  async stepSpecsOf(table: string, swapId: string): Promise<unknown[]> {
    const { rows } = await this.client.query(
      `SELECT "spec" FROM ${table} WHERE "swap_id" = $1 ORDER BY "step_index"`,
      [swapId],
    );
    return rows.map((row: { spec: unknown }) => row.spec);
  }
}
