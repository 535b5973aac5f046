import { CodedError, ErrorCodes, httpStatusOf } from '@swapgw/contracts';

/**
 * Why one watcher check of an open order failed:
 * - `refused`: quote-service answered a 400 code: it judged the
 *   order's terms and refused them (UNKNOWN_TOKEN after a delisting, UNKNOWN_CHAIN after a chain
 *   was removed, INVALID_AMOUNT after the token's decimals changed...). Asking again gives the same
 *   answer, so these count towards WATCH_MAX_FAILED_CHECKS.
 * - `transient`: anything else (a timeout or an unreachable service, SERVICE_UNAVAILABLE, every
 *   provider failing, a database error, a conflict, an uncoded error). It says nothing about the
 *   order: it neither counts nor resets the count, and the order stays open (an outage of
 *   quote-service must not fail every open order).
 */
export type CheckFailureKind = 'refused' | 'transient';

export interface CheckFailure {
  kind: CheckFailureKind;
  code: string;
  message: string;
}

export function classifyCheckFailure(error: unknown): CheckFailure {
  if (error instanceof CodedError) {
    return {
      kind: httpStatusOf(error.code) === 400 ? 'refused' : 'transient',
      code: error.code,
      message: error.message,
    };
  }
  return {
    kind: 'transient',
    code: ErrorCodes.INTERNAL_ERROR,
    message: error instanceof Error ? error.message : String(error),
  };
}

/** What one more refused check does to an open order that had `failedChecks` refused in a row. */
export function afterRefusedCheck(
  failedChecks: number,
  maxFailedChecks: number,
): { failedChecks: number; fails: boolean } {
  const next = failedChecks + 1;
  return { failedChecks: next, fails: next >= maxFailedChecks };
}
