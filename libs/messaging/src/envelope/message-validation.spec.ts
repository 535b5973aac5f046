import { IsInt, IsString, Min } from 'class-validator';
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
