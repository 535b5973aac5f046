import type { OperationTraits } from './error-responses';

/** The response headers the gateway sets, as reusable components (`#/components/headers/<name>`). */
export const RESPONSE_HEADERS: Record<string, { description: string; schema: Record<string, unknown> }> = {
  'X-Request-Id': {
    description:
      'Request correlation id (also meta.requestId): a well-formed incoming X-Request-Id is echoed, else one is generated.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this API key.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before the next request (with 429 RATE_LIMITED).',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotency-Key': {
    description:
      'The key the request ran under: the one given, or the one generated when the route makes it optional.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,200}$' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ref = (name: keyof typeof RESPONSE_HEADERS): { $ref: string } => ({
  $ref: `#/components/headers/${name}`,
});

/** The headers a response of an operation with these traits can carry, by name. */
export function responseHeadersFor(
  status: number,
  traits: OperationTraits,
): Record<string, { $ref: string }> {
  const headers: Record<string, { $ref: string }> = { 'X-Request-Id': ref('X-Request-Id') };
  // The rate limit guard runs after the API key guard: a 401 has not been counted.
  if (traits.authenticated && status !== 401) {
    headers['RateLimit-Limit'] = ref('RateLimit-Limit');
    headers['RateLimit-Remaining'] = ref('RateLimit-Remaining');
    headers['RateLimit-Reset'] = ref('RateLimit-Reset');
  }
  if (status === 429) headers['Retry-After'] = ref('Retry-After');
  // The idempotency interceptor runs after the guards, and answers (or replays) 2xx and 4xx.
  if (traits.idempotency !== 'none' && status < 500 && status !== 401 && status !== 429) {
    headers['Idempotency-Key'] = ref('Idempotency-Key');
    headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
  }
  return headers;
}
