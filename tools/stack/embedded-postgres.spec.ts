import { choosePostgresSource, embeddedPostgresBinaries } from './embedded-postgres';

describe('choosePostgresSource (which PostgreSQL npm start and npm test use)', () => {
  const url = 'postgres://postgres@db:5432/swapgw';

  it('takes DATABASE_URL when set, whether or not a server listens on 127.0.0.1:5432', () => {
    expect(choosePostgresSource({ DATABASE_URL: url }, true)).toBe('DATABASE_URL');
    expect(choosePostgresSource({ DATABASE_URL: url }, false)).toBe('DATABASE_URL');
  });

  it('else the server listening on 127.0.0.1:5432, else the embedded one', () => {
    expect(choosePostgresSource({}, true)).toBe('listening');
    expect(choosePostgresSource({ DATABASE_URL: '' }, false)).toBe('embedded');
    expect(choosePostgresSource({ SWAPGW_EMBEDDED_POSTGRES: '0' }, true)).toBe('listening');
  });

  it('starts the embedded one with SWAPGW_EMBEDDED_POSTGRES=1 even when a server listens', () => {
    expect(choosePostgresSource({ SWAPGW_EMBEDDED_POSTGRES: '1' }, true)).toBe('embedded');
    expect(choosePostgresSource({ SWAPGW_EMBEDDED_POSTGRES: 'true' }, true)).toBe('embedded');
  });

  it('refuses SWAPGW_EMBEDDED_POSTGRES=1 with DATABASE_URL, and values it does not know', () => {
    expect(() => choosePostgresSource({ SWAPGW_EMBEDDED_POSTGRES: '1', DATABASE_URL: url }, false)).toThrow(
      /unset DATABASE_URL or it/,
    );
    expect(() => choosePostgresSource({ SWAPGW_EMBEDDED_POSTGRES: 'yes' }, false)).toThrow(
      'SWAPGW_EMBEDDED_POSTGRES must be 1, true, 0 or false, not "yes"',
    );
  });
});

describe('embeddedPostgresBinaries', () => {
  it("finds this platform's PostgreSQL 15 binaries, whose libraries load", () => {
    const binaries = embeddedPostgresBinaries();
    expect(binaries.packageName).toBe(`@embedded-postgres/${process.platform}-${process.arch}`);
    expect(binaries.version).toMatch(/^15\.\d+$/);
  });
});
