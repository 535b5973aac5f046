import { loadConfig } from '@swapgw/runtime';
import { SignerSurfaceConfig } from './signer-surface.config';

describe('SignerSurfaceConfig', () => {
  it('has working defaults, including an instance id for the per-instance reply group', () => {
    const config = loadConfig(SignerSurfaceConfig, {});
    expect(config).toMatchObject({ HEALTH_PORT: 3103, CONFIRMATIONS_REQUIRED: 1, LOG_LEVEL: 'log' });
    expect(config.INSTANCE_ID).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
  });

  it('converts numbers and refuses bad values of the shared variables and of its own', () => {
    expect(loadConfig(SignerSurfaceConfig, { CONFIRMATIONS_REQUIRED: '12' }).CONFIRMATIONS_REQUIRED).toBe(12);
    for (const [name, value] of [['LOG_LEVEL', 'loud'], ['INSTANCE_ID', 'a b'], ['DATABASE_URL', 'mysql://x'], ['CONFIRMATIONS_REQUIRED', '0']]) {
      expect(() => loadConfig(SignerSurfaceConfig, { [name]: value })).toThrow(name);
    }
  });
});
