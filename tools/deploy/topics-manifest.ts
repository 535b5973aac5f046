// Message classes in @swapgw/contracts use decorators that read reflected metadata.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { allTopicSpecs, KAFKA_APPS, KafkaApp, TOPIC_ACCESS, TopicAccess, TopicSpec } from '@swapgw/contracts';

/** Where the generated manifests live, committed so reviewers see topic and ACL changes in diffs. */
export const TOPICS_MANIFEST_PATH = path.join('deploy', 'kafka', 'topics.yaml');
export const USERS_MANIFEST_PATH = path.join('deploy', 'kafka', 'users.yaml');

/** The Strimzi API of both kinds: `kafka.strimzi.io/v1` (v1beta2 is deprecated since 0.49, gone in 1.0). */
export const STRIMZI_API_VERSION = 'kafka.strimzi.io/v1';
export const KAFKA_CLUSTER = 'swapgw-kafka';
/** Namespace of the apps, their KafkaUsers and the Secrets the User Operator writes for them. */
export const APPS_NAMESPACE = 'swapgw';

/** Replication factor for production clusters (three brokers, two in sync). */
const REPLICAS = 3;
const MIN_IN_SYNC = '2';

const GENERATED = 'by `npm run topics:manifest`: do not edit.';

/**
 * Renders every topic of libs/contracts as a Strimzi `KafkaTopic` (the operator most Kubernetes
 * Kafka installs use), one YAML document each. Deterministic: the same specs give the same text.
 */
export function renderTopicsManifest(specs: TopicSpec[] = allTopicSpecs(), cluster = KAFKA_CLUSTER): string {
  const header = [
    `# Generated from libs/contracts/src/topics/topics.ts ${GENERATED}`,
    '# Strimzi KafkaTopic resources in the Kafka cluster namespace (deploy/kafka/kustomization.yaml), applied',
    '# by the operator before the apps, which run with KAFKA_MANAGE_TOPICS=false and create none.',
  ];
  const docs = specs.map((spec) => {
    const config: Record<string, string> = { 'min.insync.replicas': MIN_IN_SYNC, ...spec.config };
    return [
      `apiVersion: ${STRIMZI_API_VERSION}`,
      'kind: KafkaTopic',
      'metadata:',
      `  name: ${resourceNameOf(spec.name)}`,
      '  namespace: kafka',
      '  labels:',
      `    strimzi.io/cluster: ${cluster}`,
      'spec:',
      `  topicName: ${spec.name}`,
      `  partitions: ${spec.partitions}`,
      `  replicas: ${REPLICAS}`,
      '  config:',
      ...Object.keys(config)
        .sort()
        .map((key) => `    ${key}: "${config[key]}"`),
    ].join('\n');
  });
  return `${header.join('\n')}\n---\n${docs.join('\n---\n')}\n`;
}

/** The KafkaUser (and so the SASL user name and the credentials Secret) of an app. */
export const kafkaUserOf = (app: KafkaApp): string => `swapgw-${app}`;

interface AclRule {
  resource: { type: 'topic' | 'group'; name: string; patternType: 'literal' | 'prefix' };
  operations: string[];
}

/**
 * An app's ACL rules: Describe + Read on the topics it reads, Describe + Write on those it writes
 * (one rule when both), Describe + Read on its consumer groups, and on the groups it names per
 * instance (a prefix) Delete as well, since the request-reply client deletes the groups it replaced.
 * No Create: the apps run with KAFKA_MANAGE_TOPICS=false. No cluster IdempotentWrite: the producers
 * are not idempotent (kafkajs default), and no transactionalId: there are no transactions.
 */
export function aclRulesOf(access: TopicAccess): AclRule[] {
  const topics = [...new Set([...access.reads, ...access.writes])].sort();
  const topicRules = topics.map<AclRule>((name) => ({
    resource: { type: 'topic', name, patternType: 'literal' },
    operations: [
      'Describe',
      ...(access.reads.includes(name) ? ['Read'] : []),
      ...(access.writes.includes(name) ? ['Write'] : []),
    ],
  }));
  const groupRules = [
    ...access.groups.map<AclRule>((name) => ({
      resource: { type: 'group', name, patternType: 'literal' },
      operations: ['Describe', 'Read'],
    })),
    ...access.groupPrefixes.map<AclRule>((name) => ({
      resource: { type: 'group', name, patternType: 'prefix' },
      operations: ['Delete', 'Describe', 'Read'],
    })),
  ];
  return [...topicRules, ...groupRules];
}

/**
 * One Strimzi `KafkaUser` per app: SCRAM-SHA-512 authentication (the User Operator writes the
 * password into a Secret of the same name, which the app mounts and reads through
 * KAFKA_SASL_PASSWORD_FILE) and `simple` authorization with the rules of `aclRulesOf`.
 */
export function renderUsersManifest(
  accessByApp: Record<KafkaApp, TopicAccess> = TOPIC_ACCESS,
  cluster = KAFKA_CLUSTER,
): string {
  const header = [
    `# Generated from libs/contracts/src/topics/topic-access.ts ${GENERATED}`,
    `# Strimzi KafkaUser resources, one per app, in the apps' namespace (${APPS_NAMESPACE}): the User Operator`,
    `# (watchedNamespace: ${APPS_NAMESPACE}) writes each user's SCRAM-SHA-512 password into a Secret of the`,
    '# same name there, and grants the app only the topics and consumer groups it uses.',
  ];
  const docs = KAFKA_APPS.map((app) => {
    const lines = [
      `apiVersion: ${STRIMZI_API_VERSION}`,
      'kind: KafkaUser',
      'metadata:',
      `  name: ${kafkaUserOf(app)}`,
      `  namespace: ${APPS_NAMESPACE}`,
      '  labels:',
      `    strimzi.io/cluster: ${cluster}`,
      `    app.kubernetes.io/name: ${app}`,
      `    app.kubernetes.io/part-of: swapgw`,
      'spec:',
      '  authentication:',
      '    type: scram-sha-512',
      '  authorization:',
      '    type: simple',
      '    acls:',
    ];
    for (const rule of aclRulesOf(accessByApp[app])) {
      lines.push(
        '      - resource:',
        `          type: ${rule.resource.type}`,
        `          name: ${rule.resource.name}`,
        `          patternType: ${rule.resource.patternType}`,
        `        operations: [${rule.operations.join(', ')}]`,
      );
    }
    return lines.join('\n');
  });
  return `${header.join('\n')}\n---\n${docs.join('\n---\n')}\n`;
}

/** Kubernetes names allow lower-case letters, digits, '-' and '.', which topic names already use. */
export function resourceNameOf(topic: string): string {
  return topic.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
}

/** Every generated manifest, by path: what `--check` compares and the default run writes. */
export function kafkaManifests(): Record<string, string> {
  return { [TOPICS_MANIFEST_PATH]: renderTopicsManifest(), [USERS_MANIFEST_PATH]: renderUsersManifest() };
}

function main(): void {
  const root = path.resolve(
    __dirname,
    '..',
    '..',
    ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
  );
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [file, text] of Object.entries(kafkaManifests())) {
    const target = path.join(root, file);
    if (check) {
      const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
      if (current !== text) {
        process.stderr.write(`${file} is out of date: run \`npm run topics:manifest\`\n`);
        stale = true;
      }
      continue;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    process.stdout.write(`wrote ${file}\n`);
  }
  if (stale) process.exit(1);
}

if (require.main === module) main();
