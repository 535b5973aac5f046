import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

// package.json says what the code uses: every package the code imports is declared, what production
// code loads at runtime is in `dependencies` (a production install, `npm ci --omit=dev`, has nothing
// else), and nothing is declared that nobody uses.
const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const dependencies = new Set<string>(Object.keys(pkg.dependencies));
const devDependencies = new Set<string>(Object.keys(pkg.devDependencies));
const builtins = new Set(builtinModules);

/** Declared packages no source file imports by name: who uses them instead. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  '@eslint/js': '@nx/eslint-plugin requires it (eslint 10 no longer brings it)',
  '@foundry-rs/anvil': 'libs/devnet/src/anvil.ts resolves its per-platform binary package',
  '@openzeppelin/contracts':
    'libs/evm-contracts/src/compile.ts resolves the Solidity imports of our contracts (and their version)',
  '@redocly/cli':
    'tools/stack/openapi.mjs runs its bin to lint apps/gateway/openapi.json (npm run openapi, npm test)',
  '@swc/cli': 'tools/build/build.mjs runs node_modules/.bin/swc',
  '@swc/core': 'the compiler behind @swc/cli and @swc/jest',
  '@swc/jest': 'jest.config.js transform',
  '@types/autocannon': 'types of autocannon (bench)',
  '@types/jest': 'tsconfig.base.json types',
  '@types/node': 'tsconfig.base.json types',
  '@types/pg': 'types of pg',
  '@uniswap/v2-core': 'libs/devnet/src/contracts/uniswap-artifacts.ts reads its build artifacts',
  '@uniswap/v2-periphery': 'libs/devnet/src/contracts/uniswap-artifacts.ts reads its build artifacts',
  '@uniswap/v3-core': 'libs/devnet/src/contracts/uniswap-v3-artifacts.ts reads its build artifacts',
  jest: 'the test runner (tools/stack/test.mjs)',
  nx: 'project graph for the module-boundaries lint rule',
  prettier: 'npm run format',
};

const SOURCE = /\.(ts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'results', '.cache', '.run']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...sourceFiles(rel));
    } else if (SOURCE.test(entry.name)) {
      out.push(rel);
    }
  }
  return out;
}

interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** Static imports and re-exports (statement start), side-effect imports, require(), require.resolve(), import(). */
function importsOf(text: string): Import[] {
  const found: Import[] = [];
  const statement = /(?:^|\n)[ \t]*(import|export)(\s+type)?\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statement)) found.push({ specifier: m[3], typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/(?:^|\n)[ \t]*import\s*['"]([^'"]+)['"]/g))
    found.push({ specifier: m[1], typeOnly: false });
  for (const m of text.matchAll(/\b(?:require(?:\.resolve)?|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push({ specifier: m[1], typeOnly: false });
  }
  return found;
}

/** The npm package of a bare specifier; undefined for relative paths, builtins and our own aliases. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined;
  if (specifier.startsWith('@swapgw/')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtins.has(name) ? undefined : name;
}

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;
/** Libraries that never run in a production process (tags in their project.json). */
const devLibraries = fs.readdirSync(path.join(root, 'libs')).filter((lib) => {
  const project = JSON.parse(fs.readFileSync(path.join(root, 'libs', lib, 'project.json'), 'utf8'));
  return project.tags.some((tag: string) => tag === 'type:devnet' || tag === 'type:testing');
});

function isProductionSource(file: string): boolean {
  const parts = file.split(path.sep);
  if (TEST_FILE.test(file) || !file.endsWith('.ts')) return false;
  if (parts[0] === 'apps') return parts[2] === 'src';
  if (parts[0] === 'libs') return parts[2] === 'src' && !devLibraries.includes(parts[1]);
  return false;
}

const files = [
  ...['apps', 'libs', 'tools', 'bench'].flatMap(sourceFiles),
  'jest.config.js',
  'eslint.config.mjs',
];
const uses = files.flatMap((file) =>
  importsOf(fs.readFileSync(path.join(root, file), 'utf8')).flatMap(({ specifier, typeOnly }) => {
    const name = packageOf(specifier);
    return name ? [{ file, name, typeOnly }] : [];
  }),
);

describe('package.json dependencies', () => {
  it('treats libs/devnet, libs/evm-contracts and libs/testing as development code', () => {
    expect(devLibraries.sort()).toEqual(['devnet', 'evm-contracts', 'testing']);
  });

  it('declares every package the code imports', () => {
    const undeclared = uses.filter((u) => !dependencies.has(u.name) && !devDependencies.has(u.name));
    expect(undeclared.map((u) => `${u.name} (${u.file})`)).toEqual([]);
  });

  it('puts every package production code loads at runtime in dependencies', () => {
    const devOnly = uses.filter(
      (u) => isProductionSource(u.file) && !u.typeOnly && !dependencies.has(u.name),
    );
    expect(devOnly.map((u) => `${u.name} (${u.file})`)).toEqual([]);
  });

  it('declares nothing that nothing uses', () => {
    const used = new Set(uses.map((u) => u.name));
    const unused = [...dependencies, ...devDependencies].filter(
      (name) => !used.has(name) && !(name in USED_WITHOUT_IMPORT),
    );
    expect(unused).toEqual([]);
    // The explanations stay true: each names a declared package that no file imports.
    for (const name of Object.keys(USED_WITHOUT_IMPORT))
      expect(devDependencies.has(name) && !used.has(name)).toBe(true);
  });

  it('pins fastify and swagger-ui-dist to the versions Nest brings, so each is installed once', () => {
    const nestDeps = (name: string) =>
      JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).dependencies;
    // Types only for the gateway (Nest's adapter brings the runtime copy) and the bench's bare server.
    expect(pkg.devDependencies.fastify).toBe(nestDeps('@nestjs/platform-fastify').fastify);
    // The gateway serves its Swagger UI assets from it (apps/gateway/src/openapi).
    expect(pkg.dependencies['swagger-ui-dist']).toBe(nestDeps('@nestjs/swagger')['swagger-ui-dist']);
  });
});
