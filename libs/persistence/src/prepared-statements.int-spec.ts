import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { statementNames } from './prepared-statements';
import { oneConnectionDataSource } from './persistence-test-support';
import { transactionStartingWith } from './transaction-starting-with';

describe('prepared statements of a service DataSource (PostgreSQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await oneConnectionDataSource();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** The session's prepared statements (the pool has one connection, so always the same session). */
  const prepared = async () =>
    (
      (await dataSource.query('SELECT "statement" FROM pg_prepared_statements')) as Array<{
        statement: string;
      }>
    ).map((row) => row.statement);

  it('prepares a repeated parameterised statement once on the connection and answers it as before', async () => {
    const text = `SELECT $1::int + 1 AS "next" /* ${randomBytes(4).toString('hex')} */`;
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [row] = (await dataSource.query(text, [i])) as Array<{ next: number }>;
      answers.push(row.next);
    }

    expect(answers).toEqual([1, 2, 3, 4, 5]);
    expect(statementNames.nameOf(text)).toMatch(/^swapgw_\d+$/);
    expect((await prepared()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('leaves statements without parameters unprepared, several in one message included', async () => {
    const text = `SELECT 1 AS "one" /* ${randomBytes(4).toString('hex')} */`;
    for (let i = 0; i < 5; i++) await dataSource.query(text);
    await transactionStartingWith(dataSource, text, async () => undefined);

    expect((await prepared()).some((statement) => statement.includes(text))).toBe(false);
  });

  it('prepares afresh a statement whose result columns a migration changed: at once on its own, after one failure in a transaction', async () => {
    const table = `prepared_${randomBytes(4).toString('hex')}`;
    await dataSource.query(`CREATE TABLE "public"."${table}" ("id" int PRIMARY KEY)`);
    try {
      await dataSource.query(`INSERT INTO "public"."${table}" ("id") VALUES (1)`);
      const byId = `SELECT * FROM "public"."${table}" WHERE "id" = $1`;
      const inTransaction = `SELECT * FROM "public"."${table}" WHERE "id" >= $1`;
      for (let i = 0; i < 4; i++) {
        expect(await dataSource.query(byId, [1])).toEqual([{ id: 1 }]);
        expect(await dataSource.query(inTransaction, [1])).toEqual([{ id: 1 }]);
      }

      await dataSource.query(`ALTER TABLE "public"."${table}" ADD COLUMN "note" text`);

      // On its own: sent again, unnamed, and answered with the new column.
      expect(await dataSource.query(byId, [1])).toEqual([{ id: 1, note: null }]);
      // In a transaction: that transaction fails; the next one works.
      await expect(
        dataSource.transaction((manager) => manager.query(inTransaction, [1])),
      ).rejects.toMatchObject({
        driverError: { code: '0A000' },
      });
      for (let i = 0; i < 4; i++) {
        expect(await dataSource.transaction((manager) => manager.query(inTransaction, [1]))).toEqual([
          { id: 1, note: null },
        ]);
        expect(await dataSource.query(byId, [1])).toEqual([{ id: 1, note: null }]);
      }
    } finally {
      await dataSource.query(`DROP TABLE "public"."${table}"`);
    }
  });

  it('runs a prepared statement inside a transaction and after a failed one on the same connection', async () => {
    const text = `SELECT $1::text AS "echo" /* ${randomBytes(4).toString('hex')} */`;
    for (let i = 0; i < 3; i++) await dataSource.query(text, ['warm']);
    await expect(dataSource.query('SELECT $1::int', ['not a number'])).rejects.toThrow();

    const echoed = await dataSource.transaction((manager) => manager.query(text, ['inside']));
    expect(echoed).toEqual([{ echo: 'inside' }]);
  });
});
