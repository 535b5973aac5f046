#!/usr/bin/env node
// `npm run migrate [-- up|revert] [--app <app>]`: runs each app's migration CLI
// (apps/<app>/src/cli/migrate.ts) against DATABASE_URL. Apps also migrate at boot; this is for
// operators who migrate before a rollout, and for `revert` (one migration, one app at a time).
import fs from 'node:fs';
import path from 'node:path';
import { APPS, bootstrap, fail, repoRoot, run, say, warn } from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

const argv = process.argv.slice(2);
const direction = argv.find((a) => a === 'up' || a === 'revert') ?? 'up';
const appIndex = argv.indexOf('--app');
const only = appIndex >= 0 ? argv[appIndex + 1] : undefined;
if (only && !APPS.includes(only)) {
  fail('migrate', `unknown app ${only}; one of ${APPS.join(', ')}`);
  process.exit(64);
}
if (direction === 'revert' && !only) {
  fail('migrate', 'revert needs --app <app>: it undoes the last migration of one service');
  process.exit(64);
}
try {
  await bootstrap();
} catch (error) {
  fail('migrate', error.message);
  process.exit(1);
}
let failed = false;
for (const app of only ? [only] : APPS) {
  const cli = path.join(repoRoot, 'dist', 'apps', app, 'src', 'cli', 'migrate.js');
  if (!fs.existsSync(cli)) {
    warn(app, 'no migration CLI built: skipped');
    continue;
  }
  say(app, `migrate ${direction}`);
  if ((await run(process.execPath, [cli, direction])) !== 0) {
    fail(app, `migrate ${direction} failed`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
