import { CodedError } from '@swapgw/contracts';
import { replyErrorOf, unwrapReply, isUnexpectedError } from './reply-errors';

describe('replyErrorOf', () => {
  it('keeps the code, message and details of a CodedError', () => {
    expect(replyErrorOf(new CodedError('QUOTE_EXPIRED', 'quote expired', { quoteId: 'q1' }))).toEqual({
      ok: false,
      error: { code: 'QUOTE_EXPIRED', message: 'quote expired', details: { quoteId: 'q1' } },
    });
  });

  it('maps a database outage to PERSISTENCE_UNAVAILABLE', () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(replyErrorOf(outage)).toEqual({
      ok: false,
      error: { code: 'PERSISTENCE_UNAVAILABLE', message: 'PostgreSQL is unavailable' },
    });
    expect(isUnexpectedError(outage)).toBe(false);
  });

  it('maps anything else to INTERNAL_ERROR without leaking its message', () => {
    const reply = replyErrorOf(new TypeError('cannot read properties of undefined (reading "secret")'));
    expect(reply).toEqual({
      ok: false,
      error: { code: 'INTERNAL_ERROR', message: 'The service failed to handle the request' },
    });
    expect(isUnexpectedError(new TypeError('x'))).toBe(true);
  });
});

describe('unwrapReply', () => {
  it('returns the data of an ok reply', () => {
    expect(unwrapReply({ ok: true, data: { routes: [] } }, 'quote.requests', 'quote.create')).toEqual({
      routes: [],
    });
  });

  it('throws the CodedError of an error reply', () => {
    const thrown = (() => {
      try {
        unwrapReply(
          {
            ok: false,
            error: { code: 'UNKNOWN_ROUTE', message: 'no such route', details: { routeId: 'r' } },
          },
          't',
          'x',
        );
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(CodedError);
    expect(thrown).toMatchObject({
      code: 'UNKNOWN_ROUTE',
      message: 'no such route',
      details: { routeId: 'r' },
    });
  });

  it('treats an unknown error code as INTERNAL_ERROR and a malformed reply as INTERNAL_ERROR', () => {
    expect(() => unwrapReply({ ok: false, error: { code: 'MADE_UP', message: 'm' } }, 't', 'x')).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    );
    expect(() => unwrapReply('garbage', 't', 'x')).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    );
  });
});
