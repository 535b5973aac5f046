import fs from 'node:fs';
import { inspect } from 'node:util';
import { SecretText } from './secret-text';

/** How a chain identifier of the API looks (`devnet-a`, `ethereum`): keys of RELAYER_KEYS must. */
export const CHAIN_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The relayer private keys per chain, as configured. Printing it (JSON, inspect) shows only how
 * many keys each chain has: the keys are in a private field and leave it through `keysOf` only.
 */
export class RelayerKeySet {
  readonly #byChain: ReadonlyMap<string, readonly string[]>;

  constructor(byChain: ReadonlyMap<string, readonly string[]> = new Map()) {
    this.#byChain = byChain;
  }

  chains(): string[] {
    return [...this.#byChain.keys()];
  }

  keysOf(chain: string): readonly string[] {
    return this.#byChain.get(chain) ?? [];
  }

  get isEmpty(): boolean {
    return this.#byChain.size === 0;
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.#byChain].map(([chain, keys]) => [chain, `${keys.length} key(s)`]));
  }

  [inspect.custom](): string {
    return `RelayerKeySet ${JSON.stringify(this.toJSON())}`;
  }
}

/** Keys read and checked, or why not. A problem never quotes a key, nor JSON text around one. */
export type RelayerKeysReading = { ok: true; keys: RelayerKeySet } | { ok: false; problem: string };

const ordinal = (i: number): string => `#${i + 1}`;

/**
 * What a key parser says of one key: why it is refused (a phrase after "<source>[chain] key #n",
 * never quoting the key), or what identifies it (two keys with the same identity are one key).
 */
export type KeyCheck = { problem: string } | { identity: string };

/**
 * The JSON shape every key variable shares, `{"<chain id>": [<key>, ...]}`, each key checked by
 * `check`; a chain with no key and a key given twice on a chain are refused. Problems name
 * positions only (see families/evm/relayer-keys.ts, parseRelayerKeys).
 */
export function parseKeysByChain(
  json: string,
  source: string,
  keys: { shape: string; check: (key: unknown) => KeyCheck },
): RelayerKeysReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return {
      ok: false,
      problem: `${source} is not valid JSON${position ? ` (at position ${position})` : ''}`,
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: `${source} must be a JSON object ${keys.shape}` };
  }
  const byChain = new Map<string, string[]>();
  for (const [i, [chain, list]] of Object.entries(parsed).entries()) {
    // A key pasted where a chain id goes must not be echoed: the id is quoted only once it is valid.
    if (!CHAIN_ID_PATTERN.test(chain)) {
      return {
        ok: false,
        problem: `${source}: chain id ${ordinal(i)} is not a chain identifier (a-z, 0-9, -)`,
      };
    }
    if (!Array.isArray(list) || list.length === 0) {
      return { ok: false, problem: `${source}["${chain}"] must be a non-empty array of private keys` };
    }
    const seen = new Map<string, number>();
    for (const [k, key] of list.entries()) {
      const where = `${source}["${chain}"] key ${ordinal(k)}`;
      const checked = keys.check(key);
      if ('problem' in checked) return { ok: false, problem: `${where} ${checked.problem}` };
      const earlier = seen.get(checked.identity);
      if (earlier !== undefined) return { ok: false, problem: `${where} repeats key ${ordinal(earlier)}` };
      seen.set(checked.identity, k);
    }
    byChain.set(chain, list as string[]);
  }
  return { ok: true, keys: new RelayerKeySet(byChain) };
}

/**
 * A key variable read from `<name>` (inline JSON, a SecretText) or `<name>_FILE` (a file holding
 * that JSON), never both, and parsed by `parse`. Neither: an empty key set. A problem names the
 * variable or the file, never its text.
 */
export function readKeysVariable(
  input: { json?: SecretText; file?: string },
  name: string,
  parse: (json: string, source: string) => RelayerKeysReading,
): RelayerKeysReading {
  if (input.json !== undefined && input.file !== undefined) {
    return { ok: false, problem: `set ${name} or ${name}_FILE, not both` };
  }
  if (input.json !== undefined) return parse(input.json.reveal(), name);
  if (input.file === undefined) return { ok: true, keys: new RelayerKeySet() };
  let text: string;
  try {
    text = fs.readFileSync(input.file, 'utf8');
  } catch (error) {
    return {
      ok: false,
      problem: `${name}_FILE ${input.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  return parse(text, `${name}_FILE ${input.file}`);
}
