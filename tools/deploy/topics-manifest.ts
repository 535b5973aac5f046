// Message classes in @swapgw/contracts use decorators that read reflected metadata.
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { allTopicSpecs, TopicSpec } from '@swapgw/contracts';

/** Where the generated manifest lives, committed so reviewers see topic changes in diffs. */
export const TOPICS_MANIFEST_PATH = path.join('deploy', 'kafka', 'topics.yaml');

/** Replication factor for production clusters (three brokers, two in sync). */
const REPLICAS = 3;
const MIN_IN_SYNC = '2';

/**
 * Renders every topic of libs/contracts as a Strimzi `KafkaTopic` (the operator most Kubernetes
 * Kafka installs use), one YAML document each. Deterministic: the same specs give the same text.
 */
export function renderTopicsManifest(specs: TopicSpec[] = allTopicSpecs(), cluster = 'swapgw-kafka'): string {
  const header = [
    '# Generated from libs/contracts/src/topics/topics.ts by `npm run topics:manifest`: do not edit.',
    '# Strimzi KafkaTopic resources in the Kafka cluster namespace; apps also create missing topics at boot.',
  ];
  const docs = specs.map((spec) => {
    const config: Record<string, string> = { 'min.insync.replicas': MIN_IN_SYNC, ...spec.config };
    return [
      'apiVersion: kafka.strimzi.io/v1beta2',
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

/** Kubernetes names allow lower-case letters, digits, '-' and '.', which topic names already use. */
export function resourceNameOf(topic: string): string {
  return topic.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
}

function main(): void {
  const root = path.resolve(
    __dirname,
    '..',
    '..',
    ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
  );
  const target = path.join(root, TOPICS_MANIFEST_PATH);
  const text = renderTopicsManifest();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== text) {
      process.stderr.write(`${TOPICS_MANIFEST_PATH} is out of date: run \`npm run topics:manifest\`\n`);
      process.exit(1);
    }
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  process.stdout.write(`wrote ${TOPICS_MANIFEST_PATH} (${allTopicSpecs().length} topics)\n`);
}

if (require.main === module) main();
