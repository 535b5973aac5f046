import { plainToInstance } from 'class-transformer';
import { IsInt, IsString, Min, validateSync } from 'class-validator';
import { MessageEnvelopeShape } from '@swapgw/contracts';
import { parseEnvelope, parsePayload } from './message-validation';

class Credit {
  @IsString()
  account!: string;

  @IsInt()
  @Min(1)
  amount!: number;
}

const valid = {
  eventId: '6f1c1d3e-3b1a-4c47-9a55-0d6f5c1f2a10',
  type: 'credit.applied',
  version: 1,
  occurredAtMs: 1_763_700_000_000,
  aggregateId: 'acct-1',
  payload: { account: 'acct-1', amount: 3 },
};

describe('parseEnvelope', () => {
  it('accepts a well-formed envelope', () => {
    expect(parseEnvelope(valid)).toEqual({ ok: true, envelope: valid });
  });

  it.each([
    ['a string', 'not json'],
    ['null', null],
    ['an array', [valid]],
  ])('rejects %s as not a JSON object', (_, message) => {
    expect(parseEnvelope(message)).toMatchObject({ ok: false, reason: 'message is not a JSON object' });
  });

  it('names each invalid envelope field', () => {
    const result = parseEnvelope({ ...valid, eventId: 'nope', version: 0, payload: 'x' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('invalid envelope: eventId, version, payload');
    expect(result.problems.map((p) => p.field)).toEqual(['eventId', 'version', 'payload']);
  });

  // The envelope is checked by hand first; class-validator's decorators stay the definition.
  it.each([
    ['a well-formed envelope', {}],
    ['an upper-case UUID', { eventId: valid.eventId.toUpperCase() }],
    ['the nil UUID', { eventId: '00000000-0000-0000-0000-000000000000' }],
    ['a UUID of version 9', { eventId: '6f1c1d3e-3b1a-9c47-9a55-0d6f5c1f2a10' }],
    ['a UUID of the wrong variant', { eventId: '6f1c1d3e-3b1a-4c47-7a55-0d6f5c1f2a10' }],
    ['a UUID without dashes', { eventId: '6f1c1d3e3b1a4c479a550d6f5c1f2a10' }],
    ['an empty type', { type: '' }],
    ['a numeric type', { type: 7 }],
    ['version 0', { version: 0 }],
    ['a fractional version', { version: 1.5 }],
    ['a version as a string', { version: '1' }],
    ['occurredAtMs 0', { occurredAtMs: 0 }],
    ['a negative occurredAtMs', { occurredAtMs: -1 }],
    ['an infinite occurredAtMs', { occurredAtMs: Infinity }],
    ['a numeric aggregateId', { aggregateId: 12 }],
    ['an array payload', { payload: [] }],
    ['a null payload', { payload: null }],
    ['no payload', { payload: undefined }],
    ['no eventId', { eventId: undefined }],
  ])('agrees with MessageEnvelopeShape on %s', (_, change) => {
    const message: Record<string, unknown> = { ...valid, ...change };
    const decorated = validateSync(plainToInstance(MessageEnvelopeShape, message), {
      forbidUnknownValues: false,
    });
    expect(parseEnvelope(message).ok).toBe(decorated.length === 0);
  });
});

describe('parsePayload', () => {
  const envelope = (payload: Record<string, unknown>) => ({ ...valid, payload });

  it('returns the payload as an instance of its class', () => {
    const result = parsePayload(envelope({ account: 'acct-1', amount: 3 }), Credit);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.envelope.payload).toBeInstanceOf(Credit);
  });

  it('names the invalid payload fields, prefixed with payload.', () => {
    const result = parsePayload(envelope({ account: 7, amount: 0 }), Credit);
    expect(result).toMatchObject({
      ok: false,
      reason: 'invalid payload for credit.applied: payload.account, payload.amount',
    });
  });

  it('strips properties the class does not know (tolerant reader)', () => {
    const result = parsePayload(envelope({ account: 'acct-1', amount: 3, addedLater: true }), Credit);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.envelope.payload).not.toHaveProperty('addedLater');
  });
});
