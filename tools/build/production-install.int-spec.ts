import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import { AppHandle, APP_NAMES, repoRoot, startApp, testEnv } from '@swapgw/testing';

// What the Dockerfile ships, started for real: a fresh build, package.json and the lock, and only the
// production dependencies (its prod-deps stage: --omit=dev --ignore-scripts), in a directory outside
// the repository so that nothing resolves from the repository's node_modules. Each of the five apps
// must then start against the test infrastructure until it answers ready. A production import of a
// devDependency (MODULE_NOT_FOUND at start) fails here, not in a deployment. The install is the
// Dockerfile's own command, `npm ci --omit=dev --ignore-scripts`; the test also checks that every
// installed package is in the lock at the locked version.

/** Runs a command to completion; resolves with its exit code and combined output. */
function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.NODE_PATH; // module resolution only from the copy
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const tail = (text: string, lines = 40) => text.trim().split('\n').slice(-lines).join('\n');

describe('a production install (Dockerfile: build, npm ci --omit=dev)', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-prod-install-'));
  const handles: AppHandle[] = [];
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    const build = await run(
      process.execPath,
      [path.join(repoRoot, 'tools', 'build', 'build.mjs'), '--out-dir', path.join(copy, 'dist')],
      repoRoot,
      120_000,
    );
    if (build.code !== 0) throw new Error(`build failed:\n${tail(build.output)}`);
    for (const file of ['package.json', 'package-lock.json'])
      fs.copyFileSync(path.join(repoRoot, file), path.join(copy, file));
    // From the npm cache when it has the packages (offline-friendly); the registry otherwise.
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = await run(
      npm,
      ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      copy,
      300_000,
    );
    if (install.code !== 0)
      throw new Error(`npm ci --omit=dev failed (exit ${install.code}):\n${tail(install.output)}`);
  }, 480_000);

  afterAll(async () => {
    await Promise.all(handles.map((h) => h.stop()));
    if (databaseUrl) await dropDatabase(databaseUrl);
    fs.rmSync(copy, { recursive: true, force: true });
  }, 60_000);

  it('installs exactly the locked versions', () => {
    const packagesOf = (file: string): Record<string, { version?: string }> =>
      JSON.parse(fs.readFileSync(file, 'utf8')).packages;
    const locked = packagesOf(path.join(repoRoot, 'package-lock.json'));
    // npm's record of what it installed in the copy.
    const installed = packagesOf(path.join(copy, 'node_modules', '.package-lock.json'));
    const drift = Object.entries(installed)
      .filter(([key, { version }]) => key !== '' && locked[key]?.version !== version)
      .map(
        ([key, { version }]) => `${key}: installed ${version}, locked ${locked[key]?.version ?? '(absent)'}`,
      );
    expect(drift).toEqual([]);
    expect(Object.keys(installed).length).toBeGreaterThan(100);
  });

  it('installs no devDependency', () => {
    const devDependencies = Object.keys(
      JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).devDependencies,
    );
    // Packages that are also a production package's dependency stay (fastify under Nest's adapter).
    const present = ['litesvm', 'solc', 'jest', '@foundry-rs/anvil', 'testcontainers'].filter((name) =>
      fs.existsSync(path.join(copy, 'node_modules', name, 'package.json')),
    );
    expect(devDependencies).toEqual(
      expect.arrayContaining(['litesvm', 'solc', 'jest', '@foundry-rs/anvil', 'testcontainers']),
    );
    expect(present).toEqual([]);
  });

  it('ships no test support in the apps and no devnet or test harness behind production code', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(full);
        } else if (entry.name.endsWith('.js')) {
          const rel = path.relative(path.join(copy, 'dist'), full);
          if (/^apps\/[^/]+\/(test|src\/testing)\//.test(rel))
            offenders.push(`${rel}: test support in the build`);
          const text = fs.readFileSync(full, 'utf8');
          if (/require\("[^"]*libs\/(devnet|testing)\//.test(text))
            offenders.push(`${rel}: requires libs/devnet or libs/testing`);
        }
      }
    };
    walk(path.join(copy, 'dist', 'apps'));
    for (const lib of ['chains', 'contracts', 'messaging', 'persistence', 'runtime'])
      walk(path.join(copy, 'dist', 'libs', lib));
    expect(offenders).toEqual([]);
  });

  it('starts each of the five apps from the copy until it answers ready', async () => {
    const server = new URL(testEnv().databaseUrl);
    server.pathname = `/swapgw_prod_install_${randomBytes(4).toString('hex')}`;
    databaseUrl = server.toString();
    await ensureDatabase(databaseUrl);
    const start = async (app: string) => {
      const handle = await startApp(app, {
        entry: path.join(copy, 'dist', 'apps', app, 'src', 'main.js'),
        // As the Dockerfile's runtime stage; NODE_PATH empty: modules resolve only from the copy.
        env: { DATABASE_URL: databaseUrl!, NODE_ENV: 'production', NODE_PATH: '' },
        instance: `prod-install-${app}-${process.pid}`,
        readyTimeoutMs: 90_000,
      });
      handles.push(handle);
    };
    const failures: string[] = [];
    const collect = (app: string, result: PromiseSettledResult<void>) => {
      if (result.status === 'rejected') failures.push(`${app}: ${(result.reason as Error).message}`);
    };
    // As `npm start`: the Kafka services side by side, then the gateway.
    const services = APP_NAMES.filter((app) => app !== 'gateway');
    (await Promise.allSettled(services.map(start))).forEach((result, i) => collect(services[i], result));
    collect('gateway', (await Promise.allSettled([start('gateway')]))[0]);
    expect(failures).toEqual([]);
    expect(handles.map((h) => h.app).sort()).toEqual([...APP_NAMES].sort());
    for (const handle of handles) expect(handle.logs()).not.toMatch(/MODULE_NOT_FOUND|Cannot find module/);
  }, 300_000);

  it("migrates a fresh database with each app's migration CLI from the copy (npm run migrate)", async () => {
    const server = new URL(testEnv().databaseUrl);
    server.pathname = `/swapgw_prod_migrate_${randomBytes(4).toString('hex')}`;
    const migrateUrl = server.toString();
    await ensureDatabase(migrateUrl);
    try {
      const results: Array<{ app: string; code: number | null; output: string }> = [];
      for (const app of APP_NAMES) {
        const cli = path.join(copy, 'dist', 'apps', app, 'src', 'cli', 'migrate.js');
        const previous = process.env.DATABASE_URL;
        process.env.DATABASE_URL = migrateUrl;
        try {
          results.push({ app, ...(await run(process.execPath, [cli, 'up'], copy, 60_000)) });
        } finally {
          process.env.DATABASE_URL = previous;
        }
      }
      expect(
        results.map(({ app, code, output }) => ({
          app,
          code,
          done: output.includes(`${app} migrations: up done`),
          output: code === 0 ? '' : tail(output, 5),
        })),
      ).toEqual(APP_NAMES.map((app) => ({ app, code: 0, done: true, output: '' })));
    } finally {
      await dropDatabase(migrateUrl);
    }
  }, 120_000);
});
