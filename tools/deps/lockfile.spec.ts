import fs from 'node:fs';
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

/**
 * Platform packages the registry we resolve against does not serve (404), so no lock can hold
 * them. litesvm runs the devnet's Solana chain in tests and `npm start`; on those platforms the
 * devnet cannot start Solana until the registry serves them (docs/dependencies.md).
 */
const NOT_ON_THE_REGISTRY = new Set([
  'node_modules/litesvm -> litesvm-darwin-arm64',
  'node_modules/litesvm -> litesvm-darwin-x64',
  'node_modules/litesvm -> litesvm-linux-arm64-gnu',
  'node_modules/litesvm -> litesvm-linux-arm64-musl',
  'node_modules/litesvm -> litesvm-linux-x64-musl',
]);

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
    expect(missing.filter((m) => !NOT_ON_THE_REGISTRY.has(m))).toEqual([]);
  });

  it('has the binaries of the tools every platform runs: anvil and swc for macOS, Linux and Windows', () => {
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
  });
});

/**
 * Pre-releases a production install may hold, and why: ethers (a package the design keeps) pins
 * aes-js 4.0.0-beta.5, the only 4.x ever published; no stable release can replace it.
 */
const ACCEPTED_PRE_RELEASES = new Set(['aes-js@4.0.0-beta.5']);

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
