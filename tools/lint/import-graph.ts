import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The import graph of a source tree, by relative specifier, for the lint specs of this folder
// (import-cycles.spec.ts, signer-families.spec.ts).

/** The .ts files under `dir`; spec files (leaves of the graph) only with `specs`. */
export function sourceFilesUnder(dir: string, options: { specs?: boolean } = {}): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFilesUnder(full, options);
    if (!/\.ts$/.test(name)) return [];
    return options.specs || !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name) ? [full] : [];
  });
}

/** The file a relative specifier names (`./x` → x.ts or x/index.ts); undefined for a package. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Each file's relative imports: `import`, `import type`, `export … from` and `import()`. */
export function importGraph(files: string[]): Map<string, string[]> {
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
export function importCycles(graph: Map<string, string[]>): string[][] {
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
          low.set(frame.node, Math.min(numberOf(low, frame.node), numberOf(index, target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(numberOf(low, parent), numberOf(low, frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

/** A node's number in Tarjan's maps, set when the node was first visited. */
function numberOf(numbers: ReadonlyMap<string, number>, node: string): number {
  const value = numbers.get(node);
  if (value === undefined) throw new Error(`unreachable: ${node} was never visited`);
  return value;
}
