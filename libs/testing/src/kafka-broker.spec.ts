import { retryOnPortClash } from './kafka-broker';

describe('retryOnPortClash', () => {
  const clash = new Error('Caused by: java.net.BindException: Address already in use');

  it('starts again, with the ports chosen afresh, while a port was taken', async () => {
    const tried: number[] = [];
    const started = await retryOnPortClash(async () => {
      tried.push(40_000 + tried.length);
      if (tried.length < 3) throw clash;
      return tried[tried.length - 1];
    });
    expect(tried).toEqual([40_000, 40_001, 40_002]);
    expect(started).toBe(40_002);
  });

  it('gives up after the third clash', async () => {
    let attempts = 0;
    await expect(
      retryOnPortClash(async () => {
        attempts++;
        throw clash;
      }),
    ).rejects.toThrow('Address already in use');
    expect(attempts).toBe(3);
  });

  it('does not start again after any other failure', async () => {
    let attempts = 0;
    await expect(
      retryOnPortClash(async () => {
        attempts++;
        throw new Error('Kafka exited during start-up: java not found');
      }),
    ).rejects.toThrow('java not found');
    expect(attempts).toBe(1);
  });
});
