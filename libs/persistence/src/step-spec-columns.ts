import type { QueryRunner } from 'typeorm';

/**
 * The per-field jsonb columns a signing step was stored in before issue 32 (one per field of any
 * kind of step, null where the step has none), with the key each one is in the step's `spec`.
 * Written out here rather than read from @swapgw/contracts: a migration must keep doing what it did
 * when the union grows.
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

/** A column holds a value: neither SQL NULL nor a JSON null. */
const present = (column: string): string =>
  `("${column}" IS NOT NULL AND jsonb_typeof("${column}") <> 'null')`;

/**
 * The family of a row as signingStepFamilyOf tells it from its fields: a Bitcoin or Solana spec,
 * typed data when the sponsorship is a permit or an intent, else an EVM transaction.
 */
const FAMILY_OF_COLUMNS = `CASE
  WHEN ${present('bitcoin')} THEN 'bitcoin-psbt'
  WHEN ${present('solana')} THEN 'solana-transaction'
  WHEN ${present('sponsored')} AND "sponsored"->>'mode' IN ('eip2612-permit', 'permit2-intent') THEN 'evm-typed-data'
  ELSE 'evm-transaction'
END`;

/**
 * The `spec` of a row stored the old way: `{ family, ...every field the row has }`. Each field's
 * value is copied as it is (a waitFor's `token` may be a legitimate null), a field the row does not
 * have is left out.
 */
const SPEC_OF_COLUMNS = [
  `jsonb_build_object('family', ${FAMILY_OF_COLUMNS})`,
  ...STEP_FIELD_COLUMNS.map(
    ([column, key]) =>
      `CASE WHEN ${present(column)} THEN jsonb_build_object('${key}', "${column}") ELSE '{}'::jsonb END`,
  ),
].join('\n  || ');

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
  await q.query(`UPDATE ${table} SET "spec" = ${SPEC_OF_COLUMNS}`);
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
