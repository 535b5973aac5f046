import { randomUUID } from 'node:crypto';
import { waitFor } from '@swapgw/testing';
import {
  dropTestDatabase,
  startTestGateway,
  TestGateway,
  testDatabaseUrl,
} from '../../test/support/test-gateway';
import { WebhookOwners } from './webhook-owners';
import { WebhooksRepository } from './webhooks.repository';

// Who has webhooks, as the webhook consumer knows it without reading the table: a real gateway,
// its PostgreSQL and the NOTIFY of each change of gateway.webhooks.

describe('WebhookOwners over PostgreSQL', () => {
  const databaseUrl = testDatabaseUrl('webhook_owners');
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ databaseUrl });
  });

  afterAll(async () => {
    try {
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  it('learns of a registration and of its deletion from their notifications', async () => {
    const owners = gateway.app.get(WebhookOwners);
    const store = gateway.app.get(WebhooksRepository);
    const owner = `wh-owners-${randomUUID().slice(0, 8)}`;
    await waitFor(() => owners.mayHaveWebhooks('nobody-has-one') === false, {
      description: 'the owners read once LISTEN is in place',
    });
    expect(owners.mayHaveWebhooks(owner)).toBe(false);

    const id = randomUUID();
    const webhook = {
      id,
      owner,
      url: 'https://hooks.example.com/x',
      eventTypes: null,
      createdAtMs: Date.now(),
    };
    expect(await store.insert({ ...webhook, secret: 'whsec_test' }, 10)).toBe(true);
    // Known, not merely unknown again: while the set is read again every owner "may have" one.
    await waitFor(() => owners.mayHaveWebhooks(owner) && !owners.mayHaveWebhooks('nobody-has-one'), {
      description: 'the new owner known',
    });
    expect(owners.anyMayExist()).toBe(true);
    expect(owners.mayHaveWebhooks('nobody-has-one')).toBe(false);

    expect(await store.delete(owner, id)).toBe(true);
    await waitFor(() => owners.mayHaveWebhooks(owner) === false, {
      description: 'the deleted owner forgotten',
    });
  });
});
