import { api } from './api-client';

// What an operator checks after `npm start`: every instance answers its health endpoint.
describe('e2e stack started by the harness', () => {
  it('serves GET /health on every gateway instance without authentication', async () => {
    const urls = (process.env.GATEWAY_URLS ?? '').split(',').filter(Boolean);
    expect(urls.length).toBeGreaterThanOrEqual(1);
    for (const url of urls) {
      const response = await api(url).get('/health');
      expect(response.status).toBe(200);
    }
  });

  it('reports every Kafka service live and ready with its Kafka and database checks', async () => {
    const services = ['QUOTE_SERVICE', 'EXECUTION_PLANNER', 'SIGNER_SURFACE', 'LIMIT_ORDER_SERVICE'];
    const started = services.filter((s) => process.env[`${s}_HEALTH_URL`]);
    expect(started).toEqual(services);
    for (const service of started) {
      const client = api(process.env[`${service}_HEALTH_URL`] as string);
      expect((await client.get('/health/live')).status).toBe(200);
      const ready = await client.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ checks: { kafka: expect.anything(), database: expect.anything() } });
      expect(typeof ready.body.uptimeSeconds).toBe('number');
    }
  });
});
