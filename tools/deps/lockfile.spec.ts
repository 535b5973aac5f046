import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { productionPackages } from './licences';

// package-lock.json installs on every platform: each package's optional (per-platform) dependencies
// are in it, so `npm ci` on macOS or Linux arm64 finds its own anvil, swc or nx binary, and an
// install here never has to add them to the tracked lock.
const root = path.resolve(__dirname, '..', '..');
const lock: {
  packages: Record<
    string,
    { version?: string; license?: string; dev?: boolean; optionalDependencies?: Record<string, string> }
  >;
} = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

/** Where Node would find `dependency` from the package at `location`: its own node_modules, then up. */
function resolvedIn(location: string, dependency: string): boolean {
  let base = location;
  for (;;) {
    if (`${base ? `${base}/` : ''}node_modules/${dependency}` in lock.packages) return true;
    if (!base) return false;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

describe('package-lock.json', () => {
  it("holds every package's optional per-platform dependencies", () => {
    const missing = Object.entries(lock.packages).flatMap(([location, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((dependency) => !resolvedIn(location, dependency))
        .map((dependency) => `${location} -> ${dependency}`),
    );
    expect(missing).toEqual([]);
  });

  it('has the binaries of the tools every platform runs: anvil, swc and litesvm for macOS, Linux and Windows', () => {
    for (const platform of ['darwin-arm64', 'darwin-amd64', 'linux-arm64', 'linux-amd64', 'win32-amd64'])
      expect(lock.packages).toHaveProperty([`node_modules/@foundry-rs/anvil-${platform}`]);
    for (const platform of [
      'darwin-arm64',
      'darwin-x64',
      'linux-arm64-gnu',
      'linux-x64-gnu',
      'win32-x64-msvc',
    ])
      expect(lock.packages).toHaveProperty([`node_modules/@swc/core-${platform}`]);
    // litesvm runs the devnet's Solana chain (npm start, tests); it publishes no Windows binary.
    for (const platform of [
      'darwin-arm64',
      'darwin-x64',
      'linux-arm64-gnu',
      'linux-x64-gnu',
      'linux-x64-musl',
    ])
      expect(lock.packages).toHaveProperty([`node_modules/litesvm-${platform}`]);
  });

  // What `npm ci` on another machine would install, worked out by npm itself from this lock
  // (`--dry-run` with that machine's os and cpu: no download, about a second each).
  it.each([
    ['darwin', 'arm64', ['@foundry-rs/anvil-darwin-arm64', '@swc/core-darwin-arm64', 'litesvm-darwin-arm64']],
    ['darwin', 'x64', ['@foundry-rs/anvil-darwin-amd64', '@swc/core-darwin-x64', 'litesvm-darwin-x64']],
    [
      'linux',
      'arm64',
      ['@foundry-rs/anvil-linux-arm64', '@swc/core-linux-arm64-gnu', 'litesvm-linux-arm64-gnu'],
    ],
    ['linux', 'x64', ['@foundry-rs/anvil-linux-amd64', '@swc/core-linux-x64-gnu', 'litesvm-linux-x64-gnu']],
  ])('npm ci on %s %s installs its anvil, swc and litesvm binaries', (platform, cpu, binaries) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-ci-'));
    try {
      for (const file of ['package.json', 'package-lock.json'])
        fs.copyFileSync(path.join(root, file), path.join(dir, file));
      const npm = spawnSync(
        'npm',
        [
          'ci',
          '--dry-run',
          `--os=${platform}`,
          `--cpu=${cpu}`,
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(npm.status).toBe(0);
      const added = new Set([...npm.stdout.matchAll(/^add (\S+) /gm)].map((m) => m[1]));
      for (const binary of binaries) expect(added).toContain(binary);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Pre-releases a production install may hold, and why: ethers (a package the design keeps) pins
 * aes-js 4.0.0-beta.5, the only 4.x ever published; no stable release can replace it. bigint-buffer
 * is `@exodus/bigint-buffer@1.1.5-exodus.1` by an override (package.json): bigint-buffer 1.1.5's own
 * pure-JS code without the native addon it could not load, its only release (docs/dependencies.md).
 */
const ACCEPTED_PRE_RELEASES = new Set(['aes-js@4.0.0-beta.5', 'bigint-buffer@1.1.5-exodus.1']);

describe('the production tree', () => {
  const production = productionPackages(lock);

  it('holds no pre-release but the accepted ones', () => {
    const preReleases = production
      .filter((p) => p.version.includes('-'))
      .map((p) => `${p.name}@${p.version}`);
    expect(preReleases.filter((p) => !ACCEPTED_PRE_RELEASES.has(p))).toEqual([]);
    for (const accepted of ACCEPTED_PRE_RELEASES) expect(preReleases).toContain(accepted);
  });

  it('holds one copy of each OpenTelemetry package, one base58 library and one generation of the Solana codecs', () => {
    const versionsOf = (match: (name: string) => boolean) => {
      const byName = new Map<string, Set<string>>();
      for (const p of production.filter((p) => match(p.name)))
        byName.set(p.name, (byName.get(p.name) ?? new Set()).add(p.version));
      return [...byName].filter(([, versions]) => versions.size > 1).map(([name, v]) => `${name}: ${[...v]}`);
    };
    expect(versionsOf((name) => name.startsWith('@opentelemetry/'))).toEqual([]);
    expect(versionsOf((name) => name === 'bs58' || name === 'base-x')).toEqual([]);
    expect(versionsOf((name) => name.startsWith('@solana/codecs') || name === '@solana/errors')).toEqual([]);
    expect(production.map((p) => p.name)).not.toContain('ulid');
  });
});
