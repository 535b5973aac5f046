import { Client } from 'pg';
import { FaultProxy } from './fault-proxy';

const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

describe('FaultProxy in front of the real PostgreSQL', () => {
  let proxy: FaultProxy;

  beforeEach(async () => {
    proxy = await new FaultProxy({ target: { host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) } }).start();
  });
  afterEach(async () => proxy.stop());

  const client = () => {
    const url = new URL(databaseUrl.toString());
    url.host = proxy.address;
    return new Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  };

  it('forwards queries unchanged', async () => {
    const c = client();
    await c.connect();
    const { rows } = await c.query('SELECT 41 + 1 AS answer');
    expect(rows[0].answer).toBe(42);
    await c.end();
  });

  it('adds latency to each round trip', async () => {
    const c = client();
    await c.connect();
    proxy.setLatency(150);
    const started = process.hrtime.bigint();
    await c.query('SELECT 1');
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // one request chunk and one answer chunk, each held 150 ms
    expect(elapsedMs).toBeGreaterThanOrEqual(290);
    await c.end();
  });

  it('cuts open connections and refuses new ones until restored', async () => {
    const c = client();
    const errors: Error[] = [];
    c.on('error', (e) => errors.push(e));
    await c.connect();
    proxy.setRefusing(true);
    await expect(c.query('SELECT 1')).rejects.toThrow();
    await expect(client().connect()).rejects.toThrow();
    proxy.setRefusing(false);
    const again = client();
    await again.connect();
    expect((await again.query('SELECT 2 AS two')).rows[0].two).toBe(2);
    await again.end();
  });
});
