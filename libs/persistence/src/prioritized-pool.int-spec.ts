import { DataSource, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';
import { PrioritizedPool, withConnectionPriority } from './prioritized-pool';
import { oneConnectionDataSource, persistenceTestDatabaseUrl } from './persistence-test-support';

describe('a service DataSource whose connections go to commands, then requests, then the rest (PostgreSQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await oneConnectionDataSource();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** The one connection, held until the returned runner is released. */
  const holdTheConnection = async (): Promise<QueryRunner> => {
    const runner = dataSource.createQueryRunner();
    await runner.query('SELECT 1');
    return runner;
  };

  it('runs on a PrioritizedPool', () => {
    const driver = dataSource.driver as unknown as { master: unknown };
    expect(driver.master).toBeInstanceOf(PrioritizedPool);
  });

  it('hands freed connections to commands, then requests, then the rest, each lane in the order it asked', async () => {
    const held = await holdTheConnection();
    const answered: string[] = [];
    const ask = (name: string) =>
      dataSource.query(`SELECT $1::text AS "name"`, [name]).then(() => void answered.push(name));
    const asked = [
      ask('read 1'),
      withConnectionPriority('request', () => ask('quote 1')),
      ask('read 2'),
      withConnectionPriority('command', () => ask('build 1')),
      withConnectionPriority('request', () => ask('quote 2')),
      withConnectionPriority('command', () => ask('build 2')),
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toEqual([]);
    await held.release();
    await Promise.all(asked);
    expect(answered).toEqual(['build 1', 'build 2', 'quote 1', 'quote 2', 'read 1', 'read 2']);
  });

  it('keeps the priority across awaits inside a command, and gives the connection back once per checkout', async () => {
    const held = await holdTheConnection();
    const answered: string[] = [];
    const read = dataSource.query(`SELECT 'read' AS "name"`).then(() => void answered.push('read'));
    const command = withConnectionPriority('command', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await dataSource.transaction(async (manager) => {
        await manager.query('SELECT 1');
        await manager.query('SELECT 2');
      });
      answered.push('command');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await held.release();
    await held.release();
    await Promise.all([read, command]);
    expect(answered).toEqual(['command', 'read']);
    // Both checkouts returned their connection: the pool serves the next statement at once.
    await expect(dataSource.query('SELECT 3 AS "three"')).resolves.toEqual([{ three: 3 }]);
  });

  it('bounds the wait for a connection with the pool wait timeout, as pg-pool does (read as unavailable)', async () => {
    const pool = new PrioritizedPool({
      connectionString: persistenceTestDatabaseUrl,
      max: 1,
      connectionTimeoutMillis: 200,
    });
    try {
      const client = await pool.connect();
      const waited = pool.connect().then(
        () => 'connected',
        (error: Error) => error,
      );
      const outcome = await waited;
      expect(outcome).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(outcome)).toBe(true);
      client.release();
      // The timed-out waiter took no permit: the next checkout gets the connection.
      const again = await pool.connect();
      again.release();
    } finally {
      await pool.end();
    }
  });

  it('refuses the statements still waiting for a connection when the pool is ended, as pg-pool refuses its own', async () => {
    const pool = new PrioritizedPool({
      connectionString: persistenceTestDatabaseUrl,
      max: 1,
      connectionTimeoutMillis: 60_000,
    });
    const client = await pool.connect();
    const waiting = pool.connect().then(
      () => 'connected',
      (error: Error) => error.message,
    );
    const ended = pool.end();
    expect(await waiting).toBe('Cannot use a pool after calling end on the pool');
    client.release();
    await ended;
  });
});
