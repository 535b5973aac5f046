import { healthBody } from './health-server';

describe('healthBody', () => {
  it('is ok when Kafka and the database are up', async () => {
    const body = await healthBody({ kafka: () => true, database: async () => true });
    expect(body).toEqual({
      status: 'ok',
      uptimeSeconds: expect.any(Number),
      checks: { kafka: 'up', database: 'up', warmup: 'up' },
    });
  });

  it("is unavailable while the start's warm-ups have not settled, Kafka and the database up", async () => {
    const body = await healthBody({ kafka: () => true, database: () => true, warmup: () => false });
    expect(body).toMatchObject({
      status: 'unavailable',
      checks: { kafka: 'up', database: 'up', warmup: 'down' },
    });
  });

  it('is unavailable and names the failing check, a throwing check counting as down', async () => {
    const body = await healthBody({
      kafka: () => true,
      database: async () => {
        throw new Error('connection refused');
      },
    });
    expect(body).toMatchObject({ status: 'unavailable', checks: { kafka: 'up', database: 'down' } });
  });
});
