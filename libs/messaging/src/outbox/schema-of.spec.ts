import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { pgClientConfigOf } from './outbox-relay';
import { outboxChannelOf, schemaOf } from './schema-of';

const withSchema = (schema?: string) => ({ options: { type: 'postgres', schema } }) as unknown as Pick<DataSource, 'options'>;

describe('schemaOf', () => {
  it('is the DataSource schema, public when none is set', () => {
    expect(schemaOf(withSchema('planner'))).toBe('planner');
    expect(schemaOf(withSchema())).toBe('public');
  });

  it('refuses a schema that could break out of the quoted identifier', () => {
    expect(() => schemaOf(withSchema('planner"; DROP TABLE x; --'))).toThrow(/schema/);
  });

  it('names the LISTEN/NOTIFY channel after the schema', () => {
    expect(outboxChannelOf('limit_order')).toBe('outbox_limit_order');
  });
});

describe('pgClientConfigOf', () => {
  it('uses the DataSource URL for the LISTEN connection', () => {
    const config = pgClientConfigOf({ type: 'postgres', url: 'postgres://postgres@db:5432/swapgw', applicationName: 'planner' } as PostgresConnectionOptions);
    expect(config).toMatchObject({ connectionString: 'postgres://postgres@db:5432/swapgw', application_name: 'planner-outbox-listen' });
  });

  it('uses host, port, user and database when there is no URL', () => {
    const config = pgClientConfigOf({ type: 'postgres', host: 'db', port: 5433, username: 'u', password: 'p', database: 'd' } as PostgresConnectionOptions);
    expect(config).toMatchObject({ host: 'db', port: 5433, user: 'u', password: 'p', database: 'd' });
  });
});
