import fs from 'node:fs';
import { freePortsBesides } from './free-port';
import { freeConsecutivePorts } from './free-port';
import { KafkaBroker, retryOnPortClash, startKafkaBroker } from './kafka-broker';
import { makeTestCertificates, TestCertificates } from './test-certificates';

export interface SecuredKafkaBroker {
  broker: KafkaBroker;
  certificates: TestCertificates;
  /** `127.0.0.1:<port>` of each listener. */
  listeners: { plaintext: string; saslSsl: string; saslPlaintext: string; mutualTls: string };
  /** SASL users: PLAIN (from the broker's JAAS config) and SCRAM (created with the storage). */
  users: {
    plain: { username: string; password: string };
    scramSha256: { username: string; password: string };
    scramSha512: { username: string; password: string };
  };
  stop(): Promise<void>;
}

/**
 * A private broker of the same Kafka distribution as the suite's, with the listeners a secured
 * cluster has: SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), SASL_PLAINTEXT, and SSL with client
 * certificates required (mTLS), beside the PLAINTEXT listener the broker talks to itself on.
 */
export async function startSecuredKafkaBroker(): Promise<SecuredKafkaBroker> {
  const certificates = makeTestCertificates();
  const users = {
    plain: { username: 'plain-app', password: 'plain-app-secret' },
    scramSha256: { username: 'scram256-app', password: 'scram256-app-secret' },
    scramSha512: { username: 'scram512-app', password: 'scram512-app-secret' },
  };
  const scramModule = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  const plainModule = `org.apache.kafka.common.security.plain.PlainLoginModule required user_${users.plain.username}="${users.plain.password}";`;
  const saslListenerConfig = (listener: string) => [
    `listener.name.${listener}.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512`,
    `listener.name.${listener}.plain.sasl.jaas.config=${plainModule}`,
    `listener.name.${listener}.scram-sha-256.sasl.jaas.config=${scramModule}`,
    `listener.name.${listener}.scram-sha-512.sasl.jaas.config=${scramModule}`,
  ];
  const extraConfig = (port: number, saslSsl: number, saslPlaintext: number, mutualTls: number) =>
    [
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${port + 1},SASL_SSL://127.0.0.1:${saslSsl},SASL_PLAINTEXT://127.0.0.1:${saslPlaintext},SSL://127.0.0.1:${mutualTls}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port},SASL_SSL://127.0.0.1:${saslSsl},SASL_PLAINTEXT://127.0.0.1:${saslPlaintext},SSL://127.0.0.1:${mutualTls}`,
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL',
      ...saslListenerConfig('sasl_ssl'),
      ...saslListenerConfig('sasl_plaintext'),
      'ssl.keystore.type=PKCS12',
      `ssl.keystore.location=${certificates.serverKeystoreFile}`,
      `ssl.keystore.password=${certificates.keystorePassword}`,
      `ssl.key.password=${certificates.keystorePassword}`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${certificates.caFile}`,
      'listener.name.ssl.ssl.client.auth=required',
      '',
    ].join('\n');
  const { broker, port, saslSsl, saslPlaintext, mutualTls } = await retryOnPortClash(async () => {
    const port = await freeConsecutivePorts();
    const [saslSsl, saslPlaintext, mutualTls] = await freePortsBesides(3, [port, port + 1]);
    const broker = await startKafkaBroker({
      port,
      extraConfig: extraConfig(port, saslSsl, saslPlaintext, mutualTls),
      scramUsers: [
        `SCRAM-SHA-256=[name=${users.scramSha256.username},password=${users.scramSha256.password}]`,
        `SCRAM-SHA-512=[name=${users.scramSha512.username},password=${users.scramSha512.password}]`,
      ],
    });
    return { broker, port, saslSsl, saslPlaintext, mutualTls };
  });
  return {
    broker,
    certificates,
    listeners: {
      plaintext: `127.0.0.1:${port}`,
      saslSsl: `127.0.0.1:${saslSsl}`,
      saslPlaintext: `127.0.0.1:${saslPlaintext}`,
      mutualTls: `127.0.0.1:${mutualTls}`,
    },
    users,
    async stop() {
      await broker.stop();
      fs.rmSync(certificates.dir, { recursive: true, force: true });
    },
  };
}
