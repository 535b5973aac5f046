import { ConfigValidationError, loadConfig } from '@swapgw/runtime';
import { GatewayConfig } from './gateway.config';

describe('GatewayConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig(GatewayConfig, {});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      HTTP_BACKLOG: 4096,
      HTTP_ACCEPT_SOCKETS: 16,
      METRICS_PORT: 9464,
      KAFKA_BROKERS: '127.0.0.1:9092',
      BODY_LIMIT_BYTES: 65536,
      RATE_LIMIT_REQUESTS: 600,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      IDEMPOTENCY_TTL_HOURS: 24,
      KAFKA_GROUP_ID: 'gateway',
    });
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('converts numbers and splits the broker list', () => {
    const config = loadConfig(GatewayConfig, {
      PORT: '8080',
      KAFKA_BROKERS: 'a:1,b:2',
      RATE_LIMIT_REQUESTS: '10',
    });
    expect(config.PORT).toBe(8080);
    expect(config.RATE_LIMIT_REQUESTS).toBe(10);
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
  });

  it('refuses to start with bad values, naming each variable', () => {
    let problems = '';
    try {
      loadConfig(GatewayConfig, {
        PORT: 'http',
        METRICS_PORT: '70000',
        DATABASE_URL: 'mysql://x',
        IDEMPOTENCY_TTL_HOURS: '1',
        KAFKA_BROKERS: 'nohostport',
        HTTP_BACKLOG: '0',
        HTTP_ACCEPT_SOCKETS: '0',
      });
    } catch (error) {
      problems = (error as ConfigValidationError).problems.join('\n');
    }
    for (const name of [
      'PORT',
      'METRICS_PORT',
      'DATABASE_URL',
      'IDEMPOTENCY_TTL_HOURS',
      'KAFKA_BROKERS',
      'HTTP_BACKLOG',
      'HTTP_ACCEPT_SOCKETS',
    ])
      expect(problems).toContain(name);
  });

  it('reads the webhook flags as booleans, off for loopback http and on for delivery by default', () => {
    expect(loadConfig(GatewayConfig, {})).toMatchObject({
      WEBHOOKS_ENABLED: true,
      WEBHOOK_ALLOW_LOOPBACK_HTTP: false,
      WEBHOOK_RETRY_WINDOW_MS: 86_400_000,
    });
    expect(
      loadConfig(GatewayConfig, { WEBHOOKS_ENABLED: 'false', WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true' }),
    ).toMatchObject({
      WEBHOOKS_ENABLED: false,
      WEBHOOK_ALLOW_LOOPBACK_HTTP: true,
    });
    let problems = '';
    try {
      loadConfig(GatewayConfig, { WEBHOOK_ALLOW_LOOPBACK_HTTP: 'yes' });
    } catch (error) {
      problems = (error as ConfigValidationError).problems.join('\n');
    }
    expect(problems).toContain('WEBHOOK_ALLOW_LOOPBACK_HTTP');
  });
});
