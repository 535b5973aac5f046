#!/usr/bin/env node
// Builds @swapgw/sdk (libs/sdk) as the package an integrator installs: tsc compiles libs/sdk/src to
// CommonJS + .d.ts (the repo's swc build, tools/build/build.mjs, emits no declarations), the
// generated gateway-api.d.ts is copied next to them, and package.json, README.md and the repo's
// LICENSE complete the directory: dist/packages/sdk by default, `--out-dir <dir>` for another.
// `--pack` then runs `npm pack` in it and prints the tarball's path (tests install it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { useProjectNode } from '../stack/node-runtime.mjs';
import { repoRoot } from '../stack/lib.mjs';

await useProjectNode();

const sdk = path.join(repoRoot, 'libs', 'sdk');
const outIndex = process.argv.indexOf('--out-dir');
const outDir =
  outIndex >= 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(repoRoot, 'dist', 'packages', 'sdk');

fs.rmSync(outDir, { recursive: true, force: true });
const tsc = spawnSync(
  path.join(repoRoot, 'node_modules', '.bin', 'tsc'),
  ['-p', path.join(sdk, 'tsconfig.build.json'), '--outDir', path.join(outDir, 'dist')],
  { cwd: repoRoot, stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
fs.copyFileSync(path.join(sdk, 'src', 'gateway-api.d.ts'), path.join(outDir, 'dist', 'gateway-api.d.ts'));
for (const [from, to] of [
  [path.join(sdk, 'package.json'), 'package.json'],
  [path.join(sdk, 'README.md'), 'README.md'],
  [path.join(repoRoot, 'LICENSE'), 'LICENSE'],
]) {
  fs.copyFileSync(from, path.join(outDir, to));
}
console.log(`build-sdk: @swapgw/sdk in ${path.relative(repoRoot, outDir) || '.'}/`);

if (process.argv.includes('--pack')) {
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', outDir], {
    cwd: outDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (pack.status !== 0) process.exit(pack.status ?? 1);
  const [{ filename }] = JSON.parse(pack.stdout);
  console.log(path.join(outDir, filename));
}
