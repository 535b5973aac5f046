import { SecretText } from '../../sponsorship/secret-text';
import { parseKeysByChain, readKeysVariable, RelayerKeysReading } from '../../sponsorship/relayer-keys';

const PRIVATE_KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;
/** Order of secp256k1: a private key is an integer in [1, n-1]. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * Parses `{"<chain id>": ["0x<32-byte hex private key>", ...]}`. The messages name the variable and
 * the position (chain, index) of what is wrong, never its text: RELAYER_KEYS problems end up in
 * boot logs, and the text is a private key or JSON around one (V8's JSON.parse messages quote the
 * input, so they are not passed on either).
 */
export function parseRelayerKeys(json: string, source: string): RelayerKeysReading {
  return parseKeysByChain(json, source, {
    shape: '{"<chain id>": ["0x<private key>", ...]}',
    check: (key) => {
      if (typeof key !== 'string' || !PRIVATE_KEY_PATTERN.test(key)) {
        return { problem: 'is not a 0x-prefixed 32-byte hex private key' };
      }
      const scalar = BigInt(key);
      if (scalar === 0n || scalar >= SECP256K1_ORDER)
        return { problem: 'is outside the secp256k1 key range' };
      return { identity: key.toLowerCase() };
    },
  });
}

/**
 * The relayer keys from RELAYER_KEYS (inline JSON) or RELAYER_KEYS_FILE (a file holding that JSON,
 * e.g. a mounted Kubernetes Secret). Neither: no relayers, so sponsorship is unavailable.
 */
export function readRelayerKeys(input: { json?: SecretText; file?: string }): RelayerKeysReading {
  return readKeysVariable(input, 'RELAYER_KEYS', parseRelayerKeys);
}
