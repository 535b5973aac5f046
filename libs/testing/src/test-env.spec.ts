import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_DEFAULTS, devnetThornodeEnv, repoRoot, testEnv } from './test-env';

describe('testEnv', () => {
  it('uses the variables that npm test exports', () => {
    const env = testEnv({
      KAFKA_BROKERS: '127.0.0.1:29092, 127.0.0.1:29094',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/swapgw_test_abc',
      DEVNET_MANIFEST: '/tmp/run/manifest.json',
      TEST_RUN_DIR: '/tmp/run',
    });
    expect(env.brokers).toEqual(['127.0.0.1:29092', '127.0.0.1:29094']);
    expect(env.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/swapgw_test_abc');
    expect(env.devnetManifest).toBe('/tmp/run/manifest.json');
    expect(env.env).toEqual({
      KAFKA_BROKERS: '127.0.0.1:29092, 127.0.0.1:29094',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/swapgw_test_abc',
      DEVNET_MANIFEST: '/tmp/run/manifest.json',
      TEST_RUN_DIR: '/tmp/run',
    });
  });

  it('falls back to the development defaults when unset or empty', () => {
    const env = testEnv({ KAFKA_BROKERS: '' });
    expect(env.kafkaBrokers).toBe(DEV_DEFAULTS.KAFKA_BROKERS);
    expect(env.databaseUrl).toBe(DEV_DEFAULTS.DATABASE_URL);
    expect(env.devnetManifest).toBe(path.join(repoRoot, '.run', 'devnet', 'manifest.json'));
    expect(env.runDir).toBe(path.join(repoRoot, '.run', 'test'));
  });

  it('finds the repository root', () => {
    expect(require(path.join(repoRoot, 'package.json')).name).toBe('swap-gateway');
  });
});

describe('devnetThornodeEnv', () => {
  const manifestWith = (bitcoin: unknown): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-thornode-env-'));
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, JSON.stringify({ bitcoin }));
    return file;
  };

  it("gives quote-service the devnet's THORNode as THORNODE_URL, unless the caller set one or there is none", () => {
    const manifest = manifestWith({
      bridge: { thornode: { url: 'http://127.0.0.1:41234', chains: { 'devnet-a': 'ETH' } } },
    });
    expect(devnetThornodeEnv(manifest, {})).toEqual({ THORNODE_URL: 'http://127.0.0.1:41234' });
    expect(devnetThornodeEnv(manifest, { THORNODE_URL: 'https://thornode.ninerealms.com' })).toEqual({});
    expect(devnetThornodeEnv(manifestWith({ bridge: {} }), {})).toEqual({});
    expect(devnetThornodeEnv('/nonexistent/manifest.json', {})).toEqual({});
  });
});
