#!/usr/bin/env node
// `npm run devnet [-- --port-a 8545 --port-b 8546 --block-time 2]`: the local chains alone
// (libs/devnet), in the foreground until Ctrl-C, manifest at DEVNET_MANIFEST
// (default .run/devnet/manifest.json). `npm start` runs the same thing with the rest of the stack.
// `npm run devnet -- [up] --mainnet-replica [--port-ethereum N --port-base N --port-arbitrum N]`:
// the mainnet replica instead (libs/devnet/src/replica). A leading `up` is optional.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, devnetCli, fail, repoRoot } from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

try {
  await bootstrap();
} catch (error) {
  fail('devnet', error.message);
  process.exit(1);
}
const cli = devnetCli();
if (!cli) {
  fail('devnet', 'dist/libs/devnet/src/cli.js is missing: libs/devnet is not built');
  process.exit(1);
}
const manifest = path.resolve(repoRoot, process.env.DEVNET_MANIFEST || '.run/devnet/manifest.json');
const args = process.argv.slice(2);
if (args[0] === 'up') args.shift();
const child = spawn(process.execPath, [cli, 'up', '--manifest', manifest, ...args], {
  cwd: repoRoot,
  stdio: 'inherit',
});
// The devnet shares this terminal's process group, so Ctrl-C reaches it directly; forward SIGTERM.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => undefined);
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
