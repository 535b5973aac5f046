import { inspect } from 'node:util';
import { loadConfig } from '@swapgw/runtime';
import { QuoteServiceConfig } from './quote-service.config';

const env = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/quote',
  LIFI_API_KEY: 'lifi-secret-1',
  JUPITER_API_KEY: 'jupiter-secret-2',
  ZEROX_API_KEY: 'zerox-secret-3',
  SKIP_GO_API_KEY: 'skip-secret-4',
};

describe('QuoteServiceConfig', () => {
  it('turns 0x on with a key only, at https://api.0x.org unless ZEROX_API_URL says otherwise', () => {
    const config = loadConfig(QuoteServiceConfig, env);
    expect(config.ZEROX_API_KEY).toBe('zerox-secret-3');
    expect(config.ZEROX_API_URL).toBe('https://api.0x.org');
    expect(config.ZEROX_QUOTE_TAKER_ADDRESS).toBe('0x0000000000000000000000000000000000000001');
    expect(loadConfig(QuoteServiceConfig, { DATABASE_URL: env.DATABASE_URL }).ZEROX_API_KEY).toBeUndefined();
  });

  it('refuses a ZEROX_API_URL that is not http(s) and a taker that is not an EVM address', () => {
    expect(() => loadConfig(QuoteServiceConfig, { ...env, ZEROX_API_URL: 'api.0x.org' })).toThrow(
      'ZEROX_API_URL must be an http(s) URL',
    );
    expect(() => loadConfig(QuoteServiceConfig, { ...env, ZEROX_QUOTE_TAKER_ADDRESS: '0x1' })).toThrow(
      'ZEROX_QUOTE_TAKER_ADDRESS must be an EVM address',
    );
  });

  it('asks Across’s own API unless ACROSS_API_URL names another or is off, and refuses anything else', () => {
    expect(loadConfig(QuoteServiceConfig, env).ACROSS_API_URL).toBe('https://app.across.to/api');
    expect(loadConfig(QuoteServiceConfig, { ...env, ACROSS_API_URL: 'off' }).ACROSS_API_URL).toBe('off');
    expect(() => loadConfig(QuoteServiceConfig, { ...env, ACROSS_API_URL: 'app.across.to/api' })).toThrow(
      'ACROSS_API_URL must be an http(s) URL or off',
    );
  });

  it('turns Skip Go on with SKIP_GO_API_URL only, and refuses one that is not http(s)', () => {
    expect(loadConfig(QuoteServiceConfig, env).SKIP_GO_API_URL).toBeUndefined();
    expect(
      loadConfig(QuoteServiceConfig, { ...env, SKIP_GO_API_URL: 'https://api.skip.build' }).SKIP_GO_API_URL,
    ).toBe('https://api.skip.build');
    expect(() => loadConfig(QuoteServiceConfig, { ...env, SKIP_GO_API_URL: 'api.skip.build' })).toThrow(
      'SKIP_GO_API_URL must be an http(s) URL',
    );
  });

  it('prints the API keys as [redacted] in a JSON or util.inspect dump, and every other variable as is', () => {
    const config = loadConfig(QuoteServiceConfig, env);
    for (const dump of [JSON.stringify(config), inspect(config, { depth: 5 })]) {
      for (const secret of ['lifi-secret-1', 'jupiter-secret-2', 'zerox-secret-3', 'skip-secret-4'])
        expect(dump).not.toContain(secret);
      expect(dump).toContain('[redacted]');
      expect(dump).toContain('https://api.0x.org');
    }
    expect(JSON.parse(JSON.stringify(config))).toMatchObject({
      ZEROX_API_KEY: '[redacted]',
      LIFI_API_KEY: '[redacted]',
      SKIP_GO_API_KEY: '[redacted]',
      DATABASE_URL: env.DATABASE_URL,
    });
  });
});
