import fs from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

/**
 * How the suite's PostgreSQL connections authenticate and encrypt. Every app, CLI and tool reads
 * the same variables (DatabaseEnvironment), folds them into one connection URL (databaseUrlFrom,
 * with libpq's own query parameters `sslmode`, `sslrootcert`, `sslcert`, `sslkey`), and every pg
 * connection is opened with pgConnectionConfig(url): TypeORM's pools, the migration lock, LISTEN,
 * the database and schema checks, the dev tools.
 *
 * | variable                  | libpq parameter | meaning                                                        |
 * | ------------------------- | --------------- | -------------------------------------------------------------- |
 * | `DATABASE_SSL_MODE`       | `sslmode`       | `disable` (default), `require`, `verify-ca`, `verify-full`      |
 * | `DATABASE_SSL_CA_FILE`    | `sslrootcert`   | PEM of the CAs to trust (verify-full default: Node's public CAs) |
 * | `DATABASE_SSL_CERT_FILE`  | `sslcert`       | client certificate, PEM (with `DATABASE_SSL_KEY_FILE`)          |
 * | `DATABASE_SSL_KEY_FILE`   | `sslkey`        | its key, PEM                                                    |
 * | `DATABASE_PASSWORD_FILE`  | (password)      | the role's password, read from that file (a mounted Secret)     |
 *
 * A variable that is set wins over the same parameter in DATABASE_URL; one that is unset leaves
 * the URL's. `require` encrypts without checking the server's certificate; `verify-ca` checks it
 * against the CA file but not the host name; `verify-full` checks both (what managed PostgreSQL
 * should use). libpq's `prefer` and `allow` are refused: a connection is encrypted or it is not.
 */
export const DATABASE_SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type DatabaseSslMode = (typeof DATABASE_SSL_MODES)[number];

/** The variables read, as the environment (or a validated config with the same names) has them. */
export interface DatabaseVariables {
  DATABASE_URL: string;
  DATABASE_SSL_MODE?: string;
  DATABASE_SSL_CA_FILE?: string;
  DATABASE_SSL_CERT_FILE?: string;
  DATABASE_SSL_KEY_FILE?: string;
  DATABASE_PASSWORD_FILE?: string;
}

/** A PostgreSQL connection setting that is missing, contradictory or unreadable; the message names it. */
export class DatabaseSettingError extends Error {}

/** Each variable and the libpq query parameter of DATABASE_URL it stands for. */
const TLS_PARAMETERS = [
  ['DATABASE_SSL_MODE', 'sslmode'],
  ['DATABASE_SSL_CA_FILE', 'sslrootcert'],
  ['DATABASE_SSL_CERT_FILE', 'sslcert'],
  ['DATABASE_SSL_KEY_FILE', 'sslkey'],
] as const;

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * DATABASE_URL with the DATABASE_SSL_* variables as its libpq TLS parameters and the password of
 * DATABASE_PASSWORD_FILE in it. Throws DatabaseSettingError naming the variable when the password
 * is given twice or its file cannot be read; the TLS files are checked by pgConnectionConfig.
 */
export function databaseUrlFrom(vars: DatabaseVariables): string {
  const url = new URL(vars.DATABASE_URL);
  for (const [variable, parameter] of TLS_PARAMETERS) {
    const value = vars[variable];
    if (present(value)) url.searchParams.set(parameter, value.trim());
  }
  if (present(vars.DATABASE_PASSWORD_FILE)) {
    if (url.password !== '')
      throw new DatabaseSettingError(
        'DATABASE_URL holds a password and DATABASE_PASSWORD_FILE is set: give the password once',
      );
    if (url.username === '')
      throw new DatabaseSettingError('DATABASE_PASSWORD_FILE is set but DATABASE_URL names no user');
    const password = readSetting('DATABASE_PASSWORD_FILE', vars.DATABASE_PASSWORD_FILE).replace(/\r?\n$/, '');
    if (password === '')
      throw new DatabaseSettingError(`DATABASE_PASSWORD_FILE=${vars.DATABASE_PASSWORD_FILE} is empty`);
    url.password = encodeURIComponent(password);
  }
  return url.toString();
}

/** node-postgres options for a URL (Client, Pool, TypeORM's url + ssl), with what messages need. */
export interface PgConnectionConfig {
  /** The URL without its TLS parameters (node-postgres would read them with other meanings). */
  connectionString: string;
  /** node-postgres `ssl`: false, or the TLS options of the URL's sslmode. */
  ssl: false | ConnectionOptions;
  sslMode: DatabaseSslMode;
  /** The files the TLS settings came from, for messages. */
  files: { ca?: string; cert?: string; key?: string };
}

function readSetting(variable: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new DatabaseSettingError(
      `${variable}=${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function readPem(variable: string, file: string, marker: RegExp, what: string): string {
  const pem = readSetting(variable, file);
  if (!marker.test(pem)) throw new DatabaseSettingError(`${variable}=${file} holds no PEM ${what}`);
  return pem;
}

/**
 * The one place a PostgreSQL URL becomes node-postgres connection options: libpq's `sslmode`,
 * `sslrootcert`, `sslcert`, `sslkey` read with libpq's meanings (node-postgres alone would take
 * `require` and `verify-ca` as verify-full) and the files read. Throws DatabaseSettingError naming
 * the variable when a file cannot be read or the mode is unknown.
 */
export function pgConnectionConfig(url: string): PgConnectionConfig {
  const parsed = new URL(url);
  const params = parsed.searchParams;
  const mode = params.get('sslmode') ?? 'disable';
  if (!(DATABASE_SSL_MODES as readonly string[]).includes(mode))
    throw new DatabaseSettingError(
      `DATABASE_SSL_MODE (sslmode) must be one of ${DATABASE_SSL_MODES.join(', ')} (got "${mode}")`,
    );
  const sslMode = mode as DatabaseSslMode;
  const caFile = params.get('sslrootcert') ?? undefined;
  const certFile = params.get('sslcert') ?? undefined;
  const keyFile = params.get('sslkey') ?? undefined;
  for (const [, parameter] of TLS_PARAMETERS) params.delete(parameter);
  // node-postgres's own `ssl=true` would turn TLS on with its defaults behind sslmode's back.
  params.delete('ssl');
  params.delete('uselibpqcompat');
  const connectionString = parsed.toString();
  const files = { ca: caFile, cert: certFile, key: keyFile };

  if (sslMode === 'disable') {
    const stray = TLS_PARAMETERS.slice(1).find(([, parameter]) => files[fileKey(parameter)] !== undefined);
    if (stray)
      throw new DatabaseSettingError(
        `${stray[0]} is set but DATABASE_SSL_MODE is disable: set DATABASE_SSL_MODE to require, verify-ca or verify-full`,
      );
    return { connectionString, ssl: false, sslMode, files: {} };
  }
  if (sslMode === 'verify-ca' && !caFile)
    throw new DatabaseSettingError(
      'DATABASE_SSL_MODE=verify-ca needs DATABASE_SSL_CA_FILE (the CA to check the server against)',
    );
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new DatabaseSettingError(
      'DATABASE_SSL_CERT_FILE and DATABASE_SSL_KEY_FILE go together (a client certificate needs its key)',
    );
  const ssl: ConnectionOptions = { rejectUnauthorized: sslMode !== 'require' };
  if (caFile && sslMode !== 'require')
    ssl.ca = readPem('DATABASE_SSL_CA_FILE', caFile, /-----BEGIN CERTIFICATE-----/, 'certificate');
  // verify-ca: the chain is checked, the name the certificate gives the server is not.
  if (sslMode === 'verify-ca') ssl.checkServerIdentity = () => undefined;
  if (certFile && keyFile) {
    ssl.cert = readPem('DATABASE_SSL_CERT_FILE', certFile, /-----BEGIN CERTIFICATE-----/, 'certificate');
    ssl.key = readPem('DATABASE_SSL_KEY_FILE', keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'private key');
  }
  return { connectionString, ssl, sslMode, files };
}

function fileKey(parameter: string): 'ca' | 'cert' | 'key' {
  return parameter === 'sslrootcert' ? 'ca' : parameter === 'sslcert' ? 'cert' : 'key';
}

/**
 * Node's TLS verification failures: the server's certificate is not one the CA file trusts (the
 * host name check, ERR_TLS_CERT_ALTNAME_INVALID, apart). Kafka's checks use them too.
 */
export const UNTRUSTED_CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * When `error` (from connecting with pgConnectionConfig(url)) shows that a connection setting is
 * wrong rather than the server away, the sentence that says which setting to fix; null otherwise.
 */
export function databaseConnectionFailure(error: unknown, url: string): string | null {
  const e = (error ?? {}) as { code?: string; message?: string };
  const message = e.message ?? '';
  let config: PgConnectionConfig;
  try {
    config = pgConnectionConfig(url);
  } catch (settingError) {
    return (settingError as Error).message;
  }
  const host = new URL(url).hostname;
  if (e.code && UNTRUSTED_CERTIFICATE_CODES.has(e.code)) {
    const trust = config.files.ca
      ? `DATABASE_SSL_CA_FILE=${config.files.ca} does not trust it`
      : 'no DATABASE_SSL_CA_FILE is set, so only public CAs are trusted';
    return `PostgreSQL's TLS certificate is not trusted (${e.code}): ${trust}; check DATABASE_SSL_CA_FILE`;
  }
  if (e.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return (
      `PostgreSQL's TLS certificate does not name the host "${host}" of DATABASE_URL (${message}): ` +
      'connect by a name the certificate holds, or check DATABASE_SSL_MODE (verify-full checks the host name)'
    );
  if (/does not support SSL/i.test(message))
    return `PostgreSQL at ${host} does not accept TLS but DATABASE_SSL_MODE=${config.sslMode} requires it: check DATABASE_SSL_MODE`;
  if (e.code === '28000' && /no encryption/i.test(message))
    return `PostgreSQL refuses unencrypted connections (${message}): set DATABASE_SSL_MODE (verify-full for managed PostgreSQL)`;
  if (e.code === '28000' && /certificate/i.test(message))
    return `PostgreSQL refused our client certificate (${message}): check DATABASE_SSL_CERT_FILE and DATABASE_SSL_KEY_FILE`;
  if (e.code === '28P01')
    return `PostgreSQL refused the password of role "${decodeURIComponent(new URL(url).username)}" (${message}): check DATABASE_URL or DATABASE_PASSWORD_FILE`;
  return null;
}

/** Thrown when connecting failed because of a setting: the message says which one to fix. */
export class DatabaseConnectionSettingError extends DatabaseSettingError {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
  }
}

/** `error` as a DatabaseConnectionSettingError when a setting caused it, else unchanged. */
export function explainDatabaseConnectionError(error: unknown, url: string): unknown {
  if (error instanceof DatabaseSettingError) return error;
  const failure = databaseConnectionFailure(error, url);
  return failure ? new DatabaseConnectionSettingError(failure, error) : error;
}
