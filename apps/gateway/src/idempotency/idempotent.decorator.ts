import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT_ROUTE, IdempotentOptions } from './idempotent-route';

export { IDEMPOTENT_ROUTE, IdempotentOptions } from './idempotent-route';

/**
 * Makes a handler idempotent per (API key owner, method + route template, Idempotency-Key):
 * the first request runs, a repeat with the same body and path parameters replays the stored
 * status and body (header `Idempotent-Replayed: true`), a repeat with another request is 409
 * IDEMPOTENCY_CONFLICT, and a repeat while the first still runs is 409 IDEMPOTENCY_IN_PROGRESS.
 * 4xx outcomes are stored, except VALIDATION_FAILED (the request never ran) and QUOTE_PRICE_CHANGED
 * (a build that sent nothing; the price may hold on a retry); 5xx outcomes release
 * the key so a retry runs again. The key in use
 * (given or generated) is on `request.idempotencyKey` and `@IdempotencyKey()`.
 * The interceptor is bound here, on these handlers only: a global one cost every other request
 * (catalog reads, polls) a layer of Nest's interceptor chain for nothing.
 */
export const Idempotent = (options: IdempotentOptions): MethodDecorator =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required,
      description: options.required
        ? 'Required. At most 200 characters of A-Za-z0-9._:- (UUIDv4 or ULID recommended); reuse only to retry the identical request.'
        : 'Optional; generated and returned in the Idempotency-Key response header when omitted. At most 200 characters of A-Za-z0-9._:-',
      schema: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9._:-]{1,200}$' },
    }),
  );
