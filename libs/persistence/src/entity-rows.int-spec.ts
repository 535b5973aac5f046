import { randomBytes, randomUUID } from 'node:crypto';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { ensureDatabase, ensureSchema } from './database-url';
import { msColumn } from './epoch-ms-column';
import { entityRowsOf } from './entity-rows';
import { serviceDataSourceOptions } from './service-data-source';

const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/swapgw_dev_persistence';

/** One column of each kind the services' entities have. */
@Entity({ name: 'every_kind' })
class EveryKind {
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id!: string;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Column({ name: 'count_or_null', type: 'integer', nullable: true })
  countOrNull!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  document!: Record<string, unknown> | null;

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  items!: unknown[];

  @Column(msColumn('at_ms'))
  atMs!: number;

  @Column(msColumn('maybe_at_ms', true))
  maybeAtMs!: number | null;

  @Column({ type: 'boolean', default: false })
  flag!: boolean;

  @Column({ type: 'bigint' })
  big!: string;

  @Column({ type: 'numeric', precision: 78, scale: 0 })
  amount!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];
}

describe('entityRowsOf (PostgreSQL)', () => {
  const schema = `entity_rows_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    await ensureSchema(databaseUrl, schema);
    dataSource = new DataSource({
      ...serviceDataSourceOptions({
        url: databaseUrl,
        schema,
        entities: [EveryKind],
        migrations: [],
        poolSize: 1,
      }),
      synchronize: true,
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  it('reads every column into the entity TypeORM itself reads, for full and null-filled rows', async () => {
    const repository = dataSource.getRepository(EveryKind);
    const rows = entityRowsOf(dataSource, EveryKind);
    expect(rows.table).toBe(`"${schema}"."every_kind"`);
    const full = repository.create({
      id: randomUUID(),
      name: 'full',
      countOrNull: 7,
      document: { nested: { list: [1, 'two', null] }, big: '123456789012345678901234567890' },
      items: [{ a: 1 }],
      atMs: 1_764_000_000_123,
      maybeAtMs: 1_764_000_000_456,
      flag: true,
      big: '9007199254740993',
      amount: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      tags: ['x', 'y'],
    });
    const sparse = repository.create({
      id: randomUUID(),
      name: 'sparse',
      countOrNull: null,
      document: null,
      atMs: 1,
      maybeAtMs: null,
      big: '0',
      amount: '0',
    });
    await repository.save([full, sparse]);
    for (const { id } of [full, sparse]) {
      const [row] = (await dataSource.query(`SELECT ${rows.columns()} FROM ${rows.table} WHERE "id" = $1`, [
        id,
      ])) as Record<string, unknown>[];
      const read = rows.entityOf(row);
      const typeorm = await repository.findOneByOrFail({ id });
      expect(read).toBeInstanceOf(EveryKind);
      expect(read).toEqual(typeorm);
      expect(Object.keys(read).sort()).toEqual(Object.keys(typeorm).sort());
    }
    const [aliased] = (await dataSource.query(
      `SELECT ${rows.columns('t')}, 'extra' AS "extra" FROM ${rows.table} t WHERE t."id" = $1`,
      [full.id],
    )) as Record<string, unknown>[];
    expect(rows.entityOf(aliased)).toEqual(await repository.findOneByOrFail({ id: full.id }));
  });

  it('writes an entity through jsonb_populate_record as TypeORM reads it back', async () => {
    const repository = dataSource.getRepository(EveryKind);
    const rows = entityRowsOf(dataSource, EveryKind);
    const written = repository.create({
      id: randomUUID(),
      name: 'json',
      countOrNull: null,
      document: { deep: [{ a: '1' }] },
      items: [],
      atMs: 1_764_000_000_789,
      maybeAtMs: null,
      flag: true,
      big: '12345678901234567',
      amount: '10000000000000000000000000000',
      createdAt: new Date('2026-11-30T01:02:03.456Z'),
      tags: ['a'],
    });
    await dataSource.query(
      `INSERT INTO ${rows.table} (${rows.columns()})
       SELECT ${rows.columns()} FROM jsonb_populate_record(NULL::${rows.table}, $1::jsonb)`,
      [JSON.stringify(rows.rowJsonOf(written))],
    );
    expect(await repository.findOneByOrFail({ id: written.id })).toEqual(written);
  });
});
