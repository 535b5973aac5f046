#!/usr/bin/env node
// `node tools/stack/run-dist.mjs dist/<path>.js [args]`: a compiled CLI (npm run replay,
// npm run topics:manifest) after an up-to-date install and build, on the project's Node.
// Build output goes to stderr: the CLI's stdout is its own.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bootstrap, fail, repoRoot } from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

const [script, ...args] = process.argv.slice(2);
if (!script) {
  fail('run-dist', 'usage: run-dist.mjs dist/<path>.js [args]');
  process.exit(64);
}
try {
  await bootstrap({ quiet: true });
} catch (error) {
  fail('run-dist', error.message);
  process.exit(1);
}
const cli = path.resolve(repoRoot, script);
if (!fs.existsSync(cli)) {
  fail('run-dist', `${script} is not built`);
  process.exit(1);
}
const result = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
