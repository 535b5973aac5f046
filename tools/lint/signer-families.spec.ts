import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { importGraph, sourceFilesUnder } from './import-graph';

// signer-surface is cut by chain family (issue 45): src/families/<family>/ holds a family's payload
// kinds, sponsors, settings, key readers, tracking and specs; what is shared (the signing flow, the
// sponsorship ledger and budgets, config loading, chains, status) stays outside. The floors, from the
// top: the composition root (app.module.ts, over the registry families/*.ts), the families, the
// shared code. An import only goes down: a family never imports another family nor the registry,
// shared code never imports a family, and the registry reaches a family through its one entry
// (index.ts). Spec files count as well, a family's specs composing like the registry may (other
// families through their entries, the registry's files). Cycles: import-cycles.spec.ts (which checks this tree too).
const root = path.resolve(__dirname, '..', '..');
const SRC = 'apps/signer-surface/src';
const SPEC = /\.(spec|int-spec|e2e-spec)\.ts$/;

/**
 * The only imports of families/ from outside it, each file with the files it may import: the
 * composition root registers the families (the registry) and loads the environment their sections
 * compose (SignerSurfaceEnvironment, validated at load).
 */
const ALLOWED_FROM_SHARED: Readonly<Record<string, readonly string[]>> = {
  'app.module.ts': ['families/families.ts'],
  'main.ts': ['families/families.ts'],
};

/** Where a file sits: a family's folder, the registry (files directly under families/), or shared code. */
function floorOf(
  file: string,
): { kind: 'family'; family: string } | { kind: 'registry' } | { kind: 'shared' } {
  const parts = file.split('/');
  if (parts[0] !== 'families') return { kind: 'shared' };
  return parts.length === 2 ? { kind: 'registry' } : { kind: 'family', family: parts[1] };
}

/** The imports (files relative to src, `/`-separated) that break the floors, as "from -> to: why". */
export function floorViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const violations: string[] = [];
  for (const [from, targets] of graph) {
    const source = floorOf(from);
    for (const to of targets) {
      const target = floorOf(to);
      const why = (() => {
        if (source.kind === 'family') {
          // A family's specs are leaves that may compose like the registry (an int-spec of the
          // Bitcoin fee wallets builds the sponsored-transaction tracker, which takes the relayers),
          // through the other families' entries only.
          if (SPEC.test(from)) {
            return target.kind === 'family' &&
              target.family !== source.family &&
              to !== `families/${target.family}/index.ts`
              ? "a family's spec takes another family through its entry (index.ts) only"
              : null;
          }
          if (target.kind === 'registry') return 'a family never imports the registry above it';
          if (target.kind === 'family' && target.family !== source.family)
            return 'a family never imports another family';
          return null;
        }
        if (source.kind === 'registry') {
          return target.kind === 'family' && to !== `families/${target.family}/index.ts`
            ? 'the registry takes a family through its entry (index.ts) only'
            : null;
        }
        if (target.kind === 'shared') return null;
        return ALLOWED_FROM_SHARED[from]?.includes(to)
          ? null
          : 'shared code never imports families/ (only the composition root registers them)';
      })();
      if (why) violations.push(`${from} -> ${to}: ${why}`);
    }
  }
  return violations.sort();
}

/** The import graph of signer-surface's src, spec files included, as paths relative to src. */
function signerGraph(): Map<string, string[]> {
  const src = path.join(root, SRC);
  const relative = (file: string) => path.relative(src, file).split(path.sep).join('/');
  const graph = importGraph(sourceFilesUnder(src, { specs: true }));
  return new Map(
    [...graph].map(([file, targets]) => [
      relative(file),
      targets.filter((target) => target.startsWith(src + path.sep)).map(relative),
    ]),
  );
}

describe('signer-surface by family', () => {
  it('finds imports across families, up to the registry, and from shared code into a family', () => {
    const graph = new Map([
      ['families/evm/relayers.ts', ['families/evm/relayer-pool.ts', 'sponsorship/gas-sponsor.ts']],
      ['families/evm/relayer-pool.ts', ['families/solana/solana-fee-payers.ts']],
      ['families/solana/solana-fee-payers.ts', ['families/families.ts']],
      ['families/families.ts', ['families/evm/index.ts', 'families/solana/solana-fee-payers.ts']],
      ['signing/signing.module.ts', ['families/evm/relayers.ts', 'sponsorship/gas-sponsor.ts']],
      ['app.module.ts', ['families/families.ts']],
      ['config/signer-surface.config.ts', ['families/evm/relayer-keys.ts', 'families/evm/relayers.ts']],
      [
        'families/bitcoin/fee.int-spec.ts',
        ['families/families.ts', 'families/evm/index.ts', 'families/evm/relayers.ts'],
      ],
    ]);
    expect(floorViolations(graph)).toEqual([
      'config/signer-surface.config.ts -> families/evm/relayer-keys.ts: shared code never imports families/ (only the composition root registers them)',
      'config/signer-surface.config.ts -> families/evm/relayers.ts: shared code never imports families/ (only the composition root registers them)',
      "families/bitcoin/fee.int-spec.ts -> families/evm/relayers.ts: a family's spec takes another family through its entry (index.ts) only",
      'families/evm/relayer-pool.ts -> families/solana/solana-fee-payers.ts: a family never imports another family',
      'families/families.ts -> families/solana/solana-fee-payers.ts: the registry takes a family through its entry (index.ts) only',
      'families/solana/solana-fee-payers.ts -> families/families.ts: a family never imports the registry above it',
      'signing/signing.module.ts -> families/evm/relayers.ts: shared code never imports families/ (only the composition root registers them)',
    ]);
  });

  it(`${SRC} imports only down its floors`, () => {
    const graph = signerGraph();
    expect(graph.size).toBeGreaterThan(0);
    expect(floorViolations(graph)).toEqual([]);
  });

  it('has one entry per family, each registered by the registry', () => {
    const families = path.join(root, SRC, 'families');
    const folders = readdirSync(families).filter((name) => statSync(path.join(families, name)).isDirectory());
    // Every family folder there is (a new one needs no line here), the three of issue 45 among them.
    expect(folders).toEqual(expect.arrayContaining(['bitcoin', 'evm', 'solana']));
    const registered = signerGraph().get('families/families.ts') ?? [];
    for (const family of folders) {
      expect(existsSync(path.join(families, family, 'index.ts'))).toBe(true);
      expect(registered).toContain(`families/${family}/index.ts`);
    }
  });
});
