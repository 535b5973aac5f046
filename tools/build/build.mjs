#!/usr/bin/env node
// Compiles apps/, libs/ and tools/ into dist/ with swc (decorator metadata on, path aliases
// rewritten to relative requires). Type checking is a separate step: `npm run typecheck`.
// `--out-dir <dir>`: another output directory (the production-install test builds into its copy).
// The output is exactly what the sources compile to: a file whose source is gone is removed
// (tools/build/build-outputs.js).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { useProjectNode } from '../stack/node-runtime.mjs';

await useProjectNode();

const require = createRequire(import.meta.url);
const { root, swcOptions } = require('./swc-config.js');
const { pruneStaleOutputs } = require('./build-outputs.js');

// The swc config names this checkout's absolute paths: a file of this build's own, so that two
// checkouts sharing a cache (worktrees) never compile with each other's.
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-swc-'));
process.on('exit', () => fs.rmSync(configDir, { recursive: true, force: true }));
const configFile = path.join(configDir, 'swcrc.json');
const options = swcOptions();
// Specs and the apps' test/ folders (test support: harness, fixtures) never run in a service; the
// production-install integration test (tools/build/production-install.int-spec.ts) starts dist/ as shipped.
options.exclude = [
  '\\.spec\\.ts$',
  '\\.int-spec\\.ts$',
  '\\.e2e-spec\\.ts$',
  '\\.d\\.ts$',
  '(^|[\\\\/])apps[\\\\/][^\\\\/]+[\\\\/]test[\\\\/]',
];
fs.writeFileSync(configFile, JSON.stringify(options, null, 2));

const outIndex = process.argv.indexOf('--out-dir');
const outDir = outIndex >= 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(root, 'dist');

const swc = path.join(root, 'node_modules', '.bin', 'swc');
const targets = ['apps', 'libs', 'tools'].filter((d) => fs.existsSync(path.join(root, d)));
const result = spawnSync(
  swc,
  [...targets, '-d', outDir, '--config-file', configFile, '--copy-files', '--only', '**/*.ts', '--quiet'],
  { cwd: root, stdio: 'inherit' },
);
if (result.status !== 0) process.exit(result.status ?? 1);
// --only restricts compilation; copy JSON assets (artifacts, manifests) that code requires.
const assets = copyAssets(targets);
const stale = pruneStaleOutputs({ root, outDir, dirs: targets, exclude: options.exclude, assets });
if (stale.length > 0)
  console.log(`build: removed ${stale.length} file(s) whose source is gone: ${stale.join(', ')}`);
console.log(`build: compiled ${targets.join(', ')} into ${path.relative(root, outDir) || '.'}/`);

/** Copies the JSON assets into outDir; returns their paths relative to it. */
function copyAssets(dirs) {
  const copied = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === 'test') continue;
        walk(full);
      } else if (
        entry.name.endsWith('.json') &&
        !entry.name.startsWith('project.json') &&
        !entry.name.startsWith('tsconfig')
      ) {
        const rel = path.relative(root, full);
        const out = path.join(outDir, rel);
        fs.mkdirSync(path.dirname(out), { recursive: true });
        fs.copyFileSync(full, out);
        copied.add(rel);
      }
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  return copied;
}
