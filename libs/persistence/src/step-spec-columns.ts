import { signingStepOf } from '@swapgw/contracts';
import type { QueryRunner } from 'typeorm';

/**
 * The per-field jsonb columns a signing step was stored in before issue 32 (one per field of any
 * kind of step, null where the step has none), with the key each one is in the step's `spec`:
 * the fields a version-1 `signing.prepare` carried flat.
 */
const STEP_FIELD_COLUMNS = [
  ['call', 'call'],
  ['solana', 'solana'],
  ['bitcoin', 'bitcoin'],
  ['approve', 'approve'],
  ['wait_for', 'waitFor'],
  ['sponsored', 'sponsored'],
] as const;

/** The step families the `spec` column holds (SIGNING_STEP_FAMILIES when it was written). */
const STEP_FAMILIES = ['evm-transaction', 'evm-typed-data', 'solana-transaction', 'bitcoin-psbt'];

/** Rows given their `spec` per statement while the columns move into it. */
const SPEC_BATCH = 500;

/**
 * Gives every row still without a `spec` the step its columns describe. The step is made by
 * @swapgw/contracts' signingStepOf, the one place that reads a step's flat fields (version-1
 * commands are upcast with it too), frozen to what they were: which family the fields tell, which
 * fields the family keeps (a field's value copied as it is: a waitFor's `token` may be a legitimate
 * null; a column that is SQL NULL or a JSON null is no field).
 */
async function fillSpecsFromColumns(q: QueryRunner, table: string): Promise<void> {
  const columns = STEP_FIELD_COLUMNS.map(([column, key]) => `"${column}" AS "${key}"`).join(', ');
  for (;;) {
    const rows: ({ id: string } & Record<string, unknown>)[] = await q.query(
      `SELECT "id"::text AS "id", ${columns} FROM ${table} WHERE "spec" IS NULL LIMIT ${SPEC_BATCH}`,
    );
    if (rows.length === 0) return;
    const specs = rows.map(({ id, ...fields }) => ({ id, spec: signingStepOf(fields) }));
    await q.query(
      `UPDATE ${table} AS t SET "spec" = v."spec"
         FROM jsonb_to_recordset($1::jsonb) AS v("id" text, "spec" jsonb) WHERE t."id"::text = v."id"`,
      [JSON.stringify(specs)],
    );
  }
}

/** Where a step is stored: its table (schema-qualified, quoted) and the names of its constraints. */
export interface StepSpecTable {
  /** e.g. `"planner"."swap_steps"`. */
  table: string;
  /** The old CHECK that a row has one of call, solana, bitcoin or sponsored. */
  haveASpecConstraint: string;
  /** The new CHECK that the spec names a known family. */
  specFamilyConstraint: string;
}

/**
 * Up: the step's per-field columns become one `spec jsonb NOT NULL`, the step as its variant of
 * SigningStep, filled from the columns of the rows already there (steps in flight included).
 */
export async function moveStepFieldsIntoSpec(q: QueryRunner, where: StepSpecTable): Promise<void> {
  const { table } = where;
  await q.query(`ALTER TABLE ${table} ADD COLUMN "spec" jsonb`);
  await fillSpecsFromColumns(q, table);
  await q.query(`ALTER TABLE ${table} ALTER COLUMN "spec" SET NOT NULL`);
  await q.query(
    `ALTER TABLE ${table} ADD CONSTRAINT "${where.specFamilyConstraint}" CHECK ("spec"->>'family' IN (${STEP_FAMILIES.map((family) => `'${family}'`).join(', ')}))`,
  );
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "${where.haveASpecConstraint}"`);
  await q.query(
    `ALTER TABLE ${table} ${STEP_FIELD_COLUMNS.map(([column]) => `DROP COLUMN "${column}"`).join(', ')}`,
  );
}

/** Down: each field of `spec` back in its own nullable column, the old CHECK with them. */
export async function moveStepSpecIntoFields(q: QueryRunner, where: StepSpecTable): Promise<void> {
  const { table } = where;
  await q.query(
    `ALTER TABLE ${table} ${STEP_FIELD_COLUMNS.map(([column]) => `ADD COLUMN "${column}" jsonb`).join(', ')}`,
  );
  await q.query(
    `UPDATE ${table} SET ${STEP_FIELD_COLUMNS.map(([column, key]) => `"${column}" = "spec"->'${key}'`).join(', ')}`,
  );
  await q.query(
    `ALTER TABLE ${table} ADD CONSTRAINT "${where.haveASpecConstraint}" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "bitcoin" IS NOT NULL OR "sponsored" IS NOT NULL)`,
  );
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "${where.specFamilyConstraint}"`);
  await q.query(`ALTER TABLE ${table} DROP COLUMN "spec"`);
}
