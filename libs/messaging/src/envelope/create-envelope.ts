import { randomUUID } from 'node:crypto';
import { MessageEnvelope } from '@swapgw/contracts';

/** A new envelope for `payload`: a fresh v4 eventId and the current time. */
export function createEnvelope<P>(
  type: string,
  aggregateId: string,
  payload: P,
  version = 1,
  now: () => number = Date.now,
): MessageEnvelope<P> {
  if (!type) throw new Error('An envelope needs a type');
  if (!aggregateId) throw new Error(`An envelope of type ${type} needs an aggregateId (the Kafka key)`);
  if (!Number.isInteger(version) || version < 1)
    throw new Error(`Envelope version must be an integer >= 1, got ${version}`);
  return { eventId: randomUUID(), type, version, occurredAtMs: now(), aggregateId, payload };
}
