import { CodedError } from '@swapgw/contracts';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookRow, WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** An in-memory stand-in for the registrations table (pure logic under test: URL checks, defaults, scoping). */
class FakeWebhooks implements Pick<WebhooksRepository, 'insert' | 'get' | 'list' | 'delete'> {
  readonly rows: Array<WebhookRow & { secret: string }> = [];
  async insert(row: WebhookRow & { secret: string }, max: number) {
    if (this.rows.filter((r) => r.owner === row.owner).length >= max) return false;
    this.rows.push(row);
    return true;
  }
  async get(owner: string, id: string) {
    return this.rows.find((r) => r.owner === owner && r.id === id) ?? null;
  }
  async list(owner: string) {
    return this.rows.filter((r) => r.owner === owner);
  }
  async delete(owner: string, id: string) {
    const i = this.rows.findIndex((r) => r.owner === owner && r.id === id);
    if (i >= 0) this.rows.splice(i, 1);
    return i >= 0;
  }
}

describe('WebhooksService', () => {
  const make = (env: Record<string, string> = {}, addresses: Record<string, string[]> = {}) => {
    const webhooks = new FakeWebhooks();
    const service = new WebhooksService(
      loadConfig(GatewayConfig, env),
      webhooks as unknown as WebhooksRepository,
      {} as WebhookDeliveriesRepository,
      new SystemClock(),
    );
    service.resolve = async (host) => {
      const found = addresses[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { service, webhooks };
  };
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: CodedError) => error.code,
    );

  it('registers a public https URL with a secret shown once; empty or absent eventTypes mean every type', async () => {
    const { service, webhooks } = make({}, { 'hooks.example.com': ['93.184.216.34'] });
    const created = await service.create('alice', { url: 'https://hooks.example.com/in', eventTypes: [] });
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/in',
      allEventTypes: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(created.eventTypes).toContain('swap.completed');
    expect(webhooks.rows[0].eventTypes).toBeNull();
    const listed = await service.list('alice');
    expect(listed.items[0]).not.toHaveProperty('secret');
  });

  it('refuses, as WEBHOOK_URL_REJECTED, hosts that resolve to internal addresses or not at all, and loopback http in production', async () => {
    const { service } = make(
      {},
      { 'internal.example.com': ['10.1.2.3'], 'meta.example.com': ['169.254.169.254'] },
    );
    expect(await codeOf(service.create('alice', { url: 'https://internal.example.com/' }))).toBe(
      'WEBHOOK_URL_REJECTED',
    );
    expect(await codeOf(service.create('alice', { url: 'https://meta.example.com/' }))).toBe(
      'WEBHOOK_URL_REJECTED',
    );
    expect(await codeOf(service.create('alice', { url: 'https://nowhere.example.com/' }))).toBe(
      'WEBHOOK_URL_REJECTED',
    );
    expect(await codeOf(service.create('alice', { url: 'http://127.0.0.1:4000/' }))).toBe(
      'WEBHOOK_URL_REJECTED',
    );
  });

  it('accepts loopback http with the development flag', async () => {
    const { service } = make({ WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true' });
    expect(await codeOf(service.create('alice', { url: 'http://127.0.0.1:4000/hook' }))).toBe('ok');
  });

  it("answers WEBHOOK_NOT_FOUND for another owner's webhook and for ids that are not UUIDs; caps webhooks per owner", async () => {
    const { service } = make({}, { 'hooks.example.com': ['93.184.216.34'] });
    const { id } = await service.create('alice', { url: 'https://hooks.example.com/in' });
    expect(await codeOf(service.delete('bob', id))).toBe('WEBHOOK_NOT_FOUND');
    expect(await codeOf(service.listDeliveries('bob', id, {}))).toBe('WEBHOOK_NOT_FOUND');
    expect(await codeOf(service.delete('alice', 'x'))).toBe('WEBHOOK_NOT_FOUND');
    for (let i = 1; i < 20; i++) await service.create('alice', { url: 'https://hooks.example.com/in' });
    expect(await codeOf(service.create('alice', { url: 'https://hooks.example.com/in' }))).toBe(
      'WEBHOOK_LIMIT_REACHED',
    );
    expect(await codeOf(service.delete('alice', id))).toBe('ok');
  });
});
