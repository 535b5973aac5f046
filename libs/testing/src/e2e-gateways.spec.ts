import { e2eGatewayPair, e2eGatewayUrl } from './e2e-gateways';

describe('e2e gateway instances', () => {
  it('answers the first gateway and refuses a missing GATEWAY_URL', () => {
    expect(e2eGatewayUrl({ GATEWAY_URL: 'http://127.0.0.1:1/api/v1' })).toBe('http://127.0.0.1:1/api/v1');
    expect(() => e2eGatewayUrl({})).toThrow(/GATEWAY_URL is not set/);
  });

  it('answers two instances, and refuses one instead of falling back to it twice', () => {
    expect(e2eGatewayPair({ GATEWAY_URLS: 'http://a/api/v1, http://b/api/v1,http://c/api/v1' })).toEqual([
      'http://a/api/v1',
      'http://b/api/v1',
    ]);
    expect(() => e2eGatewayPair({ GATEWAY_URLS: 'http://a/api/v1' })).toThrow(/names 1 gateway instance/);
    expect(() => e2eGatewayPair({})).toThrow(/names 0 gateway instance/);
  });
});
