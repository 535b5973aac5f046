import { waitFor, WaitForTimeoutError } from './wait-for';

describe('waitFor', () => {
  it('resolves with the first truthy value and stops polling', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { ready: calls } : undefined), { intervalMs: 5 });
    expect(value).toEqual({ ready: 3 });
    expect(calls).toBe(3);
  });

  it('treats a throw as "not yet" and returns once the assertion passes', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 4) throw new Error(`attempt ${calls} failed`);
        return 'ok';
      },
      { intervalMs: 5 },
    );
    expect(value).toBe('ok');
  });

  it('accepts 0 and empty string as values (only undefined, null and false mean "not yet")', async () => {
    await expect(waitFor(() => 0, { timeoutMs: 100 })).resolves.toBe(0);
    await expect(waitFor(() => '', { timeoutMs: 100 })).resolves.toBe('');
  });

  it('gives up after the timeout with the description and the last error', async () => {
    const started = Date.now();
    const error = await waitFor(
      () => {
        throw new Error('balance is 0');
      },
      { timeoutMs: 150, intervalMs: 20, description: 'the USDC balance to arrive' },
    ).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(WaitForTimeoutError);
    expect((error as Error).message).toContain('the USDC balance to arrive');
    expect((error as Error).message).toContain('balance is 0');
    expect((error as WaitForTimeoutError).attempts).toBeGreaterThan(1);
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1000);
  });

  it('reports the last falsy value when nothing threw', async () => {
    const error = await waitFor(() => false, { timeoutMs: 50, intervalMs: 10 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain('last value: false');
  });
});
