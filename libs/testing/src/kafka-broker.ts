import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { repoRoot } from './test-env';

const execFileAsync = promisify(execFile);
const KAFKA_CLI = path.join(repoRoot, 'tools', 'kafka', 'kafka.mjs');

export interface KafkaBroker {
  /** `127.0.0.1:<port>`, for KAFKA_BROKERS. */
  brokers: string;
  port: number;
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

/**
 * Starts a private, fresh KRaft broker through tools/kafka (the same code `npm start` and
 * `npm test` use) on free ports with a temporary data directory. For tests that need a broker of
 * their own, e.g. to stop it under a running app.
 */
export async function startKafkaBroker(options: { port?: number } = {}): Promise<KafkaBroker> {
  const port = options.port ?? (await freeConsecutivePorts());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-kafka-'));
  await runKafkaCli(['start', '--port', String(port), '--data-dir', dataDir]);
  return {
    brokers: `127.0.0.1:${port}`,
    port,
    dataDir,
    async stop() {
      await runKafkaCli(['stop', '--data-dir', dataDir]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async halt() {
      await runKafkaCli(['stop', '--data-dir', dataDir]);
    },
    async resume() {
      await runKafkaCli(['start', '--port', String(port), '--data-dir', dataDir]);
    },
  };
}

/** A free port whose successor is free too (the broker's controller listens on port + 1). */
async function freeConsecutivePorts(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
  throw new Error('no two consecutive free ports found');
}

async function isFree(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
