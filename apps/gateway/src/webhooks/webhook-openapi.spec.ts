import type { OpenAPIObject } from '@nestjs/swagger';
import { addWebhookEvents } from './webhook-openapi';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types';

describe('the OpenAPI webhooks section', () => {
  const document = addWebhookEvents({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
  } as OpenAPIObject) as unknown as {
    webhooks: Record<
      string,
      {
        post: {
          parameters: Array<{ name: string }>;
          requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
        };
      }
    >;
  };

  it('describes every event type a webhook can subscribe to, with the signed delivery headers and body', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, item] of Object.entries(document.webhooks)) {
      expect((item.post as unknown as { operationId: string }).operationId).toMatch(
        /^webhook[A-Z][A-Za-z]+$/,
      );
      expect(item.post.parameters.map((p) => p.name)).toEqual([
        'Webhook-Id',
        'Webhook-Event-Id',
        'Webhook-Timestamp',
        'Webhook-Signature',
      ]);
      const body = item.post.requestBody.content['application/json'].schema;
      expect(body.properties.type).toEqual({ const: type });
      expect(Object.keys(body.properties)).toEqual(['id', 'eventId', 'type', 'occurredAtMs', 'data']);
    }
  });
});
