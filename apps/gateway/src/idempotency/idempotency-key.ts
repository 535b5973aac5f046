import { randomUUID } from 'node:crypto';
import { CodedError, ErrorCodes } from '@swapgw/contracts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9._:-]{1,200}$/;

export const isValidIdempotencyKey = (value: unknown): value is string =>
  typeof value === 'string' && IDEMPOTENCY_KEY_FORMAT.test(value);

/**
 * The key to use for this request: the header when valid; a new UUID when the header is absent and
 * the route makes it optional; otherwise a 400 with the code the spec's Limits table implies.
 */
export function resolveIdempotencyKey(
  header: string | string[] | undefined,
  required: boolean,
): { key: string; generated: boolean } {
  if (header === undefined) {
    if (required) {
      throw new CodedError(
        ErrorCodes.IDEMPOTENCY_KEY_REQUIRED,
        'This endpoint requires an Idempotency-Key header',
      );
    }
    return { key: randomUUID(), generated: true };
  }
  if (!isValidIdempotencyKey(header)) {
    throw new CodedError(
      ErrorCodes.IDEMPOTENCY_KEY_INVALID,
      `Idempotency-Key must be 1-${IDEMPOTENCY_KEY_MAX_LENGTH} characters of A-Z, a-z, 0-9, '.', '_', ':', '-'`,
      { header: 'Idempotency-Key' },
    );
  }
  return { key: header, generated: false };
}
