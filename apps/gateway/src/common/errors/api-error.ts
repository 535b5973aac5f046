import { ErrorCatalog, ErrorCode } from '@swapgw/contracts';

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A response to answer exactly as stored (an idempotent replay of an earlier 4xx). */
export class ReplayedApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = 'ReplayedApiError';
  }
}

export const isCatalogCode = (code: string): code is ErrorCode =>
  Object.prototype.hasOwnProperty.call(ErrorCatalog, code);
