#!/usr/bin/env node
// `npm start`: the whole gateway on this machine, with nothing else to set up.
//   1. dependencies (npm install from the lock when node_modules is missing or stale) and the swc build
//   2. Kafka: KAFKA_BROKERS if set, else a KRaft broker from Maven Central on KAFKA_PORT (9092),
//      data kept in .run/kafka (a broker already listening there is reused)
//   3. PostgreSQL: the database of DATABASE_URL, created when missing
//   4. devnet: two anvil chains with tokens, Uniswap V2 and a bridge (manifest .run/devnet/manifest.json)
//   5. Kafka topics of libs/contracts, then the five apps, each waited for until healthy
// Ctrl-C (or SIGTERM) stops what this run started, in reverse order, and nothing else.
// Flags: --quiet (no app log echo), --no-devnet, --apps a,b (subset).
import fs from 'node:fs';
import path from 'node:path';
import { startKafka } from '../kafka/kafka.mjs';
import {
  APPS,
  appEntry,
  appEnv,
  bootstrap,
  DEFAULT_DATABASE_URL,
  ensureDatabase,
  ensureKafkaTopics,
  fail,
  repoRoot,
  say,
  startAppProcess,
  startDevnet,
  warn,
} from './lib.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const runDir = path.join(repoRoot, '.run');
const logDir = path.join(runDir, 'logs');
const echo = !flag('quiet');

/** Everything this run started, stopped last-in first-out. */
const started = [];
let shuttingDown = false;

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  say('stack', 'stopping…');
  for (const item of started.reverse()) {
    try {
      await item.stop();
      say('stack', `stopped ${item.name}`);
    } catch (error) {
      fail('stack', `stopping ${item.name}: ${error.message}`);
    }
  }
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
// If this supervisor dies on an exception, its children must not outlive it.
process.on('exit', () => {
  for (const item of started) item.killNow?.();
});

async function main() {
  fs.mkdirSync(logDir, { recursive: true });
  await bootstrap();

  const kafka = await startKafka({
    port: Number(process.env.KAFKA_PORT || 9092),
    dataDir: path.join(runDir, 'kafka'),
  });
  if (kafka.started) started.push({ name: 'kafka', stop: kafka.stop });
  say('kafka', kafka.brokers);

  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await ensureDatabase(databaseUrl);
  say('postgres', `database ready (${redact(databaseUrl)})`);

  const manifest = path.resolve(repoRoot, process.env.DEVNET_MANIFEST || '.run/devnet/manifest.json');
  if (!flag('no-devnet')) {
    const devnet = await startDevnet({
      manifest,
      portA: process.env.DEVNET_PORT_A ? Number(process.env.DEVNET_PORT_A) : undefined,
      portB: process.env.DEVNET_PORT_B ? Number(process.env.DEVNET_PORT_B) : undefined,
      portSolana: process.env.DEVNET_PORT_SOLANA ? Number(process.env.DEVNET_PORT_SOLANA) : undefined,
      logFile: path.join(logDir, 'devnet.log'),
      echo,
    });
    if (devnet) {
      track('devnet', devnet);
      say('devnet', `chains up, manifest ${path.relative(repoRoot, manifest)}`);
    }
  }

  const topics = await ensureKafkaTopics(kafka.brokers);
  say('kafka', `topics ready (${topics.total} declared, ${topics.created.length} created)`);

  const base = {
    ...process.env,
    KAFKA_BROKERS: kafka.brokers,
    DATABASE_URL: databaseUrl,
    DEVNET_MANIFEST: manifest,
    LOG_LEVEL: process.env.LOG_LEVEL || 'log',
  };
  const wanted = option('apps') ? option('apps').split(',') : APPS;
  const present = wanted.filter((app) => {
    if (fs.existsSync(appEntry(app))) return true;
    warn(app, `dist/apps/${app}/src/main.js is missing (app not built yet): skipped`);
    return false;
  });

  // Services first, side by side; the gateway last so its first request finds the responders.
  const gatewayPort = Number(process.env.PORT || 3000);
  const services = present.filter((a) => a !== 'gateway');
  const results = await Promise.allSettled(
    services.map((app) =>
      startAppProcess(app, appEnv(app, base, { healthPort: healthPortOf(app) }), {
        logFile: path.join(logDir, `${app}.log`),
        echo,
      }),
    ),
  );
  for (const [i, result] of results.entries()) {
    if (result.status === 'fulfilled') {
      const proc = result.value;
      track(services[i], proc);
      say(services[i], `ready (${proc.healthUrl})`);
    }
  }
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;

  if (present.includes('gateway')) {
    const proc = await startAppProcess('gateway', appEnv('gateway', base, { gatewayPort }), {
      logFile: path.join(logDir, 'gateway.log'),
      echo,
    });
    track('gateway', proc);
    say('gateway', `ready (${proc.healthUrl})`);
  }

  const baseUrl = `http://127.0.0.1:${gatewayPort}/api/v1`;
  console.log(`
  Swap gateway is up.
    API          ${present.includes('gateway') ? baseUrl : '(gateway not built)'}
    API key      npm run keys -- create --owner <name>     (the key is the last line)
    Try          curl -H "Authorization: Bearer <key>" ${baseUrl}/chains
    Kafka        ${kafka.brokers}
    Database     ${redact(databaseUrl)}
    Devnet       ${fs.existsSync(manifest) ? path.relative(repoRoot, manifest) : '(not running)'}
    Logs         .run/logs/<app>.log
  Ctrl-C stops everything this command started.
`);
}

/** Registers a child for shutdown and reports it when it dies on its own. */
function track(name, proc) {
  started.push({ name, stop: () => proc.stop(), killNow: () => proc.killNow() });
  void proc.exited.then(({ code, signal }) => {
    if (!shuttingDown) fail(name, `exited (code ${code}, signal ${signal}); log: ${path.relative(repoRoot, proc.logFile)}`);
  });
}

function healthPortOf(app) {
  const specific = process.env[`${app.toUpperCase().replace(/-/g, '_')}_HEALTH_PORT`];
  return specific ? Number(specific) : undefined;
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

main().catch(async (error) => {
  fail('stack', error.message);
  await shutdown(1);
});
