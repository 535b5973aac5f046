import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { MessageEnvelope, MessageEnvelopeShape } from '@swapgw/contracts';

/** A payload class validated with class-validator (the classes of @swapgw/contracts). */
export type PayloadClass<P> = new () => P;

export interface FieldProblem {
  field: string;
  problems: string[];
}

export type ParsedMessage<P> =
  { ok: true; envelope: MessageEnvelope<P> } | { ok: false; reason: string; problems: FieldProblem[] };

function flatten(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** An RFC 4122 UUID of versions 1 to 8: what `@IsUUID()` accepts, less its nil and max UUIDs. */
const RFC_4122_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isIntegerFrom = (value: unknown, min: number): boolean =>
  Number.isInteger(value) && (value as number) >= min;

/**
 * Whether `message` is an envelope MessageEnvelopeShape accepts, checked by hand: every envelope of
 * every message a service consumes goes through here, and class-validator's metadata walk costs
 * several times the message's own handling (issue 44, profiled). No looser than the decorators: what
 * this accepts they accept; what it does not (including the nil UUID) goes to class-validator, which
 * decides and names the problems.
 */
function isPlainValidEnvelope(message: Record<string, unknown>): boolean {
  const { eventId, type, version, occurredAtMs, aggregateId, payload } = message;
  return (
    typeof eventId === 'string' &&
    RFC_4122_UUID.test(eventId) &&
    isNonEmptyString(type) &&
    isIntegerFrom(version, 1) &&
    isIntegerFrom(occurredAtMs, 0) &&
    isNonEmptyString(aggregateId) &&
    typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload)
  );
}

/** Checks the envelope fields (eventId, type, version, ...) of whatever arrived on a topic. */
export function parseEnvelope(message: unknown): ParsedMessage<Record<string, unknown>> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { ok: false, reason: 'message is not a JSON object', problems: [] };
  }
  if (isPlainValidEnvelope(message as Record<string, unknown>)) {
    return { ok: true, envelope: message as MessageEnvelope<Record<string, unknown>> };
  }
  const shape = plainToInstance(MessageEnvelopeShape, message);
  const problems = flatten(validateSync(shape, { forbidUnknownValues: false }));
  if (problems.length > 0) {
    return { ok: false, reason: `invalid envelope: ${problems.map((p) => p.field).join(', ')}`, problems };
  }
  return { ok: true, envelope: message as MessageEnvelope<Record<string, unknown>> };
}

/**
 * Validates `payload` against its class. Unknown properties are stripped, not rejected (tolerant
 * reader): a producer may add an optional field before every consumer knows it.
 */
export function parsePayload<P extends object>(
  envelope: MessageEnvelope<Record<string, unknown>>,
  payloadClass: PayloadClass<P>,
): ParsedMessage<P> {
  const payload = plainToInstance(payloadClass, envelope.payload);
  const problems = flatten(validateSync(payload, { whitelist: true, forbidUnknownValues: false }), 'payload');
  if (problems.length > 0) {
    return {
      ok: false,
      reason: `invalid payload for ${envelope.type}: ${problems.map((p) => p.field).join(', ')}`,
      problems,
    };
  }
  return { ok: true, envelope: { ...envelope, payload } };
}
