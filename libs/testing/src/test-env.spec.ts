import path from 'node:path';
import { DEV_DEFAULTS, repoRoot, testEnv } from './test-env';

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
