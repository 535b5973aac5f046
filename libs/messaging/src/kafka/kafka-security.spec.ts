import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  javaClientProperties,
  kafkajsSecurityOptions,
  kafkaSecurityFailure,
  kafkaSecurityFrom,
  KafkaSecuritySettingError,
} from './kafka-security';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-security-spec-'));
const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
};
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('kafkaSecurityFrom', () => {
  it('is PLAINTEXT with nothing set', () => {
    expect(kafkaSecurityFrom({})).toEqual({ protocol: 'PLAINTEXT', files: {} });
  });

  it('SASL_SSL with SCRAM: verified TLS (the CA file read), credentials, mechanism in any case', () => {
    const ca = file('ca.pem', PEM);
    const security = kafkaSecurityFrom({
      KAFKA_SECURITY_PROTOCOL: 'sasl_ssl',
      KAFKA_SSL_CA_FILE: ca,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'app',
      KAFKA_SASL_PASSWORD: 'pw',
    });
    expect(security).toMatchObject({
      protocol: 'SASL_SSL',
      ssl: { rejectUnauthorized: true, ca: [PEM] },
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'app', password: 'pw' },
      files: { ca },
    });
    expect(kafkajsSecurityOptions(security)).toEqual({
      ssl: security.ssl,
      sasl: { mechanism: 'scram-sha-512', username: 'app', password: 'pw' },
    });
  });

  it('SSL without a CA file trusts the public CAs (managed clusters)', () => {
    expect(kafkaSecurityFrom({ KAFKA_SECURITY_PROTOCOL: 'SSL' })).toEqual({
      protocol: 'SSL',
      ssl: { rejectUnauthorized: true },
      files: {},
    });
  });

  it('reads secrets from _FILE variables, without their trailing newline', () => {
    const security = kafkaSecurityFrom({
      KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME_FILE: file('user', 'app\n'),
      KAFKA_SASL_PASSWORD_FILE: file('password', 'secret\n'),
    });
    expect(security.sasl).toEqual({ mechanism: 'PLAIN', username: 'app', password: 'secret' });
  });

  it('mTLS: certificate, key and the key passphrase', () => {
    const security = kafkaSecurityFrom({
      KAFKA_SECURITY_PROTOCOL: 'SSL',
      KAFKA_SSL_CERT_FILE: file('client.crt', PEM),
      KAFKA_SSL_KEY_FILE: file('client.key', KEY),
      KAFKA_SSL_KEY_PASSWORD: 'kp',
    });
    expect(security.ssl).toMatchObject({ cert: PEM, key: KEY, passphrase: 'kp' });
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ['an unknown protocol', { KAFKA_SECURITY_PROTOCOL: 'TLS' }, /KAFKA_SECURITY_PROTOCOL must be one of/],
    [
      'SASL without a mechanism',
      { KAFKA_SECURITY_PROTOCOL: 'SASL_SSL' },
      /KAFKA_SASL_MECHANISM must be one of/,
    ],
    [
      'an unknown mechanism',
      { KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_MECHANISM: 'GSSAPI' },
      /KAFKA_SASL_MECHANISM .*"GSSAPI"/,
    ],
    [
      'SASL without a password',
      { KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_SASL_USERNAME: 'a' },
      /KAFKA_SASL_PASSWORD \(or KAFKA_SASL_PASSWORD_FILE\) is required/,
    ],
    [
      'a password given twice',
      {
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: 'a',
        KAFKA_SASL_PASSWORD: 'x',
        KAFKA_SASL_PASSWORD_FILE: '/x',
      },
      /KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE, not both/,
    ],
    [
      'a TLS file with PLAINTEXT',
      { KAFKA_SSL_CA_FILE: '/ca.pem' },
      /KAFKA_SSL_CA_FILE is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT/,
    ],
    [
      'SASL credentials with SSL',
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SASL_USERNAME: 'a' },
      /KAFKA_SASL_USERNAME is set but KAFKA_SECURITY_PROTOCOL is SSL/,
    ],
    [
      'a certificate without its key',
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: '/c.pem' },
      /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together/,
    ],
    [
      'a CA file that cannot be read',
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' },
      /KAFKA_SSL_CA_FILE=\/nonexistent\/ca.pem cannot be read: ENOENT/,
    ],
    [
      'a CA file without a certificate',
      { KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: file('empty.pem', 'nothing') },
      /KAFKA_SSL_CA_FILE=.* holds no PEM certificate/,
    ],
  ])('refuses %s, naming the variable', (_case, vars, message) => {
    expect(() => kafkaSecurityFrom(vars)).toThrow(KafkaSecuritySettingError);
    expect(() => kafkaSecurityFrom(vars)).toThrow(message);
  });
});

describe('kafkaSecurityFailure', () => {
  const security = kafkaSecurityFrom({
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256',
    KAFKA_SASL_USERNAME: 'app',
    KAFKA_SASL_PASSWORD: 'pw',
  });

  it('names the SASL settings for a refused login', () => {
    const error = Object.assign(new Error('SASL SCRAM SHA256 authentication failed'), {
      name: 'KafkaJSSASLAuthenticationError',
    });
    expect(kafkaSecurityFailure(error, security)).toMatch(/SCRAM-SHA-256 as "app".*KAFKA_SASL_PASSWORD/);
  });

  it('names the CA file for a certificate Node does not trust, through kafkajs wrappers', () => {
    const error = Object.assign(new Error('Connection error'), {
      name: 'KafkaJSNonRetriableError',
      cause: Object.assign(new Error('self-signed certificate in certificate chain'), {
        code: 'SELF_SIGNED_CERT_IN_CHAIN',
      }),
    });
    expect(kafkaSecurityFailure(error, security)).toMatch(
      /not trusted \(SELF_SIGNED_CERT_IN_CHAIN\).*KAFKA_SSL_CA_FILE/,
    );
  });

  it('says nothing for an outage (the caller waits for the cluster)', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9093'), { code: 'ECONNREFUSED' });
    expect(kafkaSecurityFailure(error, security)).toBeNull();
  });
});

describe('javaClientProperties (Kafka tools)', () => {
  it('writes the protocol, a PEM truststore, an inline PEM keystore and the JAAS line, escaped', () => {
    const ca = file('tools-ca.pem', PEM);
    const properties = javaClientProperties(
      kafkaSecurityFrom({
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SSL_CA_FILE: ca,
        KAFKA_SSL_CERT_FILE: file('tools.crt', PEM),
        KAFKA_SSL_KEY_FILE: file('tools.key', KEY),
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'ops',
        KAFKA_SASL_PASSWORD: 'p"w\\d',
      }),
    );
    expect(properties.split('\n')).toEqual([
      'security.protocol=SASL_SSL',
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${ca}`,
      'ssl.keystore.type=PEM',
      'ssl.keystore.certificate.chain=-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----',
      'ssl.keystore.key=-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----',
      'sasl.mechanism=SCRAM-SHA-512',
      'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="ops" password="p\\\\"w\\\\\\\\d";',
      '',
    ]);
  });
});
