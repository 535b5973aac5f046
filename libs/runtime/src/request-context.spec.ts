import {
  childTraceparent,
  currentRequestContext,
  newRequestContext,
  runWithRequestContext,
  traceIdOf,
} from './request-context';

describe('request context', () => {
  it('keeps a well-formed incoming request id and replaces a bad one', () => {
    expect(newRequestContext({ requestId: 'abc-123' }).requestId).toBe('abc-123');
    const replaced = newRequestContext({ requestId: 'bad id with spaces' }).requestId;
    expect(replaced).not.toBe('bad id with spaces');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues an incoming trace with a new span', () => {
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const child = childTraceparent(parent);
    expect(traceIdOf(child)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(child).not.toBe(parent);
  });

  it('starts a new trace for a malformed or all-zero traceparent', () => {
    expect(traceIdOf(childTraceparent('garbage'))).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf(childTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01'))).not.toBe(
      '00000000000000000000000000000000',
    );
  });

  it('is visible inside the async scope only', async () => {
    const ctx = newRequestContext();
    await runWithRequestContext(ctx, async () => {
      await Promise.resolve();
      expect(currentRequestContext()).toBe(ctx);
    });
    expect(currentRequestContext()).toBeUndefined();
  });
});
