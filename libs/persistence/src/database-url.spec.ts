import { assertIdentifier, databaseNameOf, withDatabase } from './database-url';
import { isDatabaseUnavailable } from './database-errors';

describe('database urls', () => {
  it('reads the database name and swaps it', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/swapgw_test_1';
    expect(databaseNameOf(url)).toBe('swapgw_test_1');
    expect(withDatabase(url)).toBe('postgres://postgres@127.0.0.1:5432/postgres');
  });

  it('refuses identifiers that would need quoting', () => {
    expect(() => assertIdentifier('bad-name;drop', 'schema')).toThrow(/schema/);
    expect(assertIdentifier('limit_order', 'schema')).toBe('limit_order');
  });
});

describe('isDatabaseUnavailable', () => {
  it('recognises connection failures and shutdowns', () => {
    expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '57P01' })).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { code: 'ECONNRESET' } })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('does not hide real query errors', () => {
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('syntax error at or near'))).toBe(false);
  });
});
