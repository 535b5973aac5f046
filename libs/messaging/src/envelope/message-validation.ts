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

/** Checks the envelope fields (eventId, type, version, ...) of whatever arrived on a topic. */
export function parseEnvelope(message: unknown): ParsedMessage<Record<string, unknown>> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { ok: false, reason: 'message is not a JSON object', problems: [] };
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
