import fs from 'node:fs';
import type { DevnetManifestView, MainnetReplicaChains } from '@swapgw/chains/devnet-manifest';

/**
 * A sponsor's keys for signer-surface as a reader found them: where they come from (`source`, for
 * printing), the keys JSON (undefined when signer-surface reads `<variable>_FILE` itself) and the
 * addresses per chain, for printing; the keys themselves are never printed.
 */
export interface DevnetSponsorKeys {
  source: string;
  keys: string | undefined;
  addresses: Record<string, string[]>;
}

/**
 * One family's accounts that pay for users (signer-surface's sponsor keys), as `npm start`, `npm test`
 * and the bench give them (tools/stack/lib.mjs reads DEVNET_SPONSORS, in devnet-families.ts): the
 * variable, what `npm start` calls its accounts, the devnet's daily budget and other devnet settings
 * (each unless the caller set it), and the reader of the keys (the caller's, else the devnet's from
 * the manifest).
 */
export interface DevnetSponsor {
  readonly variable: string;
  readonly accounts: string;
  readonly budget: Record<string, string>;
  readonly devnetSettings?: Record<string, string>;
  keysOf(manifestPath: string, env?: NodeJS.ProcessEnv): DevnetSponsorKeys | undefined;
}

/** A devnet manifest or the mainnet replica's, as the sponsors' readers take it from its file. */
export type SponsorManifest = DevnetManifestView & {
  mnemonic?: string;
  mainnetReplica?: MainnetReplicaChains;
};

/** The manifest at `manifestPath`, parsed; undefined when there is none. */
export function sponsorManifestOf(manifestPath: string): SponsorManifest | undefined {
  if (!fs.existsSync(manifestPath)) return undefined;
  return JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SponsorManifest;
}

/**
 * The caller's keys, which win over the devnet's: none when it names a keys file
 * (`<variable>_FILE`: signer-surface reads it itself), its keys JSON when `<variable>` is set (with
 * their addresses by `addressesOf`); undefined when neither is set.
 */
export function callerSponsorKeys(
  variable: string,
  env: NodeJS.ProcessEnv,
  addressesOf: (keysJson: string) => Record<string, string[]>,
): DevnetSponsorKeys | undefined {
  const file = env[`${variable}_FILE`];
  if (file) return { source: `${variable}_FILE ${file}`, keys: undefined, addresses: {} };
  const keys = env[variable];
  return keys ? { source: variable, keys, addresses: addressesOf(keys) } : undefined;
}

/** Addresses per chain of a keys JSON (`{chain: [key, …]}`), each key's by `addressOf`; `{}` when not JSON. */
export function sponsorAddressesOf(
  keysJson: string,
  addressOf: (key: string, chain: string) => string | null,
): Record<string, string[]> {
  try {
    return Object.fromEntries(
      Object.entries(JSON.parse(keysJson) as Record<string, unknown>).map(([chain, keys]) => [
        chain,
        (Array.isArray(keys) ? keys : []).map((key) => {
          try {
            return addressOf(String(key), chain) ?? '(malformed key)';
          } catch {
            return '(malformed key)';
          }
        }),
      ]),
    );
  } catch {
    return {};
  }
}
