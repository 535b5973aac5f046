import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  databaseConnectionFailure,
  DatabaseSettingError,
  databaseUrlFrom,
  pgConnectionConfig,
} from './database-connection';
import { DatabaseEnvironment } from './database-environment';
import { ConfigValidationError, loadConfig } from './config';

const PEM_CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

describe('PostgreSQL connection settings', () => {
  let dir: string;
  let ca: string;
  let cert: string;
  let key: string;
  let passwordFile: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-db-settings-'));
    ca = path.join(dir, 'ca.pem');
    cert = path.join(dir, 'client.crt');
    key = path.join(dir, 'client.key');
    passwordFile = path.join(dir, 'password');
    fs.writeFileSync(ca, PEM_CERT);
    fs.writeFileSync(cert, PEM_CERT);
    fs.writeFileSync(key, PEM_KEY);
    fs.writeFileSync(passwordFile, 'p@ss/word:1\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('pgConnectionConfig (libpq meanings of sslmode)', () => {
    it('no sslmode: no TLS, the URL as it is', () => {
      expect(pgConnectionConfig('postgres://u@db:5432/swapgw')).toEqual({
        connectionString: 'postgres://u@db:5432/swapgw',
        ssl: false,
        sslMode: 'disable',
        files: {},
      });
    });

    it('require: encrypted, certificate not checked', () => {
      const config = pgConnectionConfig('postgres://u@db/swapgw?sslmode=require');
      expect(config.ssl).toEqual({ rejectUnauthorized: false });
      expect(config.connectionString).toBe('postgres://u@db/swapgw');
    });

    it('verify-ca: the CA checked, the host name not', () => {
      const config = pgConnectionConfig(`postgres://u@db/swapgw?sslmode=verify-ca&sslrootcert=${ca}`);
      const ssl = config.ssl as { rejectUnauthorized: boolean; ca: string[]; checkServerIdentity(): unknown };
      expect(ssl.rejectUnauthorized).toBe(true);
      expect(ssl.ca).toBe(PEM_CERT);
      expect(ssl.checkServerIdentity()).toBeUndefined();
      expect(config.connectionString).toBe('postgres://u@db/swapgw');
    });

    it('verify-full: CA and host name checked (Node checks the name when no checkServerIdentity is given)', () => {
      const config = pgConnectionConfig(
        `postgres://u@db/swapgw?sslmode=verify-full&sslrootcert=${ca}&sslcert=${cert}&sslkey=${key}&application_name=x`,
      );
      expect(config.ssl).toEqual({ rejectUnauthorized: true, ca: PEM_CERT, cert: PEM_CERT, key: PEM_KEY });
      expect(config.connectionString).toBe('postgres://u@db/swapgw?application_name=x');
      expect(config.files).toEqual({ ca, cert, key });
    });

    it('verify-full without a CA file trusts the public CAs', () => {
      expect(pgConnectionConfig('postgres://u@db/swapgw?sslmode=verify-full').ssl).toEqual({
        rejectUnauthorized: true,
      });
    });

    it.each([
      ['postgres://u@db/x?sslmode=prefer', /DATABASE_SSL_MODE.*got "prefer"/],
      ['postgres://u@db/x?sslmode=verify-ca', /verify-ca needs DATABASE_SSL_CA_FILE/],
      [
        `postgres://u@db/x?sslrootcert=${'/nowhere/ca.pem'}`,
        /DATABASE_SSL_CA_FILE is set but DATABASE_SSL_MODE is disable/,
      ],
      [
        'postgres://u@db/x?sslmode=verify-full&sslrootcert=/nowhere/ca.pem',
        /DATABASE_SSL_CA_FILE=\/nowhere\/ca.pem cannot be read: ENOENT/,
      ],
      [
        'postgres://u@db/x?sslmode=require&sslcert=/c',
        /DATABASE_SSL_CERT_FILE and DATABASE_SSL_KEY_FILE go together/,
      ],
    ])('refuses %s, naming the setting', (url, message) => {
      expect(() => pgConnectionConfig(url)).toThrow(DatabaseSettingError);
      expect(() => pgConnectionConfig(url)).toThrow(message);
    });

    it('a CA file that holds no certificate is named', () => {
      expect(() =>
        pgConnectionConfig(`postgres://u@db/x?sslmode=verify-full&sslrootcert=${passwordFile}`),
      ).toThrow(/DATABASE_SSL_CA_FILE=.* holds no PEM certificate/);
    });
  });

  describe('databaseUrlFrom (the variables folded into the URL)', () => {
    it('a variable that is set wins over the same parameter of DATABASE_URL; an unset one leaves it', () => {
      const url = databaseUrlFrom({
        DATABASE_URL: 'postgres://u@db/swapgw?sslmode=require&sslrootcert=/old.pem',
        DATABASE_SSL_MODE: 'verify-full',
      });
      expect(new URL(url).searchParams.get('sslmode')).toBe('verify-full');
      expect(new URL(url).searchParams.get('sslrootcert')).toBe('/old.pem');
    });

    it('the password of DATABASE_PASSWORD_FILE, trailing newline dropped, reaches the server as written', () => {
      const url = databaseUrlFrom({
        DATABASE_URL: 'postgres://u@db/swapgw',
        DATABASE_PASSWORD_FILE: passwordFile,
      });
      expect(decodeURIComponent(new URL(url).password)).toBe('p@ss/word:1');
    });

    it('a password given twice is refused', () => {
      expect(() =>
        databaseUrlFrom({ DATABASE_URL: 'postgres://u:x@db/swapgw', DATABASE_PASSWORD_FILE: passwordFile }),
      ).toThrow(/DATABASE_URL holds a password and DATABASE_PASSWORD_FILE is set/);
    });
  });

  describe('DatabaseEnvironment (validated with the app config)', () => {
    it('databaseUrl is what connections are opened with', () => {
      const config = loadConfig(DatabaseEnvironment, {
        DATABASE_URL: 'postgres://u@db/swapgw',
        DATABASE_SSL_MODE: 'verify-full',
        DATABASE_SSL_CA_FILE: ca,
      });
      expect(pgConnectionConfig(config.databaseUrl)).toMatchObject({ sslMode: 'verify-full', files: { ca } });
    });

    it('an unreadable CA file stops the start, named', () => {
      expect(() =>
        loadConfig(DatabaseEnvironment, {
          DATABASE_URL: 'postgres://u@db/swapgw',
          DATABASE_SSL_MODE: 'verify-full',
          DATABASE_SSL_CA_FILE: '/nowhere/ca.pem',
        }),
      ).toThrow(/DATABASE_SSL_CA_FILE=\/nowhere\/ca.pem cannot be read/);
    });

    it('an unknown mode is named', () => {
      expect(() => loadConfig(DatabaseEnvironment, { DATABASE_SSL_MODE: 'prefer' })).toThrow(
        ConfigValidationError,
      );
      expect(() => loadConfig(DatabaseEnvironment, { DATABASE_SSL_MODE: 'prefer' })).toThrow(
        /DATABASE_SSL_MODE must be one of disable, require, verify-ca, verify-full/,
      );
    });
  });

  describe('databaseConnectionFailure (which setting a refused connection points at)', () => {
    const url = () => `postgres://u@db/swapgw?sslmode=verify-full&sslrootcert=${ca}`;
    it.each([
      [{ code: 'SELF_SIGNED_CERT_IN_CHAIN' }, /not trusted.*DATABASE_SSL_CA_FILE=/],
      [
        { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'altname' },
        /does not name the host "db".*DATABASE_SSL_MODE/,
      ],
      [
        { message: 'The server does not support SSL connections' },
        /does not accept TLS.*DATABASE_SSL_MODE=verify-full/,
      ],
      [
        {
          code: '28000',
          message:
            'pg_hba.conf rejects connection for host "1.2.3.4", user "u", database "swapgw", no encryption',
        },
        /refuses unencrypted connections.*DATABASE_SSL_MODE/,
      ],
      [{ code: '28P01', message: 'password authentication failed' }, /role "u".*DATABASE_PASSWORD_FILE/],
    ])('%j', (error, message) => {
      expect(databaseConnectionFailure(error, url())).toMatch(message);
    });

    it('a server that is away is not a setting', () => {
      expect(databaseConnectionFailure({ code: 'ECONNREFUSED' }, url())).toBeNull();
    });
  });
});
