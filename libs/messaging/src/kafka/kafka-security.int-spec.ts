import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka } from 'kafkajs';
import { Topics } from '@swapgw/contracts';
import { repoRoot, SecuredKafkaBroker, startApp, startSecuredKafkaBroker, waitFor } from '@swapgw/testing';
import { ensureTopics } from './ensure-topics';
import { checkKafkaSecurity, kafkaHealth } from './kafka-health';
import { KafkaSecuritySettingError } from './kafka-security';
import { kafkaClientConfig, kafkaSettingsFromEnv, KafkaSettings } from './kafka-settings';

// Kafka over TLS and SASL, against a broker of the suite's own Kafka distribution started with
// SASL_SSL, SASL_PLAINTEXT and mutual-TLS listeners and certificates made for this run.

const execFileAsync = promisify(execFile);
let secured: SecuredKafkaBroker;

beforeAll(async () => {
  secured = await startSecuredKafkaBroker();
}, 180_000);

afterAll(async () => {
  await secured?.stop();
});

/** The variables an operator sets for the SASL_SSL listener, as the apps read them. */
function saslSslEnv(user: { username: string; password: string }, mechanism: string): Record<string, string> {
  return {
    KAFKA_BROKERS: secured.listeners.saslSsl,
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SSL_CA_FILE: secured.certificates.caFile,
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: user.username,
    KAFKA_SASL_PASSWORD: user.password,
  };
}

/** Produces one message and reads it back with a consumer group, both through kafkaClientConfig. */
async function roundTrip(settings: KafkaSettings): Promise<string> {
  const topic = `itest.secured.${randomUUID()}`;
  await ensureTopics(settings, [{ name: topic, partitions: 1 }]);
  const kafka = new Kafka(kafkaClientConfig(settings));
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `itest-secured-${randomUUID()}` });
  try {
    await producer.connect();
    const value = `hello ${randomUUID()}`;
    await producer.send({ topic, messages: [{ value }], acks: -1 });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received = new Promise<string>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) });
    });
    expect(await received).toBe(value);
    return value;
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
}

describe('Kafka clients over SASL_SSL', () => {
  it.each([
    ['PLAIN', () => secured.users.plain],
    ['SCRAM-SHA-256', () => secured.users.scramSha256],
    ['SCRAM-SHA-512', () => secured.users.scramSha512],
  ])(
    'with %s: the security check passes, topics are made, a message goes through',
    async (mechanism, user) => {
      const settings = kafkaSettingsFromEnv('itest-secured', saslSslEnv(user(), mechanism));
      await expect(checkKafkaSecurity(settings)).resolves.toBeUndefined();
      await expect(kafkaHealth(settings)).resolves.toMatchObject({ ok: true });
      await roundTrip(settings);
    },
  );

  it('reads the password from a file (a mounted Secret), trailing newline dropped', async () => {
    const passwordFile = path.join(secured.certificates.dir, 'sasl-password');
    fs.writeFileSync(passwordFile, `${secured.users.scramSha512.password}\n`);
    const { KAFKA_SASL_PASSWORD: _inline, ...env } = saslSslEnv(secured.users.scramSha512, 'SCRAM-SHA-512');
    const settings = kafkaSettingsFromEnv('itest-secured', {
      ...env,
      KAFKA_SASL_PASSWORD_FILE: passwordFile,
    });
    await roundTrip(settings);
  });

  it('over SASL_PLAINTEXT too', async () => {
    const settings = kafkaSettingsFromEnv('itest-secured', {
      KAFKA_BROKERS: secured.listeners.saslPlaintext,
      KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256',
      KAFKA_SASL_USERNAME: secured.users.scramSha256.username,
      KAFKA_SASL_PASSWORD: secured.users.scramSha256.password,
    });
    await roundTrip(settings);
  });

  it('a wrong password is a setting to fix, named, not an outage to wait out', async () => {
    const settings = kafkaSettingsFromEnv('itest-secured', {
      ...saslSslEnv(secured.users.scramSha256, 'SCRAM-SHA-256'),
      KAFKA_SASL_PASSWORD: 'not-the-password',
    });
    const check = checkKafkaSecurity(settings);
    await expect(check).rejects.toThrow(KafkaSecuritySettingError);
    await expect(check).rejects.toThrow(/KAFKA_SASL_PASSWORD/);
  });

  it('a broker certificate the CA file does not trust is named as KAFKA_SSL_CA_FILE', async () => {
    const settings = kafkaSettingsFromEnv('itest-secured', {
      ...saslSslEnv(secured.users.plain, 'PLAIN'),
      KAFKA_SSL_CA_FILE: secured.certificates.otherCaFile,
    });
    await expect(checkKafkaSecurity(settings)).rejects.toThrow(/not trusted.*KAFKA_SSL_CA_FILE/);
  });
});

describe('Kafka clients over mutual TLS', () => {
  const mtlsEnv = (): Record<string, string> => ({
    KAFKA_BROKERS: secured.listeners.mutualTls,
    KAFKA_SECURITY_PROTOCOL: 'SSL',
    KAFKA_SSL_CA_FILE: secured.certificates.caFile,
  });

  it('with a client certificate: connects, produces and consumes', async () => {
    const settings = kafkaSettingsFromEnv('itest-mtls', {
      ...mtlsEnv(),
      KAFKA_SSL_CERT_FILE: secured.certificates.clientCertFile,
      KAFKA_SSL_KEY_FILE: secured.certificates.clientKeyFile,
    });
    await expect(checkKafkaSecurity(settings)).resolves.toBeUndefined();
    await roundTrip(settings);
  });

  it('without one: the broker refuses, and the check names KAFKA_SSL_CERT_FILE', async () => {
    const settings = kafkaSettingsFromEnv('itest-mtls', mtlsEnv());
    await expect(checkKafkaSecurity(settings)).rejects.toThrow(/client certificate.*KAFKA_SSL_CERT_FILE/);
  });
});

describe('the apps and tools on a secured cluster', () => {
  const limitOrderEnv = () => saslSslEnv(secured.users.scramSha512, 'SCRAM-SHA-512');

  it('a Kafka service connects over SASL_SSL, consumes (ready) and produces (its heartbeats)', async () => {
    const app = await startApp('limit-order-service', { env: limitOrderEnv() });
    try {
      const settings = kafkaSettingsFromEnv('itest-heartbeats', limitOrderEnv());
      const kafka = new Kafka(kafkaClientConfig(settings));
      const consumer = kafka.consumer({ groupId: `itest-heartbeats-${randomUUID()}` });
      await consumer.connect();
      await consumer.subscribe({ topic: Topics.serviceHeartbeats, fromBeginning: true });
      const beats: string[] = [];
      void consumer.run({ eachMessage: async ({ message }) => void beats.push(String(message.value)) });
      try {
        await waitFor(() => beats.some((b) => b.includes(app.instanceId)) || undefined, {
          timeoutMs: 30_000,
          description: "the service's heartbeat on the secured cluster",
        });
      } finally {
        await consumer.disconnect();
      }
      expect(app.logs()).toMatch(/"saslMechanism":"SCRAM-SHA-512"/);
    } finally {
      await app.stop();
    }
  }, 120_000);

  it('a Kafka service with a wrong password stops with the setting named and is never ready', async () => {
    await expect(
      startApp('limit-order-service', {
        env: { ...limitOrderEnv(), KAFKA_SASL_PASSWORD: 'wrong' },
        readyTimeoutMs: 60_000,
      }),
    ).rejects.toThrow(/exited before it was ready[\s\S]*KAFKA_SASL_PASSWORD/);
  }, 90_000);

  it('the gateway with an untrusted broker certificate stops with KAFKA_SSL_CA_FILE named', async () => {
    await expect(
      startApp('gateway', {
        env: { ...limitOrderEnv(), KAFKA_SSL_CA_FILE: secured.certificates.otherCaFile },
        readyTimeoutMs: 60_000,
      }),
    ).rejects.toThrow(/exited before it was ready[\s\S]*KAFKA_SSL_CA_FILE/);
  }, 90_000);

  it('a contradictory setting stops the gateway at config load, naming it', async () => {
    await expect(
      startApp('gateway', {
        env: { KAFKA_SECURITY_PROTOCOL: 'PLAINTEXT', KAFKA_SASL_USERNAME: 'someone' },
        readyTimeoutMs: 30_000,
      }),
    ).rejects.toThrow(
      /exited before it was ready[\s\S]*KAFKA_SASL_USERNAME is set but KAFKA_SECURITY_PROTOCOL is PLAINTEXT/,
    );
  }, 60_000);

  it.each([
    ['SASL_SSL with SCRAM-SHA-512', () => limitOrderEnv()],
    [
      'mutual TLS (an inline PEM keystore)',
      () => ({
        KAFKA_BROKERS: secured.listeners.mutualTls,
        KAFKA_SECURITY_PROTOCOL: 'SSL',
        KAFKA_SSL_CA_FILE: secured.certificates.caFile,
        KAFKA_SSL_CERT_FILE: secured.certificates.clientCertFile,
        KAFKA_SSL_KEY_FILE: secured.certificates.clientKeyFile,
      }),
    ],
  ])(
    "Kafka's own tools (npm run kafka) take the same variables: %s",
    async (_case, envOf) => {
      const env: Record<string, string> = envOf();
      const topic = `itest.secured.cli.${randomUUID()}`;
      await ensureTopics(kafkaSettingsFromEnv('itest-cli', env), [{ name: topic, partitions: 1 }]);
      const { stdout } = await execFileAsync(
        process.execPath,
        [path.join(repoRoot, 'tools', 'kafka', 'kafka.mjs'), 'topics', '--list'],
        { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 120_000 },
      );
      expect(stdout.split('\n')).toContain(topic);
    },
    150_000,
  );
});
