import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FaultProxy } from './fault-proxy';
import { freeConsecutivePorts } from './free-port';
import { repoRoot } from './test-env';

const execFileAsync = promisify(execFile);
const KAFKA_CLI = path.join(repoRoot, 'tools', 'kafka', 'kafka.mjs');

export interface KafkaBroker {
  /** `127.0.0.1:<advertised port>`, for KAFKA_BROKERS. */
  brokers: string;
  /** The port the broker listens on. */
  port: number;
  /** The port its metadata sends clients to (`port` unless a proxy stands in front). */
  advertisedPort: number;
  dataDir: string;
  /** Stops the broker and removes its data directory. */
  stop(): Promise<void>;
  /** Stops the broker process and keeps its data: an outage that `resume` ends (fault tests). */
  halt(): Promise<void>;
  /** Starts the halted broker again on the same port with the same data (topics, offsets, groups). */
  resume(): Promise<void>;
}

async function runKafkaCli(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [KAFKA_CLI, ...args], {
    cwd: repoRoot,
    // The CLI must start its own broker here, not adopt the cluster of the surrounding test run.
    env: { ...process.env, KAFKA_BROKERS: '' },
    timeout: 180_000,
  });
  return stdout.trim();
}

export interface StartKafkaBrokerOptions {
  /** Listen port (default: a free one whose successor, the controller's, is free too). */
  port?: number;
  /** Port advertised to clients instead of `port`: a proxy's that forwards to `port`. */
  advertisedPort?: number;
  /** Broker properties added to the development broker's (more listeners: TLS, SASL). */
  extraConfig?: string;
  /** SCRAM users created with the storage, e.g. `SCRAM-SHA-256=[name=app,password=secret]`. */
  scramUsers?: string[];
}

/**
 * Starts a private, fresh KRaft broker through tools/kafka (the same code `npm start` and
 * `npm test` use) on free ports with a temporary data directory. For tests that need a broker of
 * their own, e.g. to stop it under a running app.
 */
export async function startKafkaBroker(options: StartKafkaBrokerOptions = {}): Promise<KafkaBroker> {
  if (options.port !== undefined) return startKafkaBrokerOn(options.port, options);
  return retryOnPortClash(async () => startKafkaBrokerOn(await freeConsecutivePorts(), options));
}

/**
 * `start()` again, up to three times, while it fails because a port was taken. Free ports are
 * probed, not held: another process (a devnet started alongside, another suite) may bind one, the
 * controller's above all, before the broker does. `start` chooses its ports afresh each time.
 */
export async function retryOnPortClash<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3 || !/Address already in use|is already in use/.test(String(error))) throw error;
    }
  }
}

async function startKafkaBrokerOn(port: number, options: StartKafkaBrokerOptions): Promise<KafkaBroker> {
  const advertisedPort = options.advertisedPort ?? port;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-kafka-'));
  const startArgs = [
    'start',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--advertised-port',
    String(advertisedPort),
  ];
  if (options.extraConfig) {
    const extraFile = path.join(dataDir, 'extra.properties');
    fs.writeFileSync(extraFile, options.extraConfig);
    startArgs.push('--extra-config', extraFile);
  }
  for (const user of options.scramUsers ?? []) startArgs.push('--add-scram', user);
  try {
    await runKafkaCli(startArgs);
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    brokers: `127.0.0.1:${advertisedPort}`,
    port,
    advertisedPort,
    dataDir,
    async stop() {
      await runKafkaCli(['stop', '--data-dir', dataDir]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async halt() {
      await runKafkaCli(['stop', '--data-dir', dataDir]);
    },
    async resume() {
      await runKafkaCli(startArgs);
    },
  };
}

export interface ProxiedKafkaBroker {
  /** `brokers` is the proxy's address: bootstrap and every broker connection go through it. */
  broker: KafkaBroker;
  proxy: FaultProxy;
  /** Stops the broker (removing its data) and the proxy. */
  stop(): Promise<void>;
}

/**
 * A private broker behind a FaultProxy of its own: the broker listens on a free port and
 * advertises the proxy's, so clients that bootstrap through the proxy are sent back to it by the
 * metadata and no connection bypasses it. For fault tests that add latency or cut connections.
 */
export async function startKafkaBrokerBehindProxy(): Promise<ProxiedKafkaBroker> {
  // The proxy listens first, so the broker's free ports cannot be the one it took.
  const proxy = await new FaultProxy().start();
  try {
    const broker = await retryOnPortClash(async () => {
      const port = await freeConsecutivePorts();
      proxy.setTarget({ host: '127.0.0.1', port });
      return startKafkaBroker({ port, advertisedPort: proxy.port });
    });
    return {
      broker,
      proxy,
      async stop() {
        await broker.stop();
        await proxy.stop();
      },
    };
  } catch (error) {
    await proxy.stop();
    throw error;
  }
}
