import fs from 'node:fs';
import path from 'node:path';

/** Repository root (libs/testing/src → ../../..), also right for the compiled copy in dist/. */
export const repoRoot = findRepoRoot(__dirname);

function findRepoRoot(dir: string): string {
  // In dist/libs/testing/src the repo is one level further up.
  const parts = dir.split(path.sep);
  const distIndex = parts.lastIndexOf('dist');
  if (distIndex > 0 && parts[distIndex + 1] === 'libs') return parts.slice(0, distIndex).join(path.sep);
  return path.resolve(dir, '..', '..', '..');
}

/**
 * Development defaults for tests run by hand (`npx jest --selectProjects integration ...`) on a
 * machine where a developer broker and PostgreSQL already run. `npm test` overrides all of them
 * with the fresh infrastructure it starts.
 */
export const DEV_DEFAULTS = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/swapgw_dev_tests',
  DEVNET_MANIFEST: '.run/devnet/manifest.json',
} as const;

export interface TestEnv {
  /** Comma-separated broker list, as in KAFKA_BROKERS. */
  kafkaBrokers: string;
  /** The brokers as an array, as kafkajs wants them. */
  brokers: string[];
  databaseUrl: string;
  /** Absolute path of the devnet manifest JSON. */
  devnetManifest: string;
  /** Scratch directory of this test run (logs of started apps, temp files). */
  runDir: string;
  /** The variables above in the form every app reads them, to pass to child processes. */
  env: Record<string, string>;
}

/** The infrastructure the tests run against: from the environment, else the development defaults. */
export function testEnv(source: Record<string, string | undefined> = process.env): TestEnv {
  const pick = (name: keyof typeof DEV_DEFAULTS): string => {
    const value = source[name];
    return value !== undefined && value !== '' ? value : DEV_DEFAULTS[name];
  };
  const kafkaBrokers = pick('KAFKA_BROKERS');
  const databaseUrl = pick('DATABASE_URL');
  const devnetManifest = path.resolve(repoRoot, pick('DEVNET_MANIFEST'));
  const runDir = path.resolve(repoRoot, source.TEST_RUN_DIR || path.join('.run', 'test'));
  return {
    kafkaBrokers,
    brokers: kafkaBrokers
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    databaseUrl,
    devnetManifest,
    runDir,
    env: {
      KAFKA_BROKERS: kafkaBrokers,
      DATABASE_URL: databaseUrl,
      DEVNET_MANIFEST: devnetManifest,
      TEST_RUN_DIR: runDir,
    },
  };
}

/**
 * quote-service's and execution-planner's THORNODE_URL as production configures it, here the
 * devnet's local THORNode named in the manifest (`bitcoin.bridge.thornode.url`): BTC in and out goes
 * through THORChain, and the swap follows THORChain's status. Nothing when
 * the caller set THORNODE_URL (theirs wins) or the manifest has no THORNode.
 */
export function devnetThornodeEnv(
  manifestPath: string,
  source: Record<string, string | undefined> = process.env,
): Record<string, string> {
  if (source.THORNODE_URL !== undefined || !fs.existsSync(manifestPath)) return {};
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    bitcoin?: { bridge?: { thornode?: { url?: string } } };
  };
  const url = manifest.bitcoin?.bridge?.thornode?.url;
  return url ? { THORNODE_URL: url } : {};
}
