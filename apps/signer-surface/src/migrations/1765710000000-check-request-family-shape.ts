import { schemaOf } from '@swapgw/messaging';
import { checkStepFamilyList, checkStepFamilyShape, StepFamilyCheck } from '@swapgw/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two CHECKs stop naming families (issue 45, point 5: a new chain family needs no migration here):
 *  - `signing_requests.spec`'s family is checked for its shape, no longer against a list
 *    (@swapgw/persistence's STEP_FAMILY_SHAPE says why);
 *  - the sponsorship ledger's nonce CHECK names the purposes that carry a nonce, the EVM relayer's
 *    (its transactions are ordered by its account's nonce), instead of those that do not: every
 *    other fee account (Solana's fee payer, Bitcoin's fee wallet, Cosmos's fee granter, a new
 *    family's sponsor) writes its rows without one.
 */
export class CheckRequestFamilyShape1765710000000 implements MigrationInterface {
  name = 'CheckRequestFamilyShape1765710000000';

  async up(q: QueryRunner): Promise<void> {
    await checkStepFamilyShape(q, requestsOf(q));
    await replaceNonceCheck(q, `("nonce" IS NULL) = ("purpose" NOT IN (${sqlList(NONCE_PURPOSES)}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM ${ledgerOf(q)} WHERE "purpose" NOT IN (${sqlList([...NONCE_PURPOSES, ...PURPOSES_WITHOUT_NONCE])})`,
    );
    await replaceNonceCheck(q, `("nonce" IS NULL) = ("purpose" IN (${sqlList(PURPOSES_WITHOUT_NONCE)}))`);
    await checkStepFamilyList(q, requestsOf(q));
  }
}

/** The EVM relayer's purposes (FAMILY_SPONSORSHIP.evm's when this was written): its rows carry a nonce. */
const NONCE_PURPOSES = ['gas-drop', 'permit', 'intent', 'nonce-fill'];

/** The purposes without a nonce the CHECK listed before (the down migration's). */
const PURPOSES_WITHOUT_NONCE = [
  'solana-transaction',
  'bitcoin-transaction',
  'bitcoin-fee-bump',
  'cosmos-transaction',
  'cosmos-fee-grant',
];

const NONCE_CHECK = 'sponsored_transactions_nonce_unless_fee_payer';

const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

const requestsOf = (q: QueryRunner): StepFamilyCheck => ({
  table: `"${schemaOf(q.connection)}"."signing_requests"`,
  constraint: 'signing_requests_spec_family',
});

const ledgerOf = (q: QueryRunner) => `"${schemaOf(q.connection)}"."sponsored_transactions"`;

async function replaceNonceCheck(q: QueryRunner, check: string): Promise<void> {
  await q.query(`ALTER TABLE ${ledgerOf(q)} DROP CONSTRAINT "${NONCE_CHECK}"`);
  await q.query(`ALTER TABLE ${ledgerOf(q)} ADD CONSTRAINT "${NONCE_CHECK}" CHECK (${check})`);
}
