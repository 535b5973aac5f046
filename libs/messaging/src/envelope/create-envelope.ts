import { randomUUID } from 'node:crypto';
import { MessageEnvelope } from '@swapgw/contracts';
import type { Clock } from '@swapgw/runtime';

/**
 * A new envelope for `payload`: a fresh v4 eventId, stamped with `clock`'s time (occurredAtMs,
 * which a responder judges the request's age by).
 */
export function createEnvelope<P>(
  type: string,
  aggregateId: string,
  payload: P,
  clock: Clock,
  version = 1,
): MessageEnvelope<P> {
  if (!type) throw new Error('An envelope needs a type');
  if (!aggregateId) throw new Error(`An envelope of type ${type} needs an aggregateId (the Kafka key)`);
  if (!Number.isInteger(version) || version < 1)
    throw new Error(`Envelope version must be an integer >= 1, got ${version}`);
  return { eventId: randomUUID(), type, version, occurredAtMs: clock.nowMs(), aggregateId, payload };
}
