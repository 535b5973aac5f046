import { randomUUID } from 'node:crypto';
import { SigningPrepareCommand, signingStepOf } from '@swapgw/contracts';
import { createEnvelope, Outbox, parsePayload } from '@swapgw/messaging';
import { withDatabase } from '@swapgw/persistence';
import {
  STEP_FIELD_COLUMN_LIST,
  stepFieldParameters,
  STORED_STEP_EXAMPLES,
  testEnv,
  UpgradedStepDatabase,
} from '@swapgw/testing';
import { SystemClock } from '@swapgw/runtime';
import { plannerDatabaseOptions } from '../database/planner-database';
import { prepareCommandOf } from '../swaps/swap-messages';
import { TypeOrmSwapRepository } from '../swaps/swap.repository';
import { StoreStepSpecs1765000000000 } from './1765000000000-store-step-specs';

const STEPS = '"planner"."swap_steps"';

/** Where each example step is in its swap's life when the planner restarts on the new version. */
const LIFECYCLE = [
  { status: 'confirmed', txHash: '0x' + 'a1'.repeat(32), signingRequestId: randomUUID() },
  { status: 'skipped', txHash: null, signingRequestId: randomUUID() },
  { status: 'submitted', txHash: '0x' + 'b2'.repeat(32), signingRequestId: randomUUID() },
  { status: 'ready', txHash: null, signingRequestId: randomUUID() },
  { status: 'building', txHash: null, signingRequestId: null },
  { status: 'pending', txHash: null, signingRequestId: null },
] as const;
const lifecycleOf = (index: number) => LIFECYCLE[Math.min(index, LIFECYCLE.length - 1)];

/**
 * The planner's StoreStepSpecs migration on a database kept across the upgrade: steps written the
 * old way (a nullable column per field) read back through the repository as their variant of
 * SigningStep, and the columns come back as they were when it is reverted.
 */
describe('planner migration StoreStepSpecs1765000000000 (swap_steps.spec)', () => {
  const database = new UpgradedStepDatabase(
    plannerDatabaseOptions(
      withDatabase(testEnv().databaseUrl, `swapgw_int_planner_step_specs_${process.pid}`),
      2,
    ),
    StoreStepSpecs1765000000000,
  );
  const swapId = randomUUID();
  const stepIdOf = (index: number) => `${swapId}:${index + 1}`;

  beforeAll(async () => {
    await database.migrateToBefore();
    const now = Date.now();
    await database.client.query(
      `INSERT INTO "planner"."swaps" ("id", "owner", "quote_id", "route_id", "user_address", "from_chain",
         "to_chain", "status", "current_step", "step_count", "request_fingerprint", "created_at_ms",
         "updated_at_ms", "expires_at_ms")
       VALUES ($1, 'alice', 'q-1', 'r-1', $2, 'devnet-a', 'devnet-b', 'awaiting_signature', 4, $3, 'fp', $4, $4, $5)`,
      [swapId, STORED_STEP_EXAMPLES[0].from, STORED_STEP_EXAMPLES.length, now, now + 600_000],
    );
    for (const [index, example] of STORED_STEP_EXAMPLES.entries()) {
      const lifecycle = lifecycleOf(index);
      await database.client.query(
        `INSERT INTO ${STEPS} ("id", "swap_id", "step_index", "leg_index", "kind", "chain",
           "signer", ${STEP_FIELD_COLUMN_LIST}, "status", "signing_request_id", "tx_hash", "updated_at_ms")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          stepIdOf(index),
          swapId,
          index + 1,
          index,
          example.kind,
          example.chain,
          example.from,
          ...stepFieldParameters(example.columns),
          lifecycle.status,
          lifecycle.signingRequestId,
          lifecycle.txHash,
          now,
        ],
      );
    }
  });

  afterAll(() => database.close());

  it('reads every step back as the variant its columns described, its lifecycle untouched, its command the one the signer accepts', async () => {
    await database.migrateUp();
    const dataSource = await database.openDataSource();
    try {
      const swaps = new TypeOrmSwapRepository(dataSource, new Outbox(new SystemClock()));
      const swap = (await swaps.findSwap(swapId))!;
      for (const [index, example] of STORED_STEP_EXAMPLES.entries()) {
        const step = await swaps.transaction((tx) => tx.getStep(stepIdOf(index)));
        const lifecycle = lifecycleOf(index);
        expect({ name: example.name, spec: step.spec }).toEqual({
          name: example.name,
          spec: signingStepOf(example.columns),
        });
        expect([step.kind, step.chain, step.signer, step.status, step.signingRequestId, step.txHash]).toEqual(
          [
            example.kind,
            example.chain,
            example.from,
            lifecycle.status,
            lifecycle.signingRequestId,
            lifecycle.txHash,
          ],
        );
        // The command an in-flight step is prepared with again: the variant signer-surface checks.
        const { type, aggregateId, payload, version } = prepareCommandOf(swap, step);
        const parsed = parsePayload(
          createEnvelope(
            type,
            aggregateId,
            payload as unknown as Record<string, unknown>,
            new SystemClock(),
            version,
          ),
          SigningPrepareCommand,
        );
        expect({ name: example.name, problems: parsed.ok ? [] : parsed.problems }).toEqual({
          name: example.name,
          problems: [],
        });
        expect(payload).toMatchObject({ step: signingStepOf(example.columns), from: example.from });
        expect(payload.owner).toBe(example.columns.sponsored ? 'alice' : undefined);
      }
    } finally {
      await dataSource.destroy();
    }
  });

  it('puts the columns back as they were when reverted, their constraint with them, and migrates up again', async () => {
    await database.revertThroughMigration();
    expect(await database.stepColumnsOf(STEPS, swapId)).toEqual(
      STORED_STEP_EXAMPLES.map((example) => example.columns),
    );
    await expect(
      database.client.query(
        `INSERT INTO ${STEPS} ("id", "swap_id", "step_index", "leg_index", "kind", "chain", "status", "updated_at_ms")
         VALUES ($1, $2, 99, 0, 'swap', 'devnet-a', 'pending', 0)`,
        [`${swapId}:99`, swapId],
      ),
    ).rejects.toThrow(/swap_steps_have_a_spec/);

    await database.migrateUp();
    expect(await database.stepSpecsOf(STEPS, swapId)).toEqual(
      STORED_STEP_EXAMPLES.map((example) => signingStepOf(example.columns)),
    );
  });
});
