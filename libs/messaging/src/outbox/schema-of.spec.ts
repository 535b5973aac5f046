import type { DataSource } from 'typeorm';
import { outboxChannelOf, schemaOf } from './schema-of';

const withSchema = (schema?: string) =>
  ({ options: { type: 'postgres', schema } }) as unknown as Pick<DataSource, 'options'>;

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
