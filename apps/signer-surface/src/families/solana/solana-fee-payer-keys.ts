import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import bs58 from 'bs58';
import {
  KeyCheck,
  parseKeysByChain,
  readKeysVariable,
  RelayerKeysReading,
} from '../../sponsorship/relayer-keys';
import { SecretText } from '../../sponsorship/secret-text';

/** PKCS#8 prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/**
 * The Ed25519 private key of a Solana secret key (64 bytes: seed, then public key) as a KeyObject,
 * which prints nothing of the key however it is logged.
 */
export function ed25519PrivateKey(secretKey: Uint8Array): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, secretKey.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** The 32-byte public key of an Ed25519 private key. */
export function ed25519PublicKeyOf(key: KeyObject): Buffer {
  return createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32);
}

/**
 * One key of SOLANA_FEE_PAYER_KEYS: a base58 64-byte secret key, as `solana-keygen` and web3.js
 * (`bs58.encode(keypair.secretKey)`) write it, whose public half is the one its seed derives.
 */
export function checkSolanaSecretKey(key: unknown): KeyCheck {
  const malformed = { problem: 'is not a base58 64-byte Solana secret key' };
  if (typeof key !== 'string' || !BASE58.test(key)) return malformed;
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(key);
  } catch {
    return malformed;
  }
  if (bytes.length !== 64) return malformed;
  const publicKey = bytes.subarray(32);
  if (!ed25519PublicKeyOf(ed25519PrivateKey(bytes)).equals(publicKey)) {
    return {
      problem: 'is not a consistent Solana secret key (its last 32 bytes are not the public key of its seed)',
    };
  }
  return { identity: bs58.encode(publicKey) };
}

/** Parses `{"<chain id>": ["<base58 64-byte secret key>", ...]}`; problems name positions, never keys. */
export function parseSolanaFeePayerKeys(json: string, source: string): RelayerKeysReading {
  return parseKeysByChain(json, source, {
    shape: '{"<chain id>": ["<base58 secret key>", ...]}',
    check: checkSolanaSecretKey,
  });
}

/**
 * The Solana fee payer keys from SOLANA_FEE_PAYER_KEYS (inline JSON) or SOLANA_FEE_PAYER_KEYS_FILE.
 * Neither: no fee payer, so sponsored Solana steps are unavailable.
 */
export function readSolanaFeePayerKeys(input: { json?: SecretText; file?: string }): RelayerKeysReading {
  return readKeysVariable(input, 'SOLANA_FEE_PAYER_KEYS', parseSolanaFeePayerKeys);
}
