import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { repoRoot, testEnv } from '@swapgw/testing';

// `npm run kafka -- topics|consumer-groups|get-offsets ...`: Kafka's own Java tools (kafka-tools from
// Maven Central) on the fetched classpath, against the test broker. Also the runbook's replay with
// them: an idle group rewound with `consumer-groups --reset-offsets --to-earliest --execute`.

const execFileAsync = promisify(execFile);
const KAFKA_CLI = path.join(repoRoot, 'tools', 'kafka', 'kafka.mjs');
const { kafkaBrokers, brokers } = testEnv();

/** Runs `kafka.mjs <args>` with KAFKA_BROKERS set (the default --bootstrap-server); resolves with stdout. */
async function kafkaCli(
  args: string[],
  env: Record<string, string> = { KAFKA_BROKERS: kafkaBrokers },
): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [KAFKA_CLI, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return stdout;
}

/** Rows of the tables ConsumerGroupCommand prints (header line first), split on white space. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length > 3);
}

describe('npm run kafka -- <Kafka tool>', () => {
  const kafka = new Kafka({ clientId: 'kafka-tools-test', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const topic = `kafka-tools-test-${randomUUID()}`;
  const group = `kafka-tools-test-group-${randomUUID()}`;

  beforeAll(async () => {
    await admin.connect();
  });

  afterAll(async () => {
    await admin.deleteGroups([group]).catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('topics --create, --list and --describe, on KAFKA_BROKERS or the --bootstrap-server given', async () => {
    expect(
      await kafkaCli([
        'topics',
        '--create',
        '--topic',
        topic,
        '--partitions',
        '2',
        '--replication-factor',
        '1',
      ]),
    ).toContain(`Created topic ${topic}.`);
    expect((await kafkaCli(['topics', '--list'])).split('\n')).toContain(topic);
    // An explicit --bootstrap-server wins over the default (here a port where nothing listens).
    const described = await kafkaCli(
      ['topics', '--describe', '--topic', topic, '--bootstrap-server', kafkaBrokers],
      {
        KAFKA_BROKERS: '127.0.0.1:1',
      },
    );
    expect(described).toMatch(new RegExp(`Topic: ${topic}\\s+TopicId: \\S+\\s+PartitionCount: 2`));
  });

  it('consumer-groups --describe and --reset-offsets --to-earliest --execute rewind an idle group; get-offsets', async () => {
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({
        topic,
        messages: Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: `m${i}` })),
      });
    } finally {
      await producer.disconnect();
    }
    const ends = await admin.fetchTopicOffsets(topic);
    // The group has consumed everything (committed at the end of each partition), as after a run.
    await admin.setOffsets({
      groupId: group,
      topic,
      partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
    });

    expect((await kafkaCli(['consumer-groups', '--list'])).split('\n')).toContain(group);
    const described = tableRows(await kafkaCli(['consumer-groups', '--describe', '--group', group]));
    expect(described[0].slice(0, 6)).toEqual([
      'GROUP',
      'TOPIC',
      'PARTITION',
      'CURRENT-OFFSET',
      'LOG-END-OFFSET',
      'LAG',
    ]);
    const rows = described
      .slice(1)
      .map(([g, t, partition, current, end, lag]) => ({ g, t, partition, current, end, lag }));
    expect(rows.sort((a, b) => Number(a.partition) - Number(b.partition))).toEqual(
      ends
        .sort((a, b) => a.partition - b.partition)
        .map((p) => ({
          g: group,
          t: topic,
          partition: String(p.partition),
          current: p.high,
          end: p.high,
          lag: '0',
        })),
    );

    const offsets = (await kafkaCli(['get-offsets', '--topic', topic])).trim().split('\n').sort();
    expect(offsets).toEqual(ends.map((p) => `${topic}:${p.partition}:${p.high}`).sort());

    const reset = tableRows(
      await kafkaCli([
        'consumer-groups',
        '--reset-offsets',
        '--group',
        group,
        '--topic',
        topic,
        '--to-earliest',
        '--execute',
      ]),
    );
    expect(reset[0]).toEqual(['GROUP', 'TOPIC', 'PARTITION', 'NEW-OFFSET']);
    expect(reset.slice(1).map((r) => r[3])).toEqual(['0', '0']);
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    expect(committed.partitions.map((p) => p.offset)).toEqual(['0', '0']);
  });

  it('run <ClassName> runs any class of the classpath with its arguments as given', async () => {
    const out = await kafkaCli([
      'run',
      'org.apache.kafka.tools.ClusterTool',
      'cluster-id',
      '--bootstrap-server',
      kafkaBrokers,
    ]);
    expect(out).toMatch(/^Cluster ID: \S+/m);
  });
});

describe('startKafka', () => {
  /** Runs startKafka(options) in a child process; resolves with what it printed (`started` or the error). */
  async function startKafkaWith(options: Record<string, unknown>): Promise<string> {
    const script =
      `import { startKafka } from ${JSON.stringify(KAFKA_CLI)};` +
      `try { const k = await startKafka(${JSON.stringify(options)}); console.log(k.started ? 'started' : 'reused ' + k.brokers); }` +
      ` catch (error) { console.log('failed: ' + error.message); }`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    return stdout;
  }

  it('uses a broker already on the port, unless asked for a broker of its own (test and bench runs)', async () => {
    const port = Number(brokers[0].split(':').pop());
    const dataDir = path.join(os.tmpdir(), `kafka-reuse-${randomUUID()}`);
    expect(await startKafkaWith({ port, useEnv: false, dataDir })).toContain(`reused 127.0.0.1:${port}`);
    expect(await startKafkaWith({ port, useEnv: false, dataDir, reuseRunning: false })).toContain(
      `failed: port ${port} is already in use`,
    );
  });
});
