import { HttpException } from '@nestjs/common';
import { CodedError, ErrorCatalog, ErrorCode, ErrorCodes } from '@swapgw/contracts';
import { isDatabaseUnavailable } from '@swapgw/persistence';
import { ApiErrorBody, isCatalogCode, ReplayedApiError } from './api-error';

export interface MappedException {
  status: number;
  error: ApiErrorBody;
  /** true when this is our bug or an unexpected failure: logged with stack and request id. */
  unexpected: boolean;
}

const CODE_BY_HTTP_STATUS: Partial<Record<number, ErrorCode>> = {
  400: ErrorCodes.VALIDATION_FAILED,
  401: ErrorCodes.UNAUTHORIZED,
  403: ErrorCodes.FORBIDDEN,
  404: ErrorCodes.NOT_FOUND,
  405: ErrorCodes.METHOD_NOT_ALLOWED,
  413: ErrorCodes.PAYLOAD_TOO_LARGE,
  415: ErrorCodes.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCodes.RATE_LIMITED,
  503: ErrorCodes.SERVICE_UNAVAILABLE,
};

const INTERNAL: MappedException = {
  status: 500,
  error: { code: ErrorCodes.INTERNAL_ERROR, message: 'Internal error; it was logged with the request id' },
  unexpected: true,
};

const fromCode = (code: ErrorCode, message: string, details?: Record<string, unknown>): MappedException => ({
  status: ErrorCatalog[code].status,
  error: details ? { code, message, details } : { code, message },
  unexpected: false,
});

/**
 * Maps anything thrown while serving a request to the status and ApiError body of the spec. Pure:
 * the filter adds meta and headers, and the idempotency interceptor uses the same mapping to decide
 * what to store.
 */
export function mapException(exception: unknown): MappedException {
  if (exception instanceof ReplayedApiError) {
    return { status: exception.status, error: exception.body, unexpected: false };
  }
  if (exception instanceof CodedError) {
    // A code outside the catalog is a contract bug between services, not the client's fault.
    if (!isCatalogCode(exception.code)) return INTERNAL;
    return fromCode(exception.code, exception.message, exception.details);
  }
  if (isDatabaseUnavailable(exception)) {
    return fromCode(ErrorCodes.PERSISTENCE_UNAVAILABLE, 'PostgreSQL is unavailable');
  }
  if (exception instanceof HttpException) {
    return fromHttpStatus(exception.getStatus(), messageOf(exception));
  }
  // Fastify errors that did not pass through Nest's mapping still carry their statusCode.
  const statusCode = (exception as { statusCode?: unknown } | null)?.statusCode;
  if (exception instanceof Error && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return fromHttpStatus(statusCode, exception.message);
  }
  return INTERNAL;
}

function fromHttpStatus(status: number, message: string): MappedException {
  const code = CODE_BY_HTTP_STATUS[status];
  if (code) return fromCode(code, message);
  if (status >= 400 && status < 500) return fromCode(ErrorCodes.VALIDATION_FAILED, message);
  return INTERNAL;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
