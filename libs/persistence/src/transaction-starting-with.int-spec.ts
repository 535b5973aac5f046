import { randomBytes } from 'node:crypto';
import { DataSource, QueryFailedError, type Logger as TypeOrmLogger } from 'typeorm';
import { ensureDatabase, ensureSchema } from './database-url';
import { serviceDataSourceOptions } from './service-data-source';
import { sqlLiteral, transactionStartingWith } from './transaction-starting-with';

const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/swapgw_dev_persistence';

describe('transactionStartingWith (PostgreSQL)', () => {
  const schema = `tx_first_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const sent: string[] = [];
  let dataSource: DataSource;

  /** Every query TypeORM itself sends (the two-statement message does not pass through it). */
  const logger: TypeOrmLogger = {
    logQuery: (query) => void sent.push(query),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    await ensureSchema(databaseUrl, schema);
    dataSource = new DataSource({
      ...serviceDataSourceOptions({ url: databaseUrl, schema, entities: [], migrations: [], poolSize: 1 }),
      logging: true,
      logger,
    });
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE "${schema}"."claims" ("id" text PRIMARY KEY)`);
    await dataSource.query(`CREATE TABLE "${schema}"."effects" ("id" text PRIMARY KEY)`);
  });

  beforeEach(async () => {
    await dataSource.query(`TRUNCATE "${schema}"."claims", "${schema}"."effects"`);
    sent.length = 0;
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  const claim = (id: string) =>
    `INSERT INTO "${schema}"."claims" ("id") VALUES (${sqlLiteral(id)}) ON CONFLICT DO NOTHING RETURNING "id", txid_current()::text AS "txid"`;
  const ids = async (table: string) =>
    (
      (await dataSource.query(`SELECT "id" FROM "${schema}"."${table}" ORDER BY "id"`)) as Array<{
        id: string;
      }>
    ).map((row) => row.id);

  it('runs the first statement and the work in one transaction, and commits both', async () => {
    const result = await transactionStartingWith(dataSource, claim('a'), async (rows, manager) => {
      const [{ txid }] = (await manager.query('SELECT txid_current()::text AS "txid"')) as Array<{
        txid: string;
      }>;
      await manager.query(`INSERT INTO "${schema}"."effects" ("id") VALUES ($1)`, ['a']);
      return { rows, txid, active: manager.queryRunner?.isTransactionActive };
    });

    expect(result.rows).toEqual([{ id: 'a', txid: result.txid }]);
    expect(result.active).toBe(true);
    expect(await ids('claims')).toEqual(['a']);
    expect(await ids('effects')).toEqual(['a']);
    // START TRANSACTION travelled with the first statement; TypeORM sent the work and the COMMIT.
    expect(sent.filter((q) => !q.startsWith('SELECT "id"'))).toEqual([
      'SELECT txid_current()::text AS "txid"',
      `INSERT INTO "${schema}"."effects" ("id") VALUES ($1)`,
      'COMMIT',
    ]);
  });

  it('gives the work no rows when the first statement returns none (a second claim of the same id)', async () => {
    await transactionStartingWith(dataSource, claim('b'), async () => undefined);
    const rows = await transactionStartingWith(dataSource, claim('b'), async (firstRows) => firstRows);
    expect(rows).toEqual([]);
  });

  it('rolls back the first statement with the work when the work throws', async () => {
    await expect(
      transactionStartingWith(dataSource, claim('c'), async (_rows, manager) => {
        await manager.query(`INSERT INTO "${schema}"."effects" ("id") VALUES ('c')`);
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');

    expect(await ids('claims')).toEqual([]);
    expect(await ids('effects')).toEqual([]);
  });

  it('fails with a QueryFailedError when the first statement fails, and leaves the pooled connection usable', async () => {
    const work = jest.fn();
    const failing = transactionStartingWith(dataSource, `INSERT INTO "${schema}"."nowhere" VALUES (1)`, work);
    await expect(failing).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failing).rejects.toMatchObject({ driverError: { code: '42P01' } });
    expect(work).not.toHaveBeenCalled();

    // The pool holds one connection: it was rolled back and released, so this runs on it.
    await transactionStartingWith(dataSource, claim('d'), async () => undefined);
    expect(await ids('claims')).toEqual(['d']);
  });

  it('nests TypeORM transactions inside the work as savepoints', async () => {
    await transactionStartingWith(dataSource, claim('e'), async (_rows, manager) => {
      await manager
        .transaction(async (inner) => {
          await inner.query(`INSERT INTO "${schema}"."effects" ("id") VALUES ('inner')`);
          throw new Error('inner failed');
        })
        .catch(() => undefined);
      await manager.query(`INSERT INTO "${schema}"."effects" ("id") VALUES ('outer')`);
    });

    expect(await ids('claims')).toEqual(['e']);
    expect(await ids('effects')).toEqual(['outer']);
  });

  it('escapes literals', () => {
    expect(sqlLiteral("it's")).toBe("'it''s'");
  });
});
