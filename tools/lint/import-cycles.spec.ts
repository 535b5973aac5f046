import path from 'node:path';
import { importCycles, importGraph, sourceFilesUnder } from './import-graph';

// Modules cut by domain import downwards only: a family under a registry, providers under their
// support policy. A circle between modules means neither can be read, tested or moved alone, and
// its load order decides which side sees the other still undefined. Type-only imports count too:
// they erase at runtime, but a circle of types still ties the modules' meaning together.
const root = path.resolve(__dirname, '..', '..');

/** The source trees kept free of import cycles (spec files are leaves, so they are left out). */
const CHECKED_TREES = [
  'libs/contracts/src',
  'libs/chains/src',
  'apps/quote-service/src',
  'apps/signer-surface/src',
];

describe('import cycles', () => {
  it('finds a circle of three files, a self-import, and nothing in a chain', () => {
    const graph = new Map([
      ['registry.ts', ['evm.ts', 'types.ts']],
      ['evm.ts', ['types.ts', 'solana.ts']],
      ['solana.ts', ['registry.ts']],
      ['types.ts', []],
      ['self.ts', ['self.ts']],
      ['leaf.ts', ['types.ts']],
    ]);
    expect(importCycles(graph)).toEqual(
      expect.arrayContaining([['evm.ts', 'registry.ts', 'solana.ts'], ['self.ts']]),
    );
    expect(importCycles(graph)).toHaveLength(2);
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it.each(CHECKED_TREES)('%s imports without a circle', (tree) => {
    const files = sourceFilesUnder(path.join(root, tree));
    expect(files.length).toBeGreaterThan(0);
    const cycles = importCycles(importGraph(files)).map((component) =>
      component.map((file) => path.relative(root, file)),
    );
    expect(cycles).toEqual([]);
  });
});
