#!/usr/bin/env node
// `npm run openapi`: regenerates apps/gateway/openapi.json (the OpenAPI document the gateway serves
// at /api/v1/openapi.json) from the gateway's modules, after an up-to-date build, then lints it
// with Redocly (redocly.yaml). No PostgreSQL, Kafka or devnet needed (Nest's preview mode).
// `--check`: writes nothing; fails when the committed file is not what the code describes, or when
// the lint reports an error (a static check of `npm test`).
import path from 'node:path';
import { bootstrap, fail, repoRoot, run, say } from './lib.mjs';
import { useProjectNode } from './node-runtime.mjs';

await useProjectNode();

export const OPENAPI_FILE = path.join('apps', 'gateway', 'openapi.json');
const OPENAPI_CLI = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'openapi.js');
const REDOCLY_CLI = path.join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The generation (or --check) and the lint; resolves true when both passed. Build first. */
export async function checkOpenApi({ write }) {
  const generated = (await run(process.execPath, [OPENAPI_CLI, ...(write ? [] : ['--check'])])) === 0;
  const linted = (await run(process.execPath, [REDOCLY_CLI, 'lint', OPENAPI_FILE, '--format', 'stylish'])) === 0;
  return generated && linted;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(repoRoot, 'tools', 'stack', 'openapi.mjs')) {
  try {
    await bootstrap({ quiet: true });
  } catch (error) {
    fail('openapi', error.message);
    process.exit(1);
  }
  const write = !process.argv.includes('--check');
  const ok = await checkOpenApi({ write });
  if (ok) say('openapi', write ? `${OPENAPI_FILE} written and linted` : `${OPENAPI_FILE} is up to date and lints`);
  process.exit(ok ? 0 : 1);
}
