import { randomUUID } from 'node:crypto';
import { withDatabase } from '@swapgw/persistence';
import { testEnv, UpgradedStepDatabase } from '@swapgw/testing';
import { plannerDatabaseOptions } from '../database/planner-database';
import { CheckStepFamilyShape1765700000000 } from './1765700000000-check-step-family-shape';

const STEPS = '"planner"."swap_steps"';
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * The planner's CheckStepFamilyShape migration: `swap_steps.spec` takes a step family the list did
 * not name (a new chain family's) as long as it is shaped as one, and refuses a spec without one;
 * reverted, the list is back and a new family's rows are gone.
 */
describe('planner migration CheckStepFamilyShape1765700000000 (swap_steps_spec_family)', () => {
  const database = new UpgradedStepDatabase(
    plannerDatabaseOptions(
      withDatabase(testEnv().databaseUrl, `swapgw_int_planner_family_shape_${process.pid}`),
      2,
    ),
    CheckStepFamilyShape1765700000000,
  );
  const swapId = randomUUID();
  let nextIndex = 1;
  const insertStep = (spec: unknown) => {
    const index = nextIndex++;
    return database.client.query(
      `INSERT INTO ${STEPS} ("id", "swap_id", "step_index", "leg_index", "kind", "chain", "signer", "spec",
         "status", "updated_at_ms")
       VALUES ($1, $2, $3, 0, 'swap', 'devnet-a', $4, $5, 'pending', 0)`,
      [`${swapId}:${index}`, swapId, index, USER, JSON.stringify(spec)],
    );
  };
  const familiesStored = async () =>
    (
      await database.client.query(
        `SELECT "spec"->>'family' AS "family" FROM ${STEPS} WHERE "swap_id" = $1 ORDER BY "step_index"`,
        [swapId],
      )
    ).rows.map((row: { family: string }) => row.family);

  beforeAll(async () => {
    await database.migrateToBefore();
    const now = Date.now();
    await database.client.query(
      `INSERT INTO "planner"."swaps" ("id", "owner", "quote_id", "route_id", "user_address", "from_chain",
         "to_chain", "status", "current_step", "step_count", "request_fingerprint", "created_at_ms",
         "updated_at_ms", "expires_at_ms")
       VALUES ($1, 'alice', 'q-1', 'r-1', $2, 'devnet-a', 'devnet-b', 'awaiting_signature', 1, 9, 'fp', $3, $3, $4)`,
      [swapId, USER, now, now + 600_000],
    );
  });

  afterAll(() => database.close());

  it('before: refuses a step family the list does not name', async () => {
    await insertStep({ family: 'cosmos-sign-direct', cosmos: { msgs: [] } });
    await expect(insertStep({ family: 'newchain-transaction', newchain: {} })).rejects.toThrow(
      /swap_steps_spec_family/,
    );
  });

  it("after: takes any family shaped as one, refuses a spec without one or a family that is no step family's name", async () => {
    await database.migrateUp();
    await insertStep({ family: 'newchain-transaction', newchain: {} });
    for (const spec of [{}, { family: 'Newchain Transaction' }, { family: 'newchain' }, { family: 7 }]) {
      await expect(insertStep(spec)).rejects.toThrow(/swap_steps_spec_family/);
    }
    expect(await familiesStored()).toEqual(['cosmos-sign-direct', 'newchain-transaction']);
  });

  it('reverted: the list is back, and a family it does not name is gone', async () => {
    await database.revertThroughMigration();
    expect(await familiesStored()).toEqual(['cosmos-sign-direct']);
    await expect(insertStep({ family: 'newchain-transaction', newchain: {} })).rejects.toThrow(
      /swap_steps_spec_family/,
    );
  });
});
