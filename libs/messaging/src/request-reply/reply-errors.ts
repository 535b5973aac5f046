import { CodedError, ErrorCodes, ReplyEnvelope, replyError } from '@swapgw/contracts';
import { isDatabaseUnavailable } from '@swapgw/persistence';

/**
 * What a responder answers for an error thrown by its handler: the handler's own code, a database
 * outage as PERSISTENCE_UNAVAILABLE, anything else as INTERNAL_ERROR without its message (which
 * could leak internals to an API client).
 */
export function replyErrorOf(error: unknown): ReplyEnvelope<never> {
  if (error instanceof CodedError) return replyError(error.code, error.message, error.details);
  if (isDatabaseUnavailable(error))
    return replyError(ErrorCodes.PERSISTENCE_UNAVAILABLE, 'PostgreSQL is unavailable');
  return replyError(ErrorCodes.INTERNAL_ERROR, 'The service failed to handle the request');
}

/** Whether the error is a bug worth an error log with a stack (not an expected business answer). */
export const isUnexpectedError = (error: unknown): boolean =>
  !(error instanceof CodedError) && !isDatabaseUnavailable(error);

/** Turns a reply back into data or a thrown CodedError on the requester side. */
export function unwrapReply<T>(reply: unknown, topic: string, type: string): T {
  const r = reply as ReplyEnvelope<T> | undefined;
  if (r && typeof r === 'object' && r.ok === true && 'data' in r) return r.data;
  if (r && typeof r === 'object' && r.ok === false && r.error && typeof r.error.code === 'string') {
    const code = (
      r.error.code in ErrorCodes ? r.error.code : ErrorCodes.INTERNAL_ERROR
    ) as keyof typeof ErrorCodes;
    throw new CodedError(code, r.error.message ?? r.error.code, r.error.details);
  }
  throw new CodedError(ErrorCodes.INTERNAL_ERROR, `Malformed reply to ${type} on ${topic}`);
}
