import { CodedError } from '@swapgw/contracts';
import { afterRefusedCheck, classifyCheckFailure } from './check-failures';

describe('classifyCheckFailure', () => {
  it.each([
    'UNKNOWN_TOKEN',
    'UNKNOWN_CHAIN',
    'INVALID_AMOUNT',
    'SAME_TOKEN',
    'INVALID_ADDRESS',
    'VALIDATION_FAILED',
  ] as const)('counts %s (quote-service refused the terms) as refused, with its code and message', (code) => {
    expect(classifyCheckFailure(new CodedError(code, 'terms refused'))).toEqual({
      kind: 'refused',
      code,
      message: 'terms refused',
    });
  });

  it.each([
    'SERVICE_UNAVAILABLE',
    'QUOTE_UPSTREAM_FAILED',
    'PERSISTENCE_UNAVAILABLE',
    'MESSAGING_UNAVAILABLE',
    'INTERNAL_ERROR',
    'QUOTE_EXPIRED',
    'IDEMPOTENCY_IN_PROGRESS',
    'RATE_LIMITED',
  ] as const)('treats %s as transient', (code) => {
    expect(classifyCheckFailure(new CodedError(code, 'not now')).kind).toBe('transient');
  });

  it('treats an uncoded error as transient, reported as INTERNAL_ERROR', () => {
    expect(classifyCheckFailure(new Error('connection reset'))).toEqual({
      kind: 'transient',
      code: 'INTERNAL_ERROR',
      message: 'connection reset',
    });
  });
});

describe('afterRefusedCheck', () => {
  it('counts refused checks and fails the order at the bound, not before', () => {
    expect(afterRefusedCheck(0, 3)).toEqual({ failedChecks: 1, fails: false });
    expect(afterRefusedCheck(1, 3)).toEqual({ failedChecks: 2, fails: false });
    expect(afterRefusedCheck(2, 3)).toEqual({ failedChecks: 3, fails: true });
  });

  it('fails at the first refusal with a bound of 1', () => {
    expect(afterRefusedCheck(0, 1)).toEqual({ failedChecks: 1, fails: true });
  });
});
