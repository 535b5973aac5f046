import { CodedError, ErrorCodes } from '@swapgw/contracts';

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  '57014', // query_canceled (statement_timeout)
]);

/** True when the error means PostgreSQL cannot be reached or is shutting down: a 503, not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: string; message?: string; driverError?: unknown };
  if (e.code && CONNECTION_ERROR_CODES.has(e.code)) return true;
  if (e.driverError && isDatabaseUnavailable(e.driverError)) return true;
  const message = e.message ?? '';
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    message,
  );
}

/** Rethrows database outages as the PERSISTENCE_UNAVAILABLE code; other errors unchanged. */
export function asPersistenceError(error: unknown): unknown {
  return isDatabaseUnavailable(error)
    ? new CodedError(ErrorCodes.PERSISTENCE_UNAVAILABLE, 'PostgreSQL is unavailable')
    : error;
}
