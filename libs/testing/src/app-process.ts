import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './free-port';
import { kafkaAppEnv, kafkaAppUsersFromEnv } from './kafka-acls';
import { devnetThornodeEnv, repoRoot, testEnv } from './test-env';
import { waitFor } from './wait-for';

export const APP_NAMES = [
  'quote-service',
  'execution-planner',
  'signer-surface',
  'limit-order-service',
  'gateway',
] as const;
export type AppName = (typeof APP_NAMES)[number];

export interface StartAppOptions {
  /** Extra or overriding environment variables (PORT, HEALTH_PORT, INSTANCE_ID ... are chosen when absent). */
  env?: Record<string, string>;
  /** URL that answers 200 once the app is ready (default: gateway /api/v1/health, others /health/ready). */
  healthUrl?: string;
  /** Script to run instead of dist/apps/<app>/src/main.js (harness tests). */
  entry?: string;
  /** How long to wait for the health URL (default 90 s). */
  readyTimeoutMs?: number;
  /** Distinguishes several instances of one app (log file name, INSTANCE_ID). */
  instance?: string;
}

export interface AppHandle {
  readonly app: string;
  readonly instanceId: string;
  /** The environment the process runs with (ports included). */
  readonly env: Record<string, string>;
  /** Gateway: http://127.0.0.1:<PORT>/api/v1; other apps: http://127.0.0.1:<HEALTH_PORT>. */
  readonly baseUrl: string;
  /** Prometheus metrics: gateway http://127.0.0.1:<METRICS_PORT>/metrics; other apps <baseUrl>/metrics. */
  readonly metricsUrl: string;
  readonly healthUrl: string;
  readonly logFile: string;
  /** pid of the current process (changes on restart). */
  pid(): number | undefined;
  running(): boolean;
  /** SIGTERM, then SIGKILL when it has not exited within `graceMs` (default 15 s). */
  stop(graceMs?: number): Promise<void>;
  /** Sends a signal (e.g. SIGKILL for crash tests) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it if running, starts it again with the same environment and ports, waits until ready. */
  restart(): Promise<void>;
  /** Everything the process wrote to stdout and stderr since the handle was created. */
  logs(): string;
}

export function appEntry(app: string): string {
  return path.join(repoRoot, 'dist', 'apps', app, 'src', 'main.js');
}

export function appIsBuilt(app: string): boolean {
  return fs.existsSync(appEntry(app));
}

/**
 * Starts one app from the swc build as a child process on free ports and waits until its health
 * URL answers 200. The process gets the test infrastructure of `testEnv()` unless overridden.
 */
export async function startApp(app: string, options: StartAppOptions = {}): Promise<AppHandle> {
  const entry = options.entry ?? appEntry(app);
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const infra = testEnv();
  const instanceId =
    options.instance ?? options.env?.INSTANCE_ID ?? `${app}-${process.pid}-${Date.now().toString(36)}`;
  // On a broker that enforces ACLs (KAFKA_APP_USERS_FILE) the app connects as its own KafkaUser,
  // unless the test names a broker of its own (then its security is the test's to give).
  const kafkaUser = options.env?.KAFKA_BROKERS === undefined ? kafkaAppEnv(app, kafkaAppUsersFromEnv()) : {};
  const env: Record<string, string> = {
    ...infra.env,
    LOG_LEVEL: 'log',
    INSTANCE_ID: instanceId,
    ...kafkaUser,
    ...(app === 'quote-service' || app === 'execution-planner'
      ? devnetThornodeEnv(infra.devnetManifest)
      : {}),
    ...options.env,
  };
  const isGateway = app === 'gateway';
  if (isGateway) {
    env.PORT ??= String(await freePort());
    env.METRICS_PORT ??= String(await freePort());
    env.HOST ??= '127.0.0.1';
    // The test stack's webhook receivers are local http servers (development flag of the gateway).
    env.WEBHOOK_ALLOW_LOOPBACK_HTTP ??= 'true';
  }
  env.HEALTH_PORT ??= String(await freePort());
  const baseUrl = isGateway ? `http://127.0.0.1:${env.PORT}/api/v1` : `http://127.0.0.1:${env.HEALTH_PORT}`;
  const metricsUrl = isGateway ? `http://127.0.0.1:${env.METRICS_PORT}/metrics` : `${baseUrl}/metrics`;
  const healthUrl = options.healthUrl ?? (isGateway ? `${baseUrl}/health` : `${baseUrl}/health/ready`);
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;

  const logDir = path.join(infra.runDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${instanceId}.log`);
  const chunks: string[] = [];
  let child: ChildProcess | undefined;
  let exit: Promise<void> = Promise.resolve();

  const spawnChild = () => {
    const out = fs.createWriteStream(logFile, { flags: 'a' });
    const proc = spawn(process.execPath, ['--enable-source-maps', entry], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const capture = (data: Buffer) => {
      chunks.push(data.toString());
      out.write(data);
    };
    proc.stdout?.on('data', capture);
    proc.stderr?.on('data', capture);
    exit = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        chunks.push(`[harness] ${instanceId} exited (code ${code}, signal ${signal})\n`);
        out.end();
        resolve();
      }),
    );
    child = proc;
  };

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const waitReady = async () => {
    try {
      const outcome = await waitFor(
        async () => {
          // An exited process ends the wait at once instead of polling a dead port until the timeout.
          if (!running()) return 'exited' as const;
          const response = await fetch(healthUrl, { signal: AbortSignal.timeout(2000) });
          return response.status === 200 ? ('ready' as const) : undefined;
        },
        { timeoutMs: readyTimeoutMs, intervalMs: 250, description: `${app} ready at ${healthUrl}` },
      );
      if (outcome === 'exited') throw new Error(`${app} exited before it was ready`);
    } catch (error) {
      await handle.kill('SIGKILL');
      await exit;
      throw new Error(
        `${(error as Error).message}\n--- ${app} log (${logFile}) ---\n${tailOf(chunks.join(''), 60)}`,
        { cause: error },
      );
    }
  };

  const handle: AppHandle = {
    app,
    instanceId,
    env,
    baseUrl,
    metricsUrl,
    healthUrl,
    logFile,
    pid: () => child?.pid,
    running,
    async stop(graceMs = 15_000) {
      if (!running()) return;
      child?.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const gone = await Promise.race([
        exit.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (!gone) await handle.kill('SIGKILL');
    },
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (!running()) return;
      child?.kill(signal);
      await exit;
    },
    async restart() {
      await handle.stop();
      spawnChild();
      await waitReady();
    },
    logs: () => chunks.join(''),
  };

  spawnChild();
  await waitReady();
  return handle;
}

function tailOf(text: string, lines: number): string {
  return text.split('\n').slice(-lines).join('\n');
}
