import { runWithRequestContext } from '@swapgw/runtime';
import { contextHeaders, headerString, requestContextFromHeaders } from './message-headers';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('message headers', () => {
  it('carries the current request context as traceparent and x-request-id', () => {
    const headers = runWithRequestContext({ requestId: 'req-42', traceparent: TRACEPARENT }, () =>
      contextHeaders(),
    );
    expect(headers).toEqual({ traceparent: TRACEPARENT, 'x-request-id': 'req-42' });
  });

  it('starts a new trace outside any request', () => {
    const headers = contextHeaders();
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads header values given as Buffer, string or array', () => {
    expect(headerString({ a: Buffer.from('x') }, 'a')).toBe('x');
    expect(headerString({ a: 'y' }, 'a')).toBe('y');
    expect(headerString({ a: [Buffer.from('z'), Buffer.from('w')] }, 'a')).toBe('z');
    expect(headerString({}, 'a')).toBeUndefined();
    expect(headerString(undefined, 'a')).toBeUndefined();
  });

  it('continues the sender trace with a child span and keeps its request id', () => {
    const ctx = requestContextFromHeaders({
      traceparent: Buffer.from(TRACEPARENT),
      'x-request-id': 'req-42',
    });
    expect(ctx.requestId).toBe('req-42');
    expect(ctx.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(ctx.traceparent).not.toBe(TRACEPARENT);
  });

  it('replaces a malformed request id and traceparent with fresh ones', () => {
    const ctx = requestContextFromHeaders({ traceparent: 'garbage', 'x-request-id': 'has spaces and ;' });
    expect(ctx.requestId).not.toBe('has spaces and ;');
    expect(ctx.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});
