import type { QueryRunner } from 'typeorm';

/**
 * What a stored step's `spec.family` may be. Since issue 45 (point 5) the CHECK is on the name's
 * shape, not on a list: which step families exist is @swapgw/contracts' SIGNING_STEP_VARIANTS, and
 * every write and read of `spec` goes through it (a family it does not know is refused before SQL
 * and on reading), so a list in SQL only repeated the code and made each new family a migration in
 * each service. The shape keeps what the column must hold: a step tagged by a family named as the
 * wire names them, `<chain family>-<kind of payload>` (`evm-transaction`, `cosmos-sign-direct`).
 */
export const STEP_FAMILY_SHAPE = '^[a-z][a-z0-9]*(-[a-z0-9]+)+$';

/** The step families a list CHECK named before issue 45 (the down migration's). */
export const LISTED_STEP_FAMILIES = [
  'evm-transaction',
  'evm-typed-data',
  'solana-transaction',
  'bitcoin-psbt',
  'cosmos-sign-direct',
] as const;

/** Where a stored step's family is checked: the table (schema-qualified, quoted) and its CHECK's name. */
export interface StepFamilyCheck {
  table: string;
  constraint: string;
}

/** Replaces the CHECK listing the step families by the CHECK of the family's shape (STEP_FAMILY_SHAPE). */
export async function checkStepFamilyShape(q: QueryRunner, where: StepFamilyCheck): Promise<void> {
  await q.query(`ALTER TABLE ${where.table} DROP CONSTRAINT "${where.constraint}"`);
  await q.query(
    `ALTER TABLE ${where.table} ADD CONSTRAINT "${where.constraint}"
       CHECK ("spec"->>'family' IS NOT NULL AND "spec"->>'family' ~ '${STEP_FAMILY_SHAPE}')`,
  );
}

/**
 * Back to the CHECK listing LISTED_STEP_FAMILIES; rows of a family the list does not name are
 * deleted first (as the migrations adding a family delete its rows on the way down).
 */
export async function checkStepFamilyList(q: QueryRunner, where: StepFamilyCheck): Promise<void> {
  const listed = LISTED_STEP_FAMILIES.map((family) => `'${family}'`).join(', ');
  await q.query(`DELETE FROM ${where.table} WHERE NOT ("spec"->>'family' IN (${listed}))`);
  await q.query(`ALTER TABLE ${where.table} DROP CONSTRAINT "${where.constraint}"`);
  await q.query(
    `ALTER TABLE ${where.table} ADD CONSTRAINT "${where.constraint}" CHECK ("spec"->>'family' IN (${listed}))`,
  );
}
