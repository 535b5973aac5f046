/**
 * What a log line must never carry: private keys, mnemonics, signatures, signed transactions, API
 * keys, credentials in headers and URLs. Applied by JsonLogger to every line before it is written.
 *
 * Two guards. By key: any field whose name says it holds a secret (at any depth, in objects and
 * arrays) is replaced by "[REDACTED]" whatever its value. By value: a string that looks like a
 * secret wherever it sits (a 32-byte hex key, a PEM private key, a 12/24-word mnemonic, credentials
 * in a URL, a Bearer token, one of our API keys or webhook secrets, hex as long as a signature) is masked, so a secret logged under an innocent
 * name (an error message quoting a URL, a `detail` array) does not leak either. Transaction hashes
 * and addresses stay readable: they are what an operator greps for.
 */
export const REDACTED = '[REDACTED]';

/** Field names (lower-cased, without `-` and `_`) whose values are secrets. */
const SECRET_KEYS = new Set([
  'privatekey',
  'secretkey',
  'secret',
  'mnemonic',
  'seed',
  'seedphrase',
  'password',
  'passphrase',
  'signature',
  'signatures',
  'signedtransaction',
  'signedtx',
  'rawtransaction',
  'rawtx',
  'serializedtransaction',
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'accesstoken',
  'refreshtoken',
  'webhooksecret',
  'signingsecret',
  'databaseurl',
  'kafkapassword',
  'kafkasaslpassword',
  'kafkasslkeypassword',
  'keypassword',
  'sslkey',
]);

const normalized = (key: string): string => key.toLowerCase().replace(/[-_]/g, '');

/** True when a field named `key` holds a secret: one of SECRET_KEYS, or any name ending in one of the strongest. */
export function isSecretKey(key: string): boolean {
  const name = normalized(key);
  return (
    SECRET_KEYS.has(name) ||
    /(privatekey|secretkey|mnemonic|password|passphrase|signature|apikey|secret|signedtransaction|signedtx)$/.test(
      name,
    )
  );
}

const VALUE_PATTERNS: Array<[RegExp, string]> = [
  // PEM private keys (TLS, Kafka SSL key files).
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // user:password@ in any URL (DATABASE_URL, broker URLs).
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]+@/gi, `$1${REDACTED}@`],
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // Our API keys (sgw_…, apps/gateway auth/api-key.ts) and webhook secrets (whsec_…).
  [/\b(sgw|whsec)_[A-Za-z0-9_+/=-]{16,}/g, REDACTED],
  // Signatures and raw signed transactions: hex longer than a key (65-byte signatures and up).
  [/\b0x[0-9a-fA-F]{130,}\b/g, REDACTED],
  // 32-byte hex not prefixed by 0x is not a tx hash or address format we log: a private key.
  [/(?<![0-9a-fA-Fx])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g, REDACTED],
];

/** 12, 15, 18, 21 or 24 lower-case words: a BIP-39 mnemonic. */
const MNEMONIC = /^\s*([a-z]{3,8}\s+){11,23}[a-z]{3,8}\s*$/;

export function redactString(value: string): string {
  if (MNEMONIC.test(value) && [12, 15, 18, 21, 24].includes(value.trim().split(/\s+/).length)) {
    return REDACTED;
  }
  let out = value;
  for (const [pattern, replacement] of VALUE_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A copy of `value` with every secret field and secret-looking string masked. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[${value.length} bytes]`;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value instanceof Error) {
    return redact({ name: value.name, message: value.message, stack: value.stack }, depth);
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    out[key] =
      isSecretKey(key) && field !== undefined && field !== null ? REDACTED : redact(field, depth + 1);
  }
  return out;
}
