import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENT_ROUTE = 'gateway:idempotent-route';

export interface IdempotentOptions {
  /** true: a request without Idempotency-Key is a 400; false: one is generated and returned. */
  required: boolean;
}

/**
 * Makes a handler idempotent per (API key owner, method + route template, Idempotency-Key):
 * the first request runs, a repeat with the same body and path parameters replays the stored
 * status and body (header `Idempotent-Replayed: true`), a repeat with another request is 409
 * IDEMPOTENCY_CONFLICT, and a repeat while the first still runs is 409 IDEMPOTENCY_IN_PROGRESS.
 * 4xx outcomes are stored, except VALIDATION_FAILED (the request never ran); 5xx outcomes release
 * the key so a retry runs again. The key in use
 * (given or generated) is on `request.idempotencyKey` and `@IdempotencyKey()`.
 */
export const Idempotent = (options: IdempotentOptions): MethodDecorator =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, options),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required,
      description: options.required
        ? 'Required. At most 200 characters of A-Za-z0-9._:- (UUIDv4 or ULID recommended); reuse only to retry the identical request.'
        : 'Optional; generated and returned in the Idempotency-Key response header when omitted. At most 200 characters of A-Za-z0-9._:-',
      schema: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9._:-]{1,200}$' },
    }),
  );
