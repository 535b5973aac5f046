import { randomUUID } from 'node:crypto';
import { signingStepOf } from '@swapgw/contracts';
import { withDatabase } from '@swapgw/persistence';
import {
  STEP_FIELD_COLUMN_LIST,
  stepFieldParameters,
  STORED_STEP_EXAMPLES,
  testEnv,
  UpgradedStepDatabase,
} from '@swapgw/testing';
import { signerDatabaseOptions } from '../database/signer-database';
import { payloadRequestOf } from '../signing/payload-kinds/sponsored-issue';
import { SigningRequestsRepository } from '../signing/signing-requests.repository';
import { StoreRequestSpecs1765010000000 } from './1765010000000-store-request-specs';

const REQUESTS = '"signer"."signing_requests"';

/** Where each example request is in its life when the signer restarts on the new version. */
const LIFECYCLE = [
  { status: 'confirmed', sent: true, gasDropId: null },
  { status: 'waiting', sent: false, gasDropId: null },
  { status: 'submitted', sent: true, gasDropId: randomUUID() },
  { status: 'ready', sent: false, gasDropId: null },
] as const;
const lifecycleOf = (index: number) => {
  const { status, sent, gasDropId } = LIFECYCLE[index % LIFECYCLE.length];
  const txHash = sent ? '0x' + (index + 1).toString(16).padStart(64, '0') : null;
  return { status, gasDropId, txHash, rawTx: sent ? `0x02f8${index}` : null };
};

/**
 * The signer's StoreRequestSpecs migration on a database kept across the upgrade: requests written
 * the old way (a nullable column per field), in flight or done, read back through the repository as
 * their variant of SigningStep and issued from the same spec as before; reverted, the columns come
 * back as they were.
 */
describe('signer migration StoreRequestSpecs1765010000000 (signing_requests.spec)', () => {
  const database = new UpgradedStepDatabase(
    signerDatabaseOptions(
      withDatabase(testEnv().databaseUrl, `swapgw_int_signer_request_specs_${process.pid}`),
      2,
    ),
    StoreRequestSpecs1765010000000,
  );
  const swapId = randomUUID();
  const stepIdOf = (index: number) => `${swapId}:${index + 1}`;

  beforeAll(async () => {
    await database.migrateToBefore();
    for (const [index, example] of STORED_STEP_EXAMPLES.entries()) {
      const lifecycle = lifecycleOf(index);
      await database.client.query(
        `INSERT INTO ${REQUESTS} ("id", "swap_id", "step_id", "step_index", "step_count", "chain", "kind",
           "from", ${STEP_FIELD_COLUMN_LIST}, "owner", "gas_drop_id", "status", "tx_hash", "raw_tx")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'alice', $15, $16, $17, $18)`,
        [
          randomUUID(),
          swapId,
          stepIdOf(index),
          index + 1,
          STORED_STEP_EXAMPLES.length,
          example.chain,
          example.kind,
          example.from,
          ...stepFieldParameters(example.columns),
          lifecycle.gasDropId,
          lifecycle.status,
          lifecycle.txHash,
          lifecycle.rawTx,
        ],
      );
    }
  });

  afterAll(() => database.close());

  it('reads every request back as the variant its columns described, its lifecycle untouched, asking its family for the same payload', async () => {
    await database.migrateUp();
    const dataSource = await database.openDataSource();
    try {
      const requests = new SigningRequestsRepository();
      for (const [index, example] of STORED_STEP_EXAMPLES.entries()) {
        const row = (await requests.liveRequestOfStep(dataSource.manager, swapId, stepIdOf(index)))!;
        const lifecycle = lifecycleOf(index);
        expect({ name: example.name, spec: row.spec }).toEqual({
          name: example.name,
          spec: signingStepOf(example.columns),
        });
        expect([row.kind, row.from, row.owner, row.status, row.txHash, row.rawTx, row.gasDropId]).toEqual([
          example.kind,
          example.from,
          'alice',
          lifecycle.status,
          lifecycle.txHash,
          lifecycle.rawTx,
          lifecycle.gasDropId,
        ]);
        // What the chain's family builds the payload from is what the old columns gave it (no
        // Cosmos step predates the spec column).
        const { call, solana, bitcoin } = example.columns;
        expect(payloadRequestOf(row)).toEqual({ from: example.from, call, solana, bitcoin, cosmos: null });
      }
    } finally {
      await dataSource.destroy();
    }
  });

  it('puts the columns back as they were when reverted, their constraint with them, and migrates up again', async () => {
    await database.revertThroughMigration();
    expect(await database.stepColumnsOf(REQUESTS, swapId)).toEqual(
      STORED_STEP_EXAMPLES.map((example) => example.columns),
    );
    await expect(
      database.client.query(
        `INSERT INTO ${REQUESTS} ("id", "swap_id", "step_id", "step_index", "step_count", "chain", "kind", "from", "status")
         VALUES ($1, $2, 'x:1', 1, 1, 'devnet-a', 'swap', '0x0', 'waiting')`,
        [randomUUID(), randomUUID()],
      ),
    ).rejects.toThrow(/signing_requests_have_a_spec/);

    await database.migrateUp();
    expect(await database.stepSpecsOf(REQUESTS, swapId)).toEqual(
      STORED_STEP_EXAMPLES.map((example) => signingStepOf(example.columns)),
    );
  });
});
