import { healthStatusOf } from './health.service';
import type { ServiceChecks } from './service-heartbeats';

const UP: ServiceChecks = {
  'quote-service': 'up',
  'execution-planner': 'up',
  'signer-surface': 'up',
  'limit-order-service': 'up',
};

describe('healthStatusOf', () => {
  it('is ok when PostgreSQL, Kafka and every service are up', () => {
    expect(healthStatusOf({ database: 'up', kafka: 'up', services: UP })).toBe('ok');
  });

  it('is degraded when a service is down', () => {
    expect(
      healthStatusOf({ database: 'up', kafka: 'up', services: { ...UP, 'execution-planner': 'down' } }),
    ).toBe('degraded');
  });

  it('is degraded while a service is not heard from yet (unknown, right after the gateway started): ok means every service is ready', () => {
    expect(
      healthStatusOf({ database: 'up', kafka: 'up', services: { ...UP, 'signer-surface': 'unknown' } }),
    ).toBe('degraded');
    expect(
      healthStatusOf(
        { database: 'up', kafka: 'up', services: { ...UP, 'signer-surface': 'unknown' } },
        'instance',
      ),
    ).toBe('ok');
  });

  it('is degraded when PostgreSQL or Kafka is down, whatever the services', () => {
    expect(healthStatusOf({ database: 'down', kafka: 'up', services: UP })).toBe('degraded');
    expect(healthStatusOf({ database: 'up', kafka: 'down', services: UP }, 'instance')).toBe('degraded');
  });

  it('with scope instance (readiness of this gateway) ignores the services', () => {
    expect(
      healthStatusOf(
        { database: 'up', kafka: 'up', services: { ...UP, 'quote-service': 'down' } },
        'instance',
      ),
    ).toBe('ok');
  });
});
