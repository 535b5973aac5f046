import { loadConfig } from '@swapgw/runtime';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configHidingKeys, configProblemsOf } from '../../test/key-file-specs';
import { SignerSurfaceEnvironment } from './families';

const KEY = `0x${'4c'.repeat(32)}`;

describe('SignerSurfaceConfig', () => {
  it('has working defaults, including an instance id for the per-instance reply group', () => {
    const config = loadConfig(SignerSurfaceEnvironment, {});
    expect(config).toMatchObject({ HEALTH_PORT: 3103, CONFIRMATIONS_REQUIRED: 1, LOG_LEVEL: 'log' });
    expect(config.INSTANCE_ID).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
  });

  it('converts numbers and refuses bad values of the shared variables and of its own', () => {
    expect(
      loadConfig(SignerSurfaceEnvironment, { CONFIRMATIONS_REQUIRED: '12' }).CONFIRMATIONS_REQUIRED,
    ).toBe(12);
    for (const [name, value] of [
      ['LOG_LEVEL', 'loud'],
      ['INSTANCE_ID', 'a b'],
      ['DATABASE_URL', 'mysql://x'],
      ['CONFIRMATIONS_REQUIRED', '0'],
    ]) {
      expect(() => loadConfig(SignerSurfaceEnvironment, { [name]: value })).toThrow(name);
    }
  });
});

describe('SignerSurfaceConfig relaying', () => {
  it('defaults: no relayers, 15 s stuck delay, 25% bump, 0.01 ETH minimum balance, 0.1 ETH daily budget', () => {
    const config = loadConfig(SignerSurfaceEnvironment, {});
    expect(config.relayerKeys).toEqual({ ok: true, keys: expect.objectContaining({ isEmpty: true }) });
    expect(config).toMatchObject({
      RELAYER_STUCK_AFTER_MS: 15_000,
      RELAYER_FEE_BUMP_PERCENT: 25,
      RELAYER_MIN_BALANCE_WEI: '10000000000000000',
      SPONSORSHIP_DAILY_BUDGET_WEI: '100000000000000000',
    });
  });

  it('reads RELAYER_KEYS and never shows it in a dump of the config', () => {
    const config = configHidingKeys({ RELAYER_KEYS: JSON.stringify({ 'devnet-a': [KEY] }) }, 'RELAYER_KEYS', [
      KEY,
    ]);
    expect(config.relayerKeys.ok && config.relayerKeys.keys.keysOf('devnet-a')).toEqual([KEY]);
    expect(JSON.stringify(config)).toContain('"RELAYER_KEYS":"[redacted]"');
  });

  it('refuses malformed keys with a message that names the position, never the value', () => {
    const short = KEY.slice(0, 50);
    const message = configProblemsOf({ RELAYER_KEYS: JSON.stringify({ 'devnet-a': [KEY, short] }) });
    expect(message).toContain('RELAYER_KEYS["devnet-a"] key #2 is not a 0x-prefixed 32-byte hex private key');
    expect(message).not.toContain('4c4c');
    expect(configProblemsOf({ RELAYER_KEYS: `{"devnet-a": ["${KEY}"` })).not.toContain('4c4c');
  });

  it('reads RELAYER_KEYS_FILE, and refuses it missing or together with RELAYER_KEYS', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signer-config-'));
    try {
      const file = path.join(dir, 'relayer-keys.json');
      fs.writeFileSync(file, JSON.stringify({ 'devnet-b': [KEY] }));
      const config = loadConfig(SignerSurfaceEnvironment, { RELAYER_KEYS_FILE: file });
      expect(config.relayerKeys.ok && config.relayerKeys.keys.chains()).toEqual(['devnet-b']);
      expect(configProblemsOf({ RELAYER_KEYS_FILE: path.join(dir, 'none.json') })).toMatch(
        /RELAYER_KEYS_FILE .*none\.json cannot be read \(ENOENT\)/,
      );
      const both = configProblemsOf({
        RELAYER_KEYS_FILE: file,
        RELAYER_KEYS: JSON.stringify({ 'devnet-a': [KEY] }),
      });
      expect(both).toContain('set RELAYER_KEYS or RELAYER_KEYS_FILE, not both');
      expect(both).not.toContain('4c4c');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bounds the fee bump (nodes need +10% to replace) and checks the wei settings', () => {
    expect(configProblemsOf({ RELAYER_FEE_BUMP_PERCENT: '9' })).toContain('RELAYER_FEE_BUMP_PERCENT');
    expect(
      loadConfig(SignerSurfaceEnvironment, { RELAYER_FEE_BUMP_PERCENT: '10' }).RELAYER_FEE_BUMP_PERCENT,
    ).toBe(10);
    expect(configProblemsOf({ SPONSORSHIP_DAILY_BUDGET_WEI: '1e18' })).toContain(
      'SPONSORSHIP_DAILY_BUDGET_WEI must be a decimal string of wei',
    );
    expect(configProblemsOf({ RELAYER_MIN_BALANCE_WEI: '{"devnet-a": 5}' })).toContain(
      'RELAYER_MIN_BALANCE_WEI["devnet-a"] must be a decimal string of wei',
    );
    expect(configProblemsOf({ SPONSORSHIP_BUDGET_OVERRIDES: '{"key-1": 5}' })).toContain(
      'SPONSORSHIP_BUDGET_OVERRIDES["key-1"]',
    );
    const config = loadConfig(SignerSurfaceEnvironment, {
      RELAYER_MIN_BALANCE_WEI: '{"devnet-a": "1", "*": "2"}',
      SPONSORSHIP_DAILY_BUDGET_WEI: '1000000000000000000',
      SPONSORSHIP_BUDGET_OVERRIDES: '{"key-1": {"devnet-a": "5"}}',
    });
    expect(config.SPONSORSHIP_DAILY_BUDGET_WEI).toBe('1000000000000000000');
  });
});
