import { randomUUID } from 'node:crypto';
import { Consumer, Kafka, KafkaConfig, logLevel } from 'kafkajs';
import { Topics, replyTopicOf } from '@swapgw/contracts';
import {
  AclKafkaBroker,
  kafkaAclDenials,
  kafkaAppEnv,
  KafkaAppUsers,
  startAclKafkaBroker,
  waitFor,
} from '@swapgw/testing';
import { ensureTopics } from './ensure-topics';
import { kafkaClientConfig, kafkaSettingsFromEnv } from './kafka-settings';

// The ACLs of deploy/kafka/users.yaml, enforced by a real broker (StandardAuthorizer, no access
// without an ACL): an app's user is refused what its KafkaUser does not grant, and does what it
// grants with the same connection settings. On a private broker: the messages written here must not
// reach the apps that later read the run's topics from the beginning.

let acl: AclKafkaBroker;
let appUsers: KafkaAppUsers;

beforeAll(async () => {
  acl = await startAclKafkaBroker();
  appUsers = acl.appUsers;
  // The topics are the operator's to create (the apps have no Create), here the super user's.
  const adminSettings = kafkaSettingsFromEnv('itest-acls-admin', { KAFKA_BROKERS: acl.broker.brokers });
  await ensureTopics(adminSettings);
  // A fresh broker creates and loads __consumer_offsets on the first group it is asked about; until
  // then every group answers "the coordinator is loading". Wait for that here, as the super user, so
  // the tests see only what the ACLs decide.
  const admin = new Kafka(kafkaClientConfig(adminSettings)).admin();
  await admin.connect();
  try {
    await waitFor(
      async () => {
        await admin.describeGroups(['itest-acls-coordinator-loaded']);
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: "the broker's group coordinator loaded" },
    );
  } finally {
    await admin.disconnect();
  }
}, 180_000);

afterAll(async () => {
  await acl?.stop();
});

/**
 * A client of `app`'s KafkaUser, configured as the app configures its own. Its retries wait out a
 * new topic's leader; a refusal is final, never retried. `onBrokerError` hears the error codes the
 * client logs, at debug level too.
 */
function clientOf(app: string, onBrokerError?: (type: string) => void): Kafka {
  const settings = kafkaSettingsFromEnv(`itest-acls-${app}`, kafkaAppEnv(app, appUsers));
  const logs: Partial<KafkaConfig> = onBrokerError
    ? {
        logLevel: logLevel.DEBUG,
        logCreator:
          () =>
          ({ log }) => {
            const type = kafkaErrorType(log.error);
            if (type) onBrokerError(type);
          },
      }
    : {};
  return new Kafka(kafkaClientConfig(settings, logs));
}

/** The Kafka error code of a kafkajs error, however deep its wrappers put it. */
function kafkaErrorType(error: unknown): string | undefined {
  const e = error as { type?: string; cause?: unknown } | undefined;
  return e?.type ?? (e?.cause ? kafkaErrorType(e.cause) : undefined);
}

async function sendAs(app: string, topic: string, value: string): Promise<string | undefined> {
  const producer = clientOf(app).producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ value }], acks: -1 });
    return undefined;
  } catch (error) {
    return kafkaErrorType(error) ?? (error as Error).message;
  } finally {
    await producer.disconnect();
  }
}

/**
 * Joins `groupId` as `app` on `topic`; resolves with the first message `until` accepts, or with
 * the error the consumer crashed with and the error codes the broker answered meanwhile (kafkajs
 * reports a refused FindCoordinator as "Failed to find group coordinator", the broker's code in
 * its debug log only).
 */
async function consumeAs(
  app: string,
  groupId: string,
  topic: string,
  until: (value: string) => boolean,
): Promise<{ value?: string; error?: string; brokerErrors?: string[] }> {
  const brokerErrors: string[] = [];
  const consumer: Consumer = clientOf(app, (type) => brokerErrors.push(type)).consumer({ groupId });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    return await new Promise((resolve) => {
      const crashed = (error: Error) => resolve({ error: error.message, brokerErrors });
      consumer.on(consumer.events.CRASH, ({ payload }) => crashed(payload.error));
      consumer
        .run({
          eachMessage: async ({ message }) => {
            const value = String(message.value);
            if (until(value)) resolve({ value });
          },
        })
        .catch(crashed);
    });
  } finally {
    await consumer.disconnect();
  }
}

describe('Kafka ACLs of deploy/kafka/users.yaml on a broker that enforces them', () => {
  it('quote-service may write its replies, and not a topic only the gateway and limit-order-service write', async () => {
    expect(await sendAs('quote-service', replyTopicOf(Topics.quoteRequests), `reply ${randomUUID()}`)).toBe(
      undefined,
    );
    // No ACL at all on swap.commands: the topic is not even described to it.
    expect(await sendAs('quote-service', Topics.swapCommands, 'build')).toBe('TOPIC_AUTHORIZATION_FAILED');
    // The broker names the user and what it was refused (what the e2e teardown looks for).
    expect(kafkaAclDenials(appUsers).join('\n')).toMatch(
      /User:swapgw-quote-service is Denied operation = DESCRIBE .* on resource = Topic:LITERAL:swap\.commands/,
    );
  });

  it('quote-service reads its requests but may not write them (Read and Write are separate grants)', async () => {
    expect(await sendAs('quote-service', Topics.quoteRequests, 'a request')).toBe(
      'TOPIC_AUTHORIZATION_FAILED',
    );
    // Its requesters may.
    expect(await sendAs('limit-order-service', Topics.quoteRequests, `request ${randomUUID()}`)).toBe(
      undefined,
    );
  });

  it('the gateway reads replies in a group of its prefix; quote-service may join neither that group nor the gateway’s', async () => {
    const value = `reply ${randomUUID()}`;
    expect(await sendAs('quote-service', replyTopicOf(Topics.quoteRequests), value)).toBe(undefined);
    const replyGroup = `gateway.replies.itest-acls-${randomUUID()}`;
    expect(
      await consumeAs('gateway', replyGroup, replyTopicOf(Topics.quoteRequests), (v) => v === value),
    ).toEqual({ value });

    // quote-service may read catalog.requests, but only in its own group.
    for (const group of [replyGroup, 'gateway']) {
      const refused = await consumeAs('quote-service', group, Topics.catalogRequests, () => true);
      expect(refused.value).toBeUndefined();
      expect(refused.brokerErrors).toContain('GROUP_AUTHORIZATION_FAILED');
    }
  });
});
