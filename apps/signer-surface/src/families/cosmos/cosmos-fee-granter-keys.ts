import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  KeyCheck,
  parseKeysByChain,
  readKeysVariable,
  RelayerKeysReading,
} from '../../sponsorship/relayer-keys';
import { SecretText } from '../../sponsorship/secret-text';

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/** The 32 bytes of a fee granter's key (hex, 0x optional), or null when it is not a secp256k1 private key. */
export function cosmosGranterKeyBytes(key: unknown): Uint8Array | null {
  if (typeof key !== 'string' || !HEX_KEY.test(key)) return null;
  const bytes = Uint8Array.from(Buffer.from(key.replace(/^0x/, ''), 'hex'));
  return secp256k1.utils.isValidSecretKey(bytes) ? bytes : null;
}

/** One key of COSMOS_FEE_GRANTER_KEYS: a secp256k1 private key in hex (what `keys export --unarmored-hex` prints). */
export function checkCosmosGranterKey(key: unknown): KeyCheck {
  const bytes = cosmosGranterKeyBytes(key);
  if (!bytes) return { problem: 'is not a secp256k1 private key (64 hex digits)' };
  const identity = Buffer.from(secp256k1.getPublicKey(bytes, true)).toString('hex');
  bytes.fill(0);
  return { identity };
}

/** Parses `{"<chain id>": ["<hex private key>"]}`; problems name positions, never keys. */
export function parseCosmosFeeGranterKeys(json: string, source: string): RelayerKeysReading {
  return parseKeysByChain(json, source, {
    shape: '{"<chain id>": ["<hex secp256k1 private key>"]}',
    check: checkCosmosGranterKey,
  });
}

/**
 * The fee granters' keys from COSMOS_FEE_GRANTER_KEYS (inline JSON) or COSMOS_FEE_GRANTER_KEYS_FILE.
 * Neither: no granter, so Cosmos steps are unavailable (503 SPONSORSHIP_UNAVAILABLE).
 */
export function readCosmosFeeGranterKeys(input: { json?: SecretText; file?: string }): RelayerKeysReading {
  return readKeysVariable(input, 'COSMOS_FEE_GRANTER_KEYS', parseCosmosFeeGranterKeys);
}
