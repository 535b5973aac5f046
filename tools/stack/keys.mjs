#!/usr/bin/env node
// `npm run keys -- create --owner <name> | list | revoke <prefix> | set-fee <prefix> <bps>:<recipient>[,...] | clear-fee <prefix>`: the gateway's API key CLI
// (apps/gateway/src/cli/keys.ts) after an up-to-date build, against DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/swapgw). `create` prints the key alone on its last line.
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap, fail, repoRoot } from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

const cli = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'keys.js');
try {
  // Build output goes to stderr: scripts read the key from stdout.
  await bootstrap({ quiet: true });
} catch (error) {
  fail('keys', error.message);
  process.exit(1);
}
if (!fs.existsSync(cli)) {
  fail('keys', 'the gateway keys CLI is not built (apps/gateway/src/cli/keys.ts missing)');
  process.exit(1);
}
const { spawnSync } = await import('node:child_process');
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
