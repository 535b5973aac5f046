import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { parseRelayerKeys, readRelayerKeys } from './relayer-keys';
import { SecretText } from '../../sponsorship/secret-text';
import { keyProblemOf } from '../../../test/key-file-specs';

const KEY_A = `0x${'11'.repeat(32)}`;
const KEY_B = `0x${'2b'.repeat(32)}`;
const SECRET_MARK = /1111|2b2b|abcd/i;

const problemOf = (json: string): string => keyProblemOf(parseRelayerKeys, json, 'RELAYER_KEYS');

describe('parseRelayerKeys', () => {
  it('reads keys per chain, in order', () => {
    const reading = parseRelayerKeys(
      JSON.stringify({ 'devnet-a': [KEY_A, KEY_B], 'devnet-b': [KEY_B] }),
      'RELAYER_KEYS',
    );
    if (!reading.ok) throw new Error(reading.problem);
    expect(reading.keys.chains()).toEqual(['devnet-a', 'devnet-b']);
    expect(reading.keys.keysOf('devnet-a')).toEqual([KEY_A, KEY_B]);
    expect(reading.keys.keysOf('ethereum')).toEqual([]);
  });

  it.each([
    ['not JSON', `{"devnet-a": [${KEY_A}]}`, /RELAYER_KEYS is not valid JSON/],
    ['an array', JSON.stringify([KEY_A]), /must be a JSON object/],
    [
      'a key where a chain id goes',
      JSON.stringify({ [KEY_A]: [KEY_B] }),
      /chain id #1 is not a chain identifier/,
    ],
    ['an empty list', JSON.stringify({ 'devnet-a': [] }), /\["devnet-a"\] must be a non-empty array/],
    [
      'a short key',
      JSON.stringify({ 'devnet-a': [KEY_A.slice(0, 40)] }),
      /\["devnet-a"\] key #1 is not a 0x-prefixed 32-byte hex private key/,
    ],
    [
      'a key without 0x',
      JSON.stringify({ 'devnet-a': [KEY_B, KEY_A.slice(2)] }),
      /key #2 is not a 0x-prefixed/,
    ],
    [
      'the zero key',
      JSON.stringify({ 'devnet-a': [`0x${'00'.repeat(32)}`] }),
      /outside the secp256k1 key range/,
    ],
    [
      'a key past the curve order',
      JSON.stringify({ 'devnet-a': [`0x${'ff'.repeat(32)}`] }),
      /outside the secp256k1 key range/,
    ],
    [
      'a repeated key',
      JSON.stringify({ 'devnet-a': [KEY_A, KEY_B, KEY_A.toUpperCase().replace('0X', '0x')] }),
      /key #3 repeats key #1/,
    ],
  ])('refuses %s, naming where without quoting any key', (_, json, expected) => {
    const problem = problemOf(json);
    expect(problem).toMatch(expected);
    expect(problem).not.toMatch(SECRET_MARK);
  });

  it('does not pass on the JSON parser message, which quotes the input', () => {
    const problem = problemOf(`{"devnet-a": ["0xabcd${'11'.repeat(30)}",]}`);
    expect(problem).toMatch(/^RELAYER_KEYS is not valid JSON( \(at position \d+\))?$/);
  });
});

describe('RelayerKeySet', () => {
  it('prints key counts, never keys', () => {
    const reading = parseRelayerKeys(JSON.stringify({ 'devnet-a': [KEY_A, KEY_B] }), 'RELAYER_KEYS');
    const keys = (reading as { keys: RelayerKeySet }).keys;
    expect(JSON.stringify({ keys })).toBe('{"keys":{"devnet-a":"2 key(s)"}}');
    expect(inspect(keys, { showHidden: true, depth: 5 })).not.toMatch(SECRET_MARK);
    expect(`${inspect({ keys })}`).toContain('RelayerKeySet');
  });
});

describe('readRelayerKeys', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-keys-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has no relayers when neither variable is set', () => {
    const reading = readRelayerKeys({});
    expect(reading.ok && reading.keys.isEmpty).toBe(true);
  });

  it('reads RELAYER_KEYS_FILE (a mounted Secret, trailing newline and all)', () => {
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, `${JSON.stringify({ 'devnet-a': [KEY_A] })}\n`);
    const reading = readRelayerKeys({ file });
    expect(reading.ok && reading.keys.keysOf('devnet-a')).toEqual([KEY_A]);
  });

  it('names the file and the position in its problems, not its content', () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ 'devnet-a': [KEY_A.slice(0, 20)] }));
    const reading = readRelayerKeys({ file });
    expect(reading).toEqual({
      ok: false,
      problem: `RELAYER_KEYS_FILE ${file}["devnet-a"] key #1 is not a 0x-prefixed 32-byte hex private key`,
    });
    expect(readRelayerKeys({ file: path.join(dir, 'missing.json') })).toEqual({
      ok: false,
      problem: expect.stringMatching(/cannot be read \(ENOENT\)/),
    });
  });

  it('refuses both variables at once', () => {
    expect(readRelayerKeys({ json: new SecretText('{}'), file: '/x' })).toEqual({
      ok: false,
      problem: 'set RELAYER_KEYS or RELAYER_KEYS_FILE, not both',
    });
  });
});
