import fs from 'node:fs';
import path from 'node:path';
import {
  allTopicSpecs,
  deadLetterTopicOf,
  KAFKA_APPS,
  KafkaApp,
  REQUEST_REPLY_TOPICS,
  replyTopicOf,
  TOPIC_ACCESS,
  TopicAccess,
  Topics,
  topicSpecsOf,
} from '@swapgw/contracts';
import { kafkaSettingsFromEnv, topicsToEnsure } from '@swapgw/messaging';
import { parseAllDocuments } from 'yaml';
import { aclRulesOf, kafkaUserOf, renderUsersManifest, USERS_MANIFEST_PATH } from './topics-manifest';

const root = path.resolve(__dirname, '..', '..');

/** The app's own sources: no tests, no test helpers. */
function sourcesOf(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesOf(full));
    else if (entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name))
      out.push({ file: path.relative(root, full), text: fs.readFileSync(full, 'utf8') });
  }
  return out;
}

const TOPIC_BY_KEY = Topics as Record<string, string>;
const topicOf = (key: string): string => {
  const topic = TOPIC_BY_KEY[key];
  if (!topic) throw new Error(`Topics.${key} is not a topic of libs/contracts`);
  return topic;
};
const matchesOf = (text: string, pattern: RegExp): RegExpExecArray[] => [...text.matchAll(pattern)];
/** `[Topics.a, Topics.b]`, or a constant of libs/contracts naming a list of topics. */
function topicList(expression: string): string[] {
  if (expression.trim() === 'REQUEST_REPLY_TOPICS') return [...REQUEST_REPLY_TOPICS];
  return matchesOf(expression, /Topics\.(\w+)/g).map((m) => topicOf(m[1]));
}

// The group names the libraries give per instance: the ACL prefixes hang on these spellings.
const lib = (file: string) => fs.readFileSync(path.join(root, 'libs/messaging/src', file), 'utf8');
const REPLY_GROUP_SUFFIX = /`\$\{settings\.clientId\}\.replies\.\$\{settings\.instanceId\}`/;
const HEARTBEAT_GROUP_SUFFIX =
  /`\$\{this\.settings\.clientId\}\.heartbeats\.\$\{this\.settings\.instanceId\}-/;

/**
 * What an app's code does on Kafka, read from its sources as a reviewer would: the handlers it
 * declares, the request-reply client it configures, the messages it writes (outbox messages,
 * commands), its heartbeats and the consumer groups its bootstrap and config name.
 */
function accessFromCode(app: KafkaApp, added: string[] = []): TopicAccess & { referenced: string[] } {
  const files = [
    ...sourcesOf(path.join(root, 'apps', app, 'src')),
    ...added.map((text, i) => ({ file: `added-${i}.ts`, text })),
  ];
  const all = files.map((f) => f.text).join('\n');
  const reads = new Set<string>();
  const writes = new Set<string>();
  const groups = new Set<string>();
  const prefixes = new Set<string>();
  const consume = (topic: string) => (reads.add(topic), writes.add(deadLetterTopicOf(topic)));

  // Responders answer on the reply twin and dead-letter what they cannot handle.
  for (const [, key] of matchesOf(all, /@MessagePattern\(\s*Topics\.(\w+)\s*\)/g)) {
    consume(topicOf(key));
    writes.add(replyTopicOf(topicOf(key)));
  }
  for (const [, key] of matchesOf(all, /@TopicEvents\(\s*Topics\.(\w+)\s*\)/g)) consume(topicOf(key));
  // A StandaloneGroupConsumer's topics (a constant list of the same file).
  for (const { text } of files.filter((f) => f.text.includes('new StandaloneGroupConsumer('))) {
    for (const [, name] of matchesOf(text, /\btopics:\s*(\w+)/g)) {
      const list = new RegExp(`const ${name}\\s*=\\s*\\[([^\\]]*)\\]`).exec(text);
      if (!list) throw new Error(`the topics of a StandaloneGroupConsumer (${name}) are not a constant list`);
      topicList(list[1]).forEach(consume);
    }
  }
  // The request-reply client: writes the requests, reads the replies in groups of its own.
  const clientId = /clientId:\s*(?:'([^']+)'|SERVICE_NAME)/.exec(all);
  const serviceName = /export const SERVICE_NAME = '([^']+)'/.exec(all)?.[1];
  const client = clientId?.[1] ?? serviceName;
  for (const [, expression] of matchesOf(all, /requestTopics:\s*(\[[^\]]*\]|\w+)/g)) {
    for (const topic of topicList(expression)) {
      writes.add(topic);
      reads.add(replyTopicOf(topic));
    }
    expect(lib('request-reply/request-reply.client.ts')).toMatch(REPLY_GROUP_SUFFIX);
    prefixes.add(`${client}.replies.`);
  }
  // Messages written directly or through the outbox: `topic: Topics.x`, `.send(Topics.x`, an injected topic.
  for (const [, key] of matchesOf(all, /(?:\btopic:|useValue:|\.send\(|topic: string =)\s*Topics\.(\w+)/g))
    writes.add(topicOf(key));
  // A Kafka service's bootstrap: heartbeats, and the group its handlers consume in.
  const main = fs.readFileSync(path.join(root, 'apps', app, 'src/main.ts'), 'utf8');
  if (main.includes('bootstrapKafkaService(')) {
    expect(lib('bootstrap/bootstrap-kafka-service.ts')).toContain('new HeartbeatPublisher(');
    expect(lib('heartbeat/heartbeat-publisher.ts')).toContain('topic: Topics.serviceHeartbeats');
    writes.add(Topics.serviceHeartbeats);
    const group = /groupId:\s*(?:'([^']+)'|(SERVICE_NAME))/.exec(main);
    if (!group) throw new Error(`${app}/src/main.ts names no groupId`);
    groups.add(group[1] ?? serviceName!);
    // Its consumer lanes, each in a group of its own: `<groupId>-<name>`.
    for (const [, lane] of matchesOf(all, /\{\s*name:\s*'([^']+)',\s*topics:/g))
      groups.add(`${group[1] ?? serviceName!}-${lane}`);
  }
  // The gateway's groups are settings (KAFKA_GROUP_ID, WEBHOOK_KAFKA_GROUP_ID): their defaults.
  for (const [, , name] of matchesOf(all, /\b(\w*GROUP_ID): string = '([^']+)'/g)) groups.add(name);
  if (all.includes('new HeartbeatMonitor(')) {
    expect(lib('heartbeat/heartbeat-monitor.ts')).toMatch(HEARTBEAT_GROUP_SUFFIX);
    reads.add(Topics.serviceHeartbeats);
    prefixes.add(`${client}.heartbeats.`);
  }
  const referenced = [...new Set(matchesOf(all, /\bTopics\.(\w+)/g).map((m) => topicOf(m[1])))].sort();
  return {
    writes: [...writes].sort(),
    reads: [...reads].sort(),
    groups: [...groups].sort(),
    groupPrefixes: [...prefixes].sort(),
    referenced,
  };
}

describe('TOPIC_ACCESS (libs/contracts) against the apps’ code', () => {
  it.each(KAFKA_APPS)(
    '%s: the topics and consumer groups its code uses are exactly the declared ones',
    (app) => {
      const { referenced, ...derived } = accessFromCode(app);
      expect(derived).toEqual(TOPIC_ACCESS[app]);
      // Any topic the code names at all (a call, a list, a handler map) is one it is granted.
      const granted = [...TOPIC_ACCESS[app].reads, ...TOPIC_ACCESS[app].writes];
      expect(referenced.filter((topic) => !granted.includes(topic))).toEqual([]);
    },
  );

  // The same reading of the code with one more file in the app: each new use of Kafka shows up.
  it.each([
    [
      'a handler of another topic',
      'quote-service',
      `@TopicEvents(Topics.swapEvents) onSwap() {}`,
      'reads',
      'swap.events',
    ],
    [
      'an outbox message',
      'signer-surface',
      `return { topic: Topics.limitOrderEvents, type, payload };`,
      'writes',
      'limit-order.events',
    ],
    [
      'a request to another service',
      'execution-planner',
      `requestTopics: [Topics.catalogRequests],`,
      'reads',
      'catalog.requests.reply',
    ],
    [
      'a responder',
      'limit-order-service',
      `@MessagePattern(Topics.signingRequests)`,
      'writes',
      'signing.requests.reply',
    ],
  ] as const)('sees %s that the ACLs lack (%s)', (_, app, source, side, topic) => {
    const { referenced: _referenced, ...derived } = accessFromCode(app, [source]);
    expect(TOPIC_ACCESS[app][side]).not.toContain(topic);
    expect(derived[side]).toContain(topic);
    expect(derived).not.toEqual(TOPIC_ACCESS[app]);
  });
});

describe('topicSpecsOf / topicsToEnsure', () => {
  it('every topic of the suite is used by some app, and each app ensures only its own when it does not manage topics', () => {
    const used = new Set(KAFKA_APPS.flatMap((app) => topicSpecsOf(app).map((s) => s.name)));
    expect([...used].sort()).toEqual(
      allTopicSpecs()
        .map((s) => s.name)
        .sort(),
    );
    const unmanaged = { ...kafkaSettingsFromEnv('x', {}), manageTopics: false };
    const managed = { ...unmanaged, manageTopics: true };
    expect(topicsToEnsure(unmanaged, 'quote-service').map((s) => s.name)).toEqual([
      'catalog.requests',
      'catalog.requests.reply',
      'catalog.requests.dlq',
      'quote.requests',
      'quote.requests.reply',
      'quote.requests.dlq',
      'quote.checks',
      'quote.checks.reply',
      'quote.checks.dlq',
      'service.heartbeats',
    ]);
    expect(topicsToEnsure(managed, 'quote-service')).toEqual(allTopicSpecs());
    expect(topicsToEnsure(unmanaged, 'some-tool')).toEqual(allTopicSpecs());
  });
});

describe('deploy/kafka/users.yaml', () => {
  const docs = () =>
    parseAllDocuments(fs.readFileSync(path.join(root, USERS_MANIFEST_PATH), 'utf8'))
      .map((d) => d.toJSON())
      .filter((d) => d !== null);

  it('matches libs/contracts/src/topics/topic-access.ts (run `npm run topics:manifest` after changing it)', () => {
    expect(fs.readFileSync(path.join(root, USERS_MANIFEST_PATH), 'utf8')).toBe(renderUsersManifest());
  });

  it('has one SCRAM-SHA-512 KafkaUser per app, in the apps’ namespace', () => {
    expect(docs().map((d) => [d.apiVersion, d.kind, d.metadata.name, d.metadata.namespace])).toEqual(
      KAFKA_APPS.map((app) => ['kafka.strimzi.io/v1', 'KafkaUser', kafkaUserOf(app), 'swapgw']),
    );
    for (const doc of docs()) expect(doc.spec.authentication).toEqual({ type: 'scram-sha-512' });
  });

  it('lets each app read only what it reads and write only what it writes', () => {
    const byUser = new Map(docs().map((d) => [d.metadata.name, d.spec.authorization]));
    const can = (app: KafkaApp, operation: string, type: string, name: string) =>
      byUser
        .get(kafkaUserOf(app))
        .acls.some(
          (acl: any) =>
            acl.resource.type === type &&
            (acl.resource.patternType === 'prefix'
              ? name.startsWith(acl.resource.name)
              : acl.resource.name === name) &&
            acl.operations.includes(operation),
        );
    expect(byUser.get(kafkaUserOf('gateway')).type).toBe('simple');
    // The gateway sends build commands but never writes the planner's events.
    expect(can('gateway', 'Write', 'topic', 'swap.commands')).toBe(true);
    expect(can('gateway', 'Write', 'topic', 'swap.events')).toBe(false);
    expect(can('gateway', 'Read', 'topic', 'swap.events')).toBe(true);
    // Only the signer reads signing commands; the planner writes them.
    expect(can('signer-surface', 'Read', 'topic', 'signing.commands')).toBe(true);
    expect(can('execution-planner', 'Read', 'topic', 'signing.commands')).toBe(false);
    expect(can('execution-planner', 'Write', 'topic', 'signing.commands')).toBe(true);
    // Reply groups per instance, and no app may join another app's group.
    expect(can('gateway', 'Read', 'group', 'gateway.replies.gateway-7d9f-0.3')).toBe(true);
    expect(can('gateway', 'Delete', 'group', 'gateway.replies.gateway-7d9f-0.3')).toBe(true);
    expect(can('quote-service', 'Read', 'group', 'execution-planner')).toBe(false);
    // No topic creation: the apps run with KAFKA_MANAGE_TOPICS=false.
    for (const app of KAFKA_APPS)
      for (const rule of aclRulesOf(TOPIC_ACCESS[app])) expect(rule.operations).not.toContain('Create');
  });
});
