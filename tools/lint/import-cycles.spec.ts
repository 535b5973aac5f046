import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// Modules cut by domain import downwards only: a family under a registry, providers under their
// support policy. A circle between modules means neither can be read, tested or moved alone, and
// its load order decides which side sees the other still undefined. Type-only imports count too:
// they erase at runtime, but a circle of types still ties the modules' meaning together.
const root = path.resolve(__dirname, '..', '..');

/** The source trees kept free of import cycles (spec files are leaves, so they are left out). */
const CHECKED_TREES = ['libs/chains/src', 'apps/quote-service/src'];

function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFilesUnder(full);
    return /\.ts$/.test(name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name) ? [full] : [];
  });
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts); undefined for a package. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Each file's relative imports: `import`, `import type`, `export … from` and `import()`. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveRelative(file, imported.fileName))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The graph's strongly connected components of more than one file (or a file importing itself). */
function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

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
