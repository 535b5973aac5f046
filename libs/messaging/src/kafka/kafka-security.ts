import fs from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { UNTRUSTED_CERTIFICATE_CODES } from '@swapgw/runtime';

/**
 * How the suite's Kafka clients authenticate and encrypt, named as Kafka's own client settings are
 * (`security.protocol`, `sasl.mechanism`): every app and tool reads the same variables.
 *
 * | variable                                                    | meaning                                                       |
 * | ----------------------------------------------------------- | ------------------------------------------------------------- |
 * | `KAFKA_SECURITY_PROTOCOL`                                   | `PLAINTEXT` (default), `SSL`, `SASL_PLAINTEXT`, `SASL_SSL`     |
 * | `KAFKA_SSL_CA_FILE`                                         | PEM file of the CAs to trust (default: Node's public CAs)      |
 * | `KAFKA_SSL_CERT_FILE` / `KAFKA_SSL_KEY_FILE`                | client certificate and key, PEM (mTLS)                         |
 * | `KAFKA_SSL_KEY_PASSWORD` (or `_FILE`)                       | passphrase of an encrypted client key                          |
 * | `KAFKA_SASL_MECHANISM`                                      | `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512`                      |
 * | `KAFKA_SASL_USERNAME` / `KAFKA_SASL_PASSWORD` (or `_FILE`)  | SASL credentials; `_FILE`: read from that file (a mounted Secret) |
 */
export const KAFKA_SECURITY_PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
export type KafkaSecurityProtocol = (typeof KAFKA_SECURITY_PROTOCOLS)[number];
export const KAFKA_SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** The variables read, as the environment (or a validated config with the same names) has them. */
export interface KafkaSecurityVariables {
  KAFKA_SECURITY_PROTOCOL?: string;
  KAFKA_SSL_CA_FILE?: string;
  KAFKA_SSL_CERT_FILE?: string;
  KAFKA_SSL_KEY_FILE?: string;
  KAFKA_SSL_KEY_PASSWORD?: string;
  KAFKA_SSL_KEY_PASSWORD_FILE?: string;
  KAFKA_SASL_MECHANISM?: string;
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_USERNAME_FILE?: string;
  KAFKA_SASL_PASSWORD?: string;
  KAFKA_SASL_PASSWORD_FILE?: string;
}

export const KAFKA_SECURITY_VARIABLES: (keyof KafkaSecurityVariables)[] = [
  'KAFKA_SECURITY_PROTOCOL',
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'KAFKA_SSL_KEY_PASSWORD',
  'KAFKA_SSL_KEY_PASSWORD_FILE',
  'KAFKA_SASL_MECHANISM',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_USERNAME_FILE',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SASL_PASSWORD_FILE',
];

/** What the clients are given, with what an error message needs to name the right setting. */
export interface KafkaSecurity {
  protocol: KafkaSecurityProtocol;
  /** kafkajs `ssl`: set for SSL and SASL_SSL (certificates always verified). */
  ssl?: ConnectionOptions;
  /** kafkajs `sasl`: set for SASL_PLAINTEXT and SASL_SSL. */
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
  /** The files the settings came from, for messages and for Kafka's Java tools. */
  files: { ca?: string; cert?: string; key?: string };
}

export const PLAINTEXT_SECURITY: KafkaSecurity = { protocol: 'PLAINTEXT', files: {} };

/** A Kafka security setting that is missing, contradictory or unreadable; the message names it. */
export class KafkaSecuritySettingError extends Error {}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

function readFileSetting(variable: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KafkaSecuritySettingError(
      `${variable}=${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** `NAME` or `NAME_FILE` (its content, trailing newline dropped): never both. */
function secretSetting(vars: KafkaSecurityVariables, name: keyof KafkaSecurityVariables): string | undefined {
  const fileVariable = `${name}_FILE` as keyof KafkaSecurityVariables;
  const direct = vars[name];
  const file = vars[fileVariable];
  if (present(direct) && present(file))
    throw new KafkaSecuritySettingError(`set ${name} or ${fileVariable}, not both`);
  if (present(file)) return readFileSetting(fileVariable, file).replace(/\r?\n$/, '');
  return present(direct) ? direct : undefined;
}

/**
 * Validates the variables and reads the files they name. Throws KafkaSecuritySettingError naming the
 * variable when something is missing (SASL without a mechanism or credentials, a certificate without
 * its key), contradictory (TLS files with a protocol without TLS) or unreadable.
 */
export function kafkaSecurityFrom(vars: KafkaSecurityVariables): KafkaSecurity {
  const protocolValue = present(vars.KAFKA_SECURITY_PROTOCOL)
    ? vars.KAFKA_SECURITY_PROTOCOL.trim().toUpperCase()
    : 'PLAINTEXT';
  if (!(KAFKA_SECURITY_PROTOCOLS as readonly string[]).includes(protocolValue))
    throw new KafkaSecuritySettingError(
      `KAFKA_SECURITY_PROTOCOL must be one of ${KAFKA_SECURITY_PROTOCOLS.join(', ')} (got "${vars.KAFKA_SECURITY_PROTOCOL}")`,
    );
  const protocol = protocolValue as KafkaSecurityProtocol;
  const tls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const saslOn = protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL';

  const tlsVariables = [
    'KAFKA_SSL_CA_FILE',
    'KAFKA_SSL_CERT_FILE',
    'KAFKA_SSL_KEY_FILE',
    'KAFKA_SSL_KEY_PASSWORD',
    'KAFKA_SSL_KEY_PASSWORD_FILE',
  ] as const;
  const saslVariables = [
    'KAFKA_SASL_MECHANISM',
    'KAFKA_SASL_USERNAME',
    'KAFKA_SASL_USERNAME_FILE',
    'KAFKA_SASL_PASSWORD',
    'KAFKA_SASL_PASSWORD_FILE',
  ] as const;
  if (!tls) {
    const stray = tlsVariables.find((v) => present(vars[v]));
    if (stray)
      throw new KafkaSecuritySettingError(
        `${stray} is set but KAFKA_SECURITY_PROTOCOL is ${protocol}: use SSL or SASL_SSL for TLS`,
      );
  }
  if (!saslOn) {
    const stray = saslVariables.find((v) => present(vars[v]));
    if (stray)
      throw new KafkaSecuritySettingError(
        `${stray} is set but KAFKA_SECURITY_PROTOCOL is ${protocol}: use SASL_SSL or SASL_PLAINTEXT for SASL`,
      );
  }

  const files: KafkaSecurity['files'] = {};
  let ssl: ConnectionOptions | undefined;
  if (tls) {
    ssl = { rejectUnauthorized: true };
    if (present(vars.KAFKA_SSL_CA_FILE)) {
      files.ca = vars.KAFKA_SSL_CA_FILE;
      const ca = readFileSetting('KAFKA_SSL_CA_FILE', vars.KAFKA_SSL_CA_FILE);
      if (!ca.includes('-----BEGIN CERTIFICATE-----'))
        throw new KafkaSecuritySettingError(`KAFKA_SSL_CA_FILE=${files.ca} holds no PEM certificate`);
      ssl.ca = [ca];
    }
    const certFile = vars.KAFKA_SSL_CERT_FILE;
    const keyFile = vars.KAFKA_SSL_KEY_FILE;
    if (present(certFile) !== present(keyFile))
      throw new KafkaSecuritySettingError(
        'KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (a client certificate needs its key)',
      );
    if (present(certFile) && present(keyFile)) {
      files.cert = certFile;
      files.key = keyFile;
      ssl.cert = readFileSetting('KAFKA_SSL_CERT_FILE', certFile);
      ssl.key = readFileSetting('KAFKA_SSL_KEY_FILE', keyFile);
      const passphrase = secretSetting(vars, 'KAFKA_SSL_KEY_PASSWORD');
      if (passphrase !== undefined) ssl.passphrase = passphrase;
    } else if (present(vars.KAFKA_SSL_KEY_PASSWORD) || present(vars.KAFKA_SSL_KEY_PASSWORD_FILE)) {
      throw new KafkaSecuritySettingError('KAFKA_SSL_KEY_PASSWORD is set without KAFKA_SSL_KEY_FILE');
    }
  }

  let sasl: KafkaSecurity['sasl'];
  if (saslOn) {
    const mechanism = vars.KAFKA_SASL_MECHANISM?.trim().toUpperCase();
    if (!mechanism || !(KAFKA_SASL_MECHANISMS as readonly string[]).includes(mechanism))
      throw new KafkaSecuritySettingError(
        `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} with KAFKA_SECURITY_PROTOCOL=${protocol}` +
          (mechanism ? ` (got "${vars.KAFKA_SASL_MECHANISM}")` : ''),
      );
    const username = secretSetting(vars, 'KAFKA_SASL_USERNAME');
    const password = secretSetting(vars, 'KAFKA_SASL_PASSWORD');
    if (!username)
      throw new KafkaSecuritySettingError(
        `KAFKA_SASL_USERNAME (or KAFKA_SASL_USERNAME_FILE) is required with ${protocol}`,
      );
    if (!password)
      throw new KafkaSecuritySettingError(
        `KAFKA_SASL_PASSWORD (or KAFKA_SASL_PASSWORD_FILE) is required with ${protocol}`,
      );
    sasl = { mechanism: mechanism as KafkaSaslMechanism, username, password };
  }
  return { protocol, ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}), files };
}

/** kafkajs's `ssl` and `sasl` client options for `security`. */
export function kafkajsSecurityOptions(security: KafkaSecurity): {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions;
} {
  const options: { ssl?: ConnectionOptions; sasl?: SASLOptions } = {};
  if (security.ssl) options.ssl = security.ssl;
  if (security.sasl) {
    const { username, password } = security.sasl;
    const mechanism = security.sasl.mechanism.toLowerCase() as 'plain' | 'scram-sha-256' | 'scram-sha-512';
    options.sasl = { mechanism, username, password } as SASLOptions;
  }
  return options;
}

/** Node's TLS verification failures: the broker's certificate is not one we trust, its name included. */
const UNTRUSTED_BROKER_CERTIFICATE_CODES = new Set([
  ...UNTRUSTED_CERTIFICATE_CODES,
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorChain(error: unknown): { name?: string; code?: string; message?: string; type?: string }[] {
  const chain: { name?: string; code?: string; message?: string; type?: string }[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    chain.push(current as { name?: string; code?: string; message?: string });
    const next = current as { cause?: unknown; originalError?: unknown };
    current = next.originalError ?? next.cause;
  }
  return chain;
}

/**
 * When `error` (from kafkajs) shows that the security settings are wrong rather than the cluster
 * away, the sentence that says which setting to fix; null otherwise (a broker that is down is
 * waited for, not reported as a setting).
 */
export function kafkaSecurityFailure(error: unknown, security: KafkaSecurity): string | null {
  const chain = errorChain(error);
  const sasl = chain.find(
    (e) =>
      e.name === 'KafkaJSSASLAuthenticationError' || /SASL .*authentication failed/i.test(e.message ?? ''),
  );
  if (sasl) {
    const who = security.sasl ? ` (${security.sasl.mechanism} as "${security.sasl.username}")` : '';
    return `Kafka refused the SASL login${who}: check KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD and KAFKA_SASL_MECHANISM (${sasl.message})`;
  }
  const untrusted = chain.find((e) => e.code && UNTRUSTED_BROKER_CERTIFICATE_CODES.has(e.code));
  if (untrusted) {
    const trust = security.files.ca
      ? `KAFKA_SSL_CA_FILE=${security.files.ca} does not trust it`
      : 'no KAFKA_SSL_CA_FILE is set, so only public CAs are trusted';
    return `the Kafka broker's TLS certificate is not trusted (${untrusted.code}): ${trust}; check KAFKA_SSL_CA_FILE`;
  }
  const clientCertificate = chain.find((e) =>
    /CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN/i.test(
      `${e.code ?? ''} ${e.message ?? ''}`,
    ),
  );
  if (clientCertificate && security.ssl) {
    const given = security.files.cert
      ? `KAFKA_SSL_CERT_FILE=${security.files.cert}`
      : 'no KAFKA_SSL_CERT_FILE';
    return `the Kafka broker refused our client certificate (${given}): check KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE`;
  }
  return null;
}

/** A description for logs, without secrets. */
export function describeKafkaSecurity(security: KafkaSecurity): Record<string, unknown> {
  return {
    protocol: security.protocol,
    ...(security.sasl
      ? { saslMechanism: security.sasl.mechanism, saslUsername: security.sasl.username }
      : {}),
    ...(security.files.ca ? { caFile: security.files.ca } : {}),
    ...(security.files.cert ? { clientCertificate: security.files.cert } : {}),
  };
}

/** A Java properties value: backslashes, newlines and leading blanks escaped. */
function javaPropertyValue(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\r?\n/g, '\\n')
    .replace(/^\s/, (c) => `\\${c}`);
}

/** A JAAS option value in double quotes. */
function jaasQuoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The same settings as a Java client properties file, for Kafka's own tools (`--command-config`,
 * `--consumer.config`, `--producer.config`): `security.protocol`, the CA as a PEM truststore, the
 * client certificate and key as a PEM keystore (inline), and SASL through `sasl.jaas.config`.
 */
export function javaClientProperties(security: KafkaSecurity): string {
  const lines = [`security.protocol=${security.protocol}`];
  if (security.ssl) {
    if (security.files.ca)
      lines.push(
        'ssl.truststore.type=PEM',
        `ssl.truststore.location=${javaPropertyValue(security.files.ca)}`,
      );
    if (security.ssl.cert && security.ssl.key) {
      lines.push(
        'ssl.keystore.type=PEM',
        `ssl.keystore.certificate.chain=${javaPropertyValue(String(security.ssl.cert).trim())}`,
        `ssl.keystore.key=${javaPropertyValue(String(security.ssl.key).trim())}`,
      );
      if (security.ssl.passphrase)
        lines.push(`ssl.key.password=${javaPropertyValue(security.ssl.passphrase)}`);
    }
  }
  if (security.sasl) {
    const module =
      security.sasl.mechanism === 'PLAIN'
        ? 'org.apache.kafka.common.security.plain.PlainLoginModule'
        : 'org.apache.kafka.common.security.scram.ScramLoginModule';
    const jaas = `${module} required username=${jaasQuoted(security.sasl.username)} password=${jaasQuoted(security.sasl.password)};`;
    lines.push(`sasl.mechanism=${security.sasl.mechanism}`, `sasl.jaas.config=${javaPropertyValue(jaas)}`);
  }
  return `${lines.join('\n')}\n`;
}
