import {
  checkWebhookUrl,
  classifyAddress,
  guardedLookup,
  resolveAllowed,
  WebhookTargetRefused,
} from './webhook-url-policy';

const production = { allowLoopbackHttp: false };
const development = { allowLoopbackHttp: true };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'reserved'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private'],
    ['fc12:3456::1', 'private'],
    ['ff02::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::10.0.0.1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('checkWebhookUrl', () => {
  const reason = (url: string, policy = production) => {
    const verdict = checkWebhookUrl(url, policy);
    return verdict.ok ? 'ok' : verdict.reason;
  };

  it('accepts public https URLs', () => {
    expect(reason('https://hooks.example.com/swapgw?x=1')).toBe('ok');
    expect(reason('https://8.8.8.8:8443/hook')).toBe('ok');
    expect(reason('https://[2606:4700:4700::1111]/hook')).toBe('ok');
  });

  it('refuses http, other schemes, relative URLs and credentials', () => {
    expect(reason('http://hooks.example.com/')).toMatch(/https/);
    expect(reason('ftp://hooks.example.com/')).toMatch(/https/);
    expect(reason('/relative')).toMatch(/absolute/);
    expect(reason('https://user:pw@hooks.example.com/')).toMatch(/credentials/);
    expect(reason(`https://example.com/${'a'.repeat(2100)}`)).toMatch(/longer/);
  });

  it('refuses internal IP literals and localhost in production', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://10.0.0.5/',
      'https://169.254.169.254/latest',
      'https://[::1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://localhost/',
      'https://0x7f000001/',
    ]) {
      expect(reason(url)).not.toBe('ok');
    }
  });

  it('with the development flag accepts loopback over http, and still refuses private and link-local targets', () => {
    expect(reason('http://127.0.0.1:4000/hook', development)).toBe('ok');
    expect(reason('http://localhost:4000/hook', development)).toBe('ok');
    expect(reason('http://[::1]:4000/hook', development)).toBe('ok');
    expect(reason('http://hooks.example.com/', development)).toMatch(/https/);
    expect(reason('http://10.0.0.5/', development)).toMatch(/https/);
    expect(reason('https://169.254.169.254/', development)).toMatch(/link-local/);
  });
});

describe('resolveAllowed (delivery time)', () => {
  const resolver = (addresses: string[]) => async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('lets a name through only when every address it resolves to is allowed', async () => {
    await expect(
      resolveAllowed('hooks.example.com', production, resolver(['93.184.216.34'])),
    ).resolves.toHaveLength(1);
    await expect(
      resolveAllowed('rebound.example.com', production, resolver(['93.184.216.34', '10.0.0.7'])),
    ).rejects.toThrow(WebhookTargetRefused);
    await expect(
      resolveAllowed('meta.example.com', production, resolver(['169.254.169.254'])),
    ).rejects.toThrow(/link-local/);
    await expect(resolveAllowed('localhost', production, resolver(['127.0.0.1']))).rejects.toThrow(
      /loopback/,
    );
    await expect(
      resolveAllowed('localhost', development, resolver(['127.0.0.1', '::1'])),
    ).resolves.toHaveLength(2);
    await expect(resolveAllowed('empty.example.com', production, resolver([]))).rejects.toThrow(
      /does not resolve/,
    );
  });

  it('the socket lookup hands out only checked addresses, and fails the connection otherwise', async () => {
    const lookup = guardedLookup(production, resolver(['10.0.0.7']));
    const error = await new Promise<Error | null>((resolve) =>
      lookup('internal.example.com', {}, (e) => resolve(e)),
    );
    expect(error).toBeInstanceOf(WebhookTargetRefused);
    const allowed = guardedLookup(production, resolver(['93.184.216.34']));
    const address = await new Promise<string>((resolve) =>
      allowed('hooks.example.com', {}, (_e, a) => resolve(a as string)),
    );
    expect(address).toBe('93.184.216.34');
  });
});
