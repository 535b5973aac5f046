import { CodedError, LIMIT_ORDER_MAX_LIFETIME_MS } from '@swapgw/contracts';
import { resolveExpiry } from './time-in-force';

const NOW = 1_800_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof CodedError ? error.code : `not coded: ${String(error)}`;
  }
}

describe('resolveExpiry', () => {
  it('defaults to GTC living 90 days', () => {
    expect(resolveExpiry({}, NOW)).toEqual({ timeInForce: 'GTC', expiresAtMs: NOW + 90 * DAY });
    expect(LIMIT_ORDER_MAX_LIFETIME_MS).toBe(90 * DAY);
  });

  it('infers GTD from an expiry field when timeInForce is omitted', () => {
    expect(resolveExpiry({ expireAfterMs: 5000 }, NOW)).toEqual({
      timeInForce: 'GTD',
      expiresAtMs: NOW + 5000,
    });
    expect(resolveExpiry({ expiresAtMs: NOW + DAY }, NOW)).toEqual({
      timeInForce: 'GTD',
      expiresAtMs: NOW + DAY,
    });
  });

  it('GTD takes an absolute or relative expiry', () => {
    expect(resolveExpiry({ timeInForce: 'GTD', expiresAtMs: NOW + 60_000 }, NOW).expiresAtMs).toBe(
      NOW + 60_000,
    );
    expect(resolveExpiry({ timeInForce: 'GTD', expireAfterMs: 60_000 }, NOW).expiresAtMs).toBe(NOW + 60_000);
  });

  it('rejects both expiry fields, whatever the mode', () => {
    for (const timeInForce of [undefined, 'GTC', 'GTD', 'IOC', 'FOK'] as const) {
      expect(
        codeOf(() => resolveExpiry({ timeInForce, expiresAtMs: NOW + DAY, expireAfterMs: 1000 }, NOW)),
      ).toBe('INVALID_EXPIRY');
    }
  });

  it('rejects GTD without expiry, in the past, now, or beyond 90 days', () => {
    expect(codeOf(() => resolveExpiry({ timeInForce: 'GTD' }, NOW))).toBe('INVALID_EXPIRY');
    expect(codeOf(() => resolveExpiry({ timeInForce: 'GTD', expiresAtMs: NOW - 1 }, NOW))).toBe(
      'INVALID_EXPIRY',
    );
    expect(codeOf(() => resolveExpiry({ timeInForce: 'GTD', expiresAtMs: NOW }, NOW))).toBe('INVALID_EXPIRY');
    expect(codeOf(() => resolveExpiry({ timeInForce: 'GTD', expiresAtMs: NOW + 91 * DAY }, NOW))).toBe(
      'INVALID_EXPIRY',
    );
    expect(resolveExpiry({ timeInForce: 'GTD', expiresAtMs: NOW + 90 * DAY }, NOW).expiresAtMs).toBe(
      NOW + 90 * DAY,
    );
  });

  it('rejects an expiry field on GTC, IOC and FOK', () => {
    expect(codeOf(() => resolveExpiry({ timeInForce: 'GTC', expireAfterMs: 1000 }, NOW))).toBe(
      'INVALID_EXPIRY',
    );
    expect(codeOf(() => resolveExpiry({ timeInForce: 'IOC', expiresAtMs: NOW + 1000 }, NOW))).toBe(
      'INVALID_EXPIRY',
    );
    expect(codeOf(() => resolveExpiry({ timeInForce: 'FOK', expireAfterMs: 1000 }, NOW))).toBe(
      'INVALID_EXPIRY',
    );
  });

  it('IOC and FOK expire at creation (checked once)', () => {
    expect(resolveExpiry({ timeInForce: 'IOC' }, NOW)).toEqual({ timeInForce: 'IOC', expiresAtMs: NOW });
    expect(resolveExpiry({ timeInForce: 'FOK' }, NOW)).toEqual({ timeInForce: 'FOK', expiresAtMs: NOW });
  });
});
