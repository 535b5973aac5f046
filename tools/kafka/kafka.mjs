#!/usr/bin/env node
// Apache Kafka from Maven Central: one KRaft broker on 127.0.0.1 for development and tests, and
// Kafka's own command-line tools (org.apache.kafka:kafka-tools, same version) against any cluster.
//
//   node tools/kafka/kafka.mjs fetch                 download the broker and tools jars into .cache/kafka/libs
//   node tools/kafka/kafka.mjs start [--port 9092] [--data-dir .run/kafka] [--advertised-port N]
//   node tools/kafka/kafka.mjs stop  [--data-dir .run/kafka]
//   node tools/kafka/kafka.mjs status [--port 9092] [--data-dir .run/kafka]
//   node tools/kafka/kafka.mjs topics|consumer-groups|get-offsets|... <the tool's own options>
//   node tools/kafka/kafka.mjs run <fully.qualified.ClassName> <args>
// The tools get `--bootstrap-server <KAFKA_BROKERS, else 127.0.0.1:KAFKA_PORT (9092)>` unless the
// arguments name a --bootstrap-server or --bootstrap-controller; `run` passes its arguments as they are.
//
// Plain Node (no npm dependencies): it runs before `npm ci` on a fresh clone. The functions are
// exported for tools/stack/start.mjs, tools/stack/test.mjs and libs/testing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useProjectNode } from '../stack/node-runtime.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const DEFAULT_PORT = 9092;
export const DEFAULT_DATA_DIR = path.join(repoRoot, '.run', 'kafka');
export const DEFAULT_LIBS_DIR = path.join(repoRoot, '.cache', 'kafka', 'libs');
const POM = path.join(here, 'pom.xml');
const TEMPLATE = path.join(here, 'server.properties.template');
const LOG4J2 = path.join(here, 'log4j2.yaml');
const TOOLS_LOG4J2 = path.join(here, 'tools-log4j2.yaml');
/** The Kafka version of pom.xml: the broker and the tools jars the cache must hold. */
export const KAFKA_VERSION = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(
  fs.readFileSync(POM, 'utf8'),
)[1];
const BROKER_JAR = `kafka_2.13-${KAFKA_VERSION}.jar`;
const TOOLS_JAR = `kafka-tools-${KAFKA_VERSION}.jar`;

const log = (msg) => process.stderr.write(`kafka: ${msg}\n`);

/** True when the cache holds the broker and the tools jars of KAFKA_VERSION (a previous fetch completed). */
function libsPresent(libsDir) {
  return fs.existsSync(path.join(libsDir, BROKER_JAR)) && fs.existsSync(path.join(libsDir, TOOLS_JAR));
}

/**
 * Downloads the broker, the tools and their runtime dependencies with Maven, once. Copies into a
 * temporary directory first and renames it, so a concurrent or interrupted fetch never leaves half
 * a cache. A cache of the same Kafka version without the tools (fetched before they were added)
 * only gains the missing jars, the tools jar last: brokers running from it keep their files.
 */
export function fetchKafka({ libsDir = DEFAULT_LIBS_DIR } = {}) {
  if (libsPresent(libsDir)) return Promise.resolve(libsDir);
  // Brokers started side by side in one process (npm test's two sets) share one fetch: their
  // staging directory is named after the process.
  let fetching = fetchesInFlight.get(libsDir);
  if (!fetching) {
    fetching = fetchKafkaNow(libsDir).finally(() => fetchesInFlight.delete(libsDir));
    fetchesInFlight.set(libsDir, fetching);
  }
  return fetching;
}

/** The fetch of each cache directory in flight in this process. */
const fetchesInFlight = new Map();

async function fetchKafkaNow(libsDir) {
  await exec('mvn', ['-v']).catch(() => {
    throw new Error('Maven (mvn) is needed to fetch Kafka from Maven Central: install Maven and Java 17+.');
  });
  const staging = `${libsDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  log(
    `fetching org.apache.kafka:kafka_2.13 and kafka-tools ${KAFKA_VERSION} from Maven Central into ${displayPath(libsDir)}`,
  );
  try {
    await exec(
      'mvn',
      [
        '-q',
        '-B',
        '-f',
        POM,
        'dependency:copy-dependencies',
        '-DincludeScope=runtime',
        `-DoutputDirectory=${staging}`,
      ],
      { inherit: true },
    );
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  fs.mkdirSync(path.dirname(libsDir), { recursive: true });
  try {
    if (fs.existsSync(path.join(libsDir, BROKER_JAR))) addMissingJars(staging, libsDir);
    else {
      // Nothing yet, or another Kafka version: the new cache replaces it whole.
      if (fs.existsSync(libsDir)) fs.renameSync(libsDir, `${libsDir}.old-${process.pid}`);
      fs.renameSync(staging, libsDir);
    }
  } catch (error) {
    // Another process finished first: its cache is as good as ours.
    if (!libsPresent(libsDir)) throw error;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(`${libsDir}.old-${process.pid}`, { recursive: true, force: true });
  }
  return libsDir;
}

/** Copies the jars of `from` that `to` lacks, each under a temporary name then renamed; the tools jar last. */
function addMissingJars(from, to) {
  const missing = fs
    .readdirSync(from)
    .filter((f) => !fs.existsSync(path.join(to, f)))
    .sort((a, b) => Number(a === TOOLS_JAR) - Number(b === TOOLS_JAR));
  for (const file of missing) {
    const partial = path.join(to, `.${file}.${process.pid}.partial`);
    fs.copyFileSync(path.join(from, file), partial);
    fs.renameSync(partial, path.join(to, file));
  }
}

export function isPortOpen(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Asks the broker for cluster metadata (Kafka protocol Metadata v4, the oldest version Kafka 4
 * still serves) and returns the brokers it lists. A broker that answers with at least one broker
 * registered is ready for clients; a port that is open but not yet serving throws.
 */
export function fetchMetadata(port, host = '127.0.0.1', timeoutMs = 3000) {
  return new Promise((resolve, reject) => {
    const clientId = Buffer.from('swapgw-kafka-probe');
    const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4 + 1);
    let o = 0;
    o = body.writeInt16BE(3, o); // api key: Metadata
    o = body.writeInt16BE(4, o); // api version
    o = body.writeInt32BE(1, o); // correlation id
    o = body.writeInt16BE(clientId.length, o);
    o += clientId.copy(body, o);
    o = body.writeInt32BE(-1, o); // topics: null = all
    body.writeInt8(0, o); // allow_auto_topic_creation: false
    const frame = Buffer.concat([Buffer.alloc(4), body]);
    frame.writeInt32BE(body.length, 0);

    const socket = net.connect({ port, host });
    let received = Buffer.alloc(0);
    const fail = (error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no metadata answer from ${host}:${port}`)));
    socket.once('error', fail);
    socket.once('connect', () => socket.write(frame));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4 || received.length < 4 + received.readInt32BE(0)) return;
      socket.destroy();
      try {
        let p = 4;
        const correlationId = received.readInt32BE(p);
        p += 4;
        if (correlationId !== 1) throw new Error(`unexpected correlation id ${correlationId}`);
        p += 4; // throttle_time_ms
        const brokerCount = received.readInt32BE(p);
        p += 4;
        const brokers = [];
        for (let i = 0; i < brokerCount; i++) {
          const nodeId = received.readInt32BE(p);
          p += 4;
          const hostLength = received.readInt16BE(p);
          p += 2;
          const brokerHost = received.toString('utf8', p, p + hostLength);
          p += hostLength;
          const brokerPort = received.readInt32BE(p);
          p += 4;
          const rackLength = received.readInt16BE(p);
          p += 2 + Math.max(rackLength, 0);
          brokers.push({ nodeId, host: brokerHost, port: brokerPort });
        }
        resolve(brokers);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Polls until the broker on `port` serves metadata with a registered broker, or throws. */
export async function waitForBroker(port, { timeoutMs = 90_000, isAlive = () => true, logFile } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    if (!isAlive()) {
      throw new Error(
        `Kafka exited during start-up${logFile ? `; last log lines:\n${tail(logFile, 30)}` : ''}`,
      );
    }
    try {
      const brokers = await fetchMetadata(port);
      if (brokers.length > 0) return brokers;
      lastError = new Error('no broker registered yet');
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Kafka on 127.0.0.1:${port} not ready after ${timeoutMs} ms: ${lastError?.message}`);
}

function displayPath(p) {
  const relative = path.relative(repoRoot, p);
  return relative.startsWith('..') ? p : relative;
}

function tail(file, lines) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Runs a command and resolves with its stdout. Asynchronous on purpose: the JVM tools take seconds
 * and callers (npm test) start the database and devnet meanwhile on the same event loop.
 */
function exec(command, args, { inherit = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.once('error', (error) => reject(new Error(`${command} not runnable: ${error.message}`)));
    // 'close', not 'exit': the process may exit before its last output is read off the pipes.
    child.once('close', (code) => {
      if (code === 0) resolve(stdout.trim());
      else
        reject(
          new Error(`${command} ${args.slice(0, 6).join(' ')} failed (exit ${code}): ${stderr || stdout}`),
        );
    });
  });
}

function java(args) {
  return exec('java', args).catch((error) => {
    throw new Error(`${error.message}\n(Kafka needs Java 17+ on the PATH)`);
  });
}

function layout(dataDir) {
  return {
    dataDir,
    logDirs: path.join(dataDir, 'data'),
    config: path.join(dataDir, 'server.properties'),
    logsDir: path.join(dataDir, 'logs'),
    pidFile: path.join(dataDir, 'kafka.pid'),
    portFile: path.join(dataDir, 'kafka.port'),
  };
}

export function renderConfig({ port, controllerPort, advertisedPort = port, logDirs }) {
  return fs
    .readFileSync(TEMPLATE, 'utf8')
    .replaceAll('{{PORT}}', String(port))
    .replaceAll('{{ADVERTISED_PORT}}', String(advertisedPort))
    .replaceAll('{{CONTROLLER_PORT}}', String(controllerPort))
    .replaceAll('{{LOG_DIRS}}', logDirs);
}

function readPid(pidFile) {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is the broker of this data dir (not a recycled pid). */
function isOurBroker(pid, config) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(config);
  } catch {
    return true; // no /proc (macOS): trust the pid file
  }
}

/**
 * Makes a broker available and returns `{ brokers, started, pid, stop }`.
 * - KAFKA_BROKERS set (and `useEnv` not false): that cluster is used, nothing starts.
 * - A broker already answers on `port`: it is reused, nothing starts, `stop` does nothing.
 * - Otherwise the jars are fetched if needed, the data dir formatted when new, and a broker
 *   started detached (it outlives this process until `stop`), logs in <dataDir>/logs.
 *   `freshData`: its topics, messages and consumer offsets are deleted first (the logs stay), so
 *   the broker starts empty (`npm start` with a fresh devnet); a reused broker is never emptied.
 * `advertisedPort` (default `port`) is the port the broker's metadata sends clients to: fault tests
 * put a TCP proxy there, in front of `port`, so that every connection after the bootstrap goes
 * through the proxy too. The broker still listens on `port` only; readiness is probed there.
 */
export async function startKafka({
  port = Number(process.env.KAFKA_PORT || DEFAULT_PORT),
  controllerPort = port + 1,
  advertisedPort = port,
  dataDir = DEFAULT_DATA_DIR,
  libsDir = DEFAULT_LIBS_DIR,
  useEnv = true,
  heapMb = 512,
  timeoutMs = 120_000,
  // A broker already listening on `port` is used as it is; false: that is an error (a run that
  // wants a broker of its own must not share another run's, which that run will stop).
  reuseRunning = true,
  freshData = false,
  // Lines appended to the rendered server.properties (more listeners: TLS, SASL), and arguments
  // added to the storage format of a new data dir (`--add-scram` users). Tests of secured clients.
  extraConfig = '',
  formatArgs = [],
} = {}) {
  // Nothing to stop when this call did not start the broker.
  const noop = () => Promise.resolve();
  if (useEnv && process.env.KAFKA_BROKERS) {
    log(`using KAFKA_BROKERS=${process.env.KAFKA_BROKERS}`);
    return { brokers: process.env.KAFKA_BROKERS, started: false, stop: noop };
  }
  const brokers = `127.0.0.1:${port}`;
  if (await isPortOpen(port)) {
    if (!reuseRunning) throw new Error(`port ${port} is already in use`);
    await waitForBroker(port, { timeoutMs: 30_000 });
    log(`reusing the broker already listening on ${brokers}`);
    return { brokers, started: false, stop: noop };
  }

  await fetchKafka({ libsDir });
  const files = layout(path.resolve(dataDir));
  fs.mkdirSync(files.logsDir, { recursive: true });
  const stalePid = readPid(files.pidFile);
  if (stalePid && isOurBroker(stalePid, files.config)) {
    throw new Error(
      `a broker of ${files.dataDir} still runs (pid ${stalePid}) but not on port ${port}; stop it first`,
    );
  }
  if (freshData && fs.existsSync(files.logDirs)) {
    fs.rmSync(files.logDirs, { recursive: true, force: true });
    log(`deleted the data of ${displayPath(files.logDirs)} (topics, messages, consumer offsets)`);
  }
  fs.writeFileSync(
    files.config,
    renderConfig({ port, controllerPort, advertisedPort, logDirs: files.logDirs }) + extraConfig,
  );
  const classpath = `${libsDir}/*`;
  if (!fs.existsSync(path.join(files.logDirs, 'meta.properties'))) {
    const clusterId = (await java(['-cp', classpath, 'kafka.tools.StorageTool', 'random-uuid']))
      .split('\n')
      .pop();
    await java([
      '-cp',
      classpath,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      clusterId,
      '-c',
      files.config,
      '--standalone',
      ...formatArgs,
    ]);
    log(`formatted KRaft storage in ${files.logDirs} (cluster ${clusterId})`);
  }

  const outFile = path.join(files.logsDir, 'kafka.out');
  const out = fs.openSync(outFile, 'a');
  const child = spawn(
    'java',
    [
      `-Xmx${heapMb}m`,
      `-Xms${Math.min(heapMb, 256)}m`,
      '-XX:+UseG1GC',
      // The client JIT only (C1): this broker serves one machine for minutes to hours, and C2's
      // compiling, which runs while the first floods arrive, cost more CPU than its faster code
      // saved (bench/README.md, 2026-12-01: the broker's CPU in a 1,000-swap flood 7.8 s → 2.5 s,
      // and every other process faster for it on 2 cores).
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      `-Dkafka.logs.dir=${files.logsDir}`,
      `-Dlog4j2.configurationFile=${LOG4J2}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      files.config,
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  let exited = false;
  child.once('exit', () => (exited = true));
  child.unref();
  fs.writeFileSync(files.pidFile, String(child.pid));
  fs.writeFileSync(files.portFile, String(port));
  const advertised = advertisedPort === port ? '' : `, advertising 127.0.0.1:${advertisedPort}`;
  log(`started broker pid ${child.pid} on ${brokers}${advertised} (logs: ${displayPath(files.logsDir)})`);

  const stop = () => stopKafka({ dataDir: files.dataDir });
  try {
    await waitForBroker(port, {
      timeoutMs,
      isAlive: () => !exited,
      logFile: path.join(files.logsDir, 'server.log'),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { brokers, started: true, pid: child.pid, stop };
}

/** Stops the broker recorded in `<dataDir>/kafka.pid` (SIGTERM, then SIGKILL after the grace). */
export async function stopKafka({ dataDir = DEFAULT_DATA_DIR, graceMs = 30_000 } = {}) {
  const files = layout(path.resolve(dataDir));
  const pid = readPid(files.pidFile);
  if (!pid || !isOurBroker(pid, files.config)) {
    fs.rmSync(files.pidFile, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && isOurBroker(pid, files.config)) {
    await new Promise((r) => setTimeout(r, 200));
  }
  if (isOurBroker(pid, files.config)) {
    log(`broker pid ${pid} ignored SIGTERM for ${graceMs} ms, killing it`);
    process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(files.pidFile, { force: true });
  log(`stopped broker pid ${pid}`);
  return true;
}

export async function kafkaStatus({
  port = Number(process.env.KAFKA_PORT || DEFAULT_PORT),
  dataDir = DEFAULT_DATA_DIR,
} = {}) {
  const files = layout(path.resolve(dataDir));
  const pid = readPid(files.pidFile);
  const ours = pid !== undefined && isOurBroker(pid, files.config);
  let brokers = [];
  let error;
  if (await isPortOpen(port)) {
    try {
      brokers = await fetchMetadata(port);
    } catch (e) {
      error = e.message;
    }
  }
  return {
    port,
    listening: brokers.length > 0,
    brokers,
    pid: ours ? pid : undefined,
    libsCached: libsPresent(DEFAULT_LIBS_DIR),
    error,
  };
}

/**
 * Kafka's command-line tools, by the name of their script in Kafka's distribution without
 * `kafka-` and `.sh` (kafka-topics.sh is `topics`). All take --bootstrap-server.
 */
export const KAFKA_TOOLS = {
  topics: 'org.apache.kafka.tools.TopicCommand',
  'consumer-groups': 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
  'get-offsets': 'org.apache.kafka.tools.GetOffsetShell',
  'console-consumer': 'org.apache.kafka.tools.consumer.ConsoleConsumer',
  'console-producer': 'org.apache.kafka.tools.ConsoleProducer',
  configs: 'kafka.admin.ConfigCommand',
  'delete-records': 'org.apache.kafka.tools.DeleteRecordsCommand',
  'log-dirs': 'org.apache.kafka.tools.LogDirsCommand',
  'broker-api-versions': 'org.apache.kafka.tools.BrokerApiVersionsCommand',
  transactions: 'org.apache.kafka.tools.TransactionsCommand',
};

/** The cluster a tool talks to when its arguments name none: KAFKA_BROKERS, else the broker `npm start` runs. */
export function defaultBootstrapServer(env = process.env) {
  return env.KAFKA_BROKERS || `127.0.0.1:${Number(env.KAFKA_PORT || DEFAULT_PORT)}`;
}

/** `args` with `--bootstrap-server <default>` in front, unless they already say where the cluster is. */
export function withBootstrapServer(args, env = process.env) {
  const named = args.some((a) => /^--bootstrap-(server|controller)(=|$)/.test(a));
  return named ? args : ['--bootstrap-server', defaultBootstrapServer(env), ...args];
}

/** The option of each tool that takes a client properties file (the others: --command-config). */
const CLIENT_CONFIG_OPTION = {
  'console-consumer': '--consumer.config',
  'console-producer': '--producer.config',
};

/**
 * `args` with a client properties file made from the apps' Kafka security variables
 * (KAFKA_SECURITY_PROTOCOL, KAFKA_SSL_*, KAFKA_SASL_*; libs/messaging kafka-security.ts, compiled),
 * unless the security protocol is PLAINTEXT or the arguments already name a properties file.
 * Returns the arguments and a cleanup that deletes the file (it holds the SASL password).
 */
export function withClientSecurity(tool, args, env = process.env) {
  const option = CLIENT_CONFIG_OPTION[tool] ?? '--command-config';
  const protocol = (env.KAFKA_SECURITY_PROTOCOL ?? '').trim().toUpperCase();
  const named = args.some((a) => a === option || a.startsWith(`${option}=`));
  if (!protocol || protocol === 'PLAINTEXT' || named) return { args, cleanup: () => undefined };
  const compiled = path.join(repoRoot, 'dist', 'libs', 'messaging', 'src', 'kafka', 'kafka-security.js');
  if (!fs.existsSync(compiled)) throw new Error(`${compiled} is missing: run npm run build first`);
  const { kafkaSecurityFrom, javaClientProperties } = createRequire(import.meta.url)(compiled);
  const properties = javaClientProperties(kafkaSecurityFrom(env));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kafka-client-'));
  const file = path.join(dir, 'client.properties');
  fs.writeFileSync(file, properties, { mode: 0o600 });
  return {
    args: [...args, option, file],
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs one of Kafka's Java tools (a class with a main) on the fetched classpath, attached to this
 * terminal (stdin included: console-producer reads it), and resolves with its exit code. Ctrl-C
 * reaches the JVM from the terminal; a SIGINT or SIGTERM sent to this process only is passed on.
 */
export async function runKafkaTool(className, args, { libsDir = DEFAULT_LIBS_DIR } = {}) {
  await fetchKafka({ libsDir });
  const child = spawn(
    'java',
    [
      // As Kafka's kafka-run-class.sh for tools: a small heap; short-lived, so no JIT warm-up to wait for.
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${TOOLS_LOG4J2}`,
      '-cp',
      `${libsDir}/*`,
      className,
      ...args,
    ],
    { stdio: 'inherit' },
  );
  const forward = (signal) => child.exitCode === null && child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    return await new Promise((resolve, reject) => {
      child.once('error', (error) =>
        reject(new Error(`java not runnable: ${error.message}\n(Kafka's tools need Java 17+ on the PATH)`)),
      );
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : 15)));
    });
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}

const USAGE = `usage: kafka.mjs <command>
  the development broker:
    fetch                                             download the broker and tools jars (Maven Central)
    start [--port N] [--data-dir D] [--advertised-port N] [--extra-config F] [--add-scram MECH=[name=U,password=P]]...
                                                      (F: properties appended, e.g. TLS/SASL listeners;
                                                      --add-scram: SCRAM users of a new data dir)
    stop [--data-dir D]
    status [--port N] [--data-dir D]
  Kafka's tools (${KAFKA_VERSION}), with the tool's own options (--help lists them):
${Object.entries(KAFKA_TOOLS)
  .map(([name, className]) => `    ${name.padEnd(50)}${className}`)
  .join('\n')}
    run <fully.qualified.ClassName> [args]            any other class of the classpath, arguments as given
  The tools get --bootstrap-server KAFKA_BROKERS (else 127.0.0.1:KAFKA_PORT, 9092) unless given one,
  and a client properties file from KAFKA_SECURITY_PROTOCOL, KAFKA_SSL_* and KAFKA_SASL_* (as the apps).
  e.g. kafka.mjs consumer-groups --describe --group gateway`;

function parseArgs(argv) {
  const args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const value = eq < 0 ? argv[++i] : a.slice(eq + 1);
      // A repeated option (--add-scram) collects its values.
      args[key] = key in args ? [].concat(args[key], value) : value;
    } else args._.push(a);
  }
  return args;
}

async function main() {
  const [first, ...rest] = process.argv.slice(2);
  // The tools parse their own options: pass them through untouched.
  if (first && Object.hasOwn(KAFKA_TOOLS, first)) {
    const args = withBootstrapServer(rest);
    // The local default with nothing listening: say so now rather than let the tool retry for a minute.
    if (args !== rest && !process.env.KAFKA_BROKERS && !rest.includes('--help')) {
      const port = Number(process.env.KAFKA_PORT || DEFAULT_PORT);
      if (!(await isPortOpen(port))) {
        log(
          `no broker on 127.0.0.1:${port}: start one (npm start, npm run kafka -- start), or name the cluster with KAFKA_BROKERS or --bootstrap-server`,
        );
        process.exitCode = 1;
        return;
      }
    }
    const secured = withClientSecurity(first, args);
    try {
      process.exitCode = await runKafkaTool(KAFKA_TOOLS[first], secured.args);
    } finally {
      secured.cleanup();
    }
    return;
  }
  if (first === 'run') {
    const [className, ...toolArgs] = rest;
    if (!className || className.startsWith('-')) {
      log('usage: kafka.mjs run <fully.qualified.ClassName> [args]');
      process.exitCode = 2;
      return;
    }
    process.exitCode = await runKafkaTool(className, toolArgs);
    return;
  }
  const args = parseArgs(process.argv.slice(2));
  const command = args._[0];
  const port = args.port ? Number(args.port) : undefined;
  const dataDir = args['data-dir'] ? path.resolve(args['data-dir']) : undefined;
  const advertisedPort = args['advertised-port'] ? Number(args['advertised-port']) : undefined;
  switch (command) {
    case 'fetch':
      console.log(await fetchKafka());
      return;
    case 'start': {
      const extraConfig = args['extra-config'] ? `\n${fs.readFileSync(args['extra-config'], 'utf8')}` : '';
      const formatArgs = [].concat(args['add-scram'] ?? []).flatMap((user) => ['--add-scram', user]);
      const kafka = await startKafka({ port, dataDir, advertisedPort, extraConfig, formatArgs });
      console.log(kafka.brokers);
      return;
    }
    case 'stop':
      if (!(await stopKafka({ dataDir }))) log('no broker of this data dir is running');
      return;
    case 'status': {
      const status = await kafkaStatus({ port, dataDir });
      console.log(JSON.stringify(status, null, 2));
      process.exitCode = status.listening ? 0 : 1;
      return;
    }
    default:
      console.error(USAGE);
      process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await useProjectNode();
  main().catch((error) => {
    log(error.message);
    process.exit(1);
  });
}
