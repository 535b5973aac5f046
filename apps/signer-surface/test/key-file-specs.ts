// Test support for the specs of signer-surface's key settings (RELAYER_KEYS, SOLANA_FEE_PAYER_KEYS,
// BITCOIN_FEE_WALLET_KEYS and their *_FILE forms): what a parser or the config refuses, and that a
// loaded config never shows a key.
import { ConfigValidationError, loadConfig } from '@swapgw/runtime';
import { inspect } from 'node:util';
import { SignerSurfaceEnvironment } from '../src/families/families';
import type { RelayerKeysReading } from '../src/sponsorship/relayer-keys';

/**
 * The problem a key parser finds in `json` read from `source`, checked to quote none of `secrets`;
 * fails the test when it finds none.
 */
export function keyProblemOf(
  parse: (json: string, source: string) => RelayerKeysReading,
  json: string,
  source: string,
  secrets: string[] = [],
): string {
  const reading = parse(json, source);
  if (reading.ok) throw new Error('expected a problem');
  for (const secret of secrets) expect(reading.problem).not.toContain(secret.slice(0, 12));
  return reading.problem;
}

/** The message SignerSurfaceEnvironment refuses `env` with; fails the test when it is accepted. */
export function configProblemsOf(env: Record<string, string>): string {
  try {
    loadConfig(SignerSurfaceEnvironment, env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.message;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

/** The config loaded from `env`, checked to show none of `secrets` however it is printed (`field` too). */
export function configHidingKeys(
  env: Record<string, string>,
  field: keyof SignerSurfaceEnvironment,
  secrets: string[],
): SignerSurfaceEnvironment {
  const config = loadConfig(SignerSurfaceEnvironment, env);
  for (const dump of [JSON.stringify(config), inspect(config, { depth: 10 }), String(config[field])]) {
    for (const secret of secrets) expect(dump).not.toContain(secret.slice(0, 12));
  }
  return config;
}
