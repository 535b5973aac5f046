import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { createHash } from 'node:crypto';

/** Sort key values of the last row of a page (strings or integers, as the ORDER BY yields them). */
export type SortKey = (string | number)[];

interface CursorBody {
  /** Hash of the query the cursor belongs to. */
  q: string;
  /** Sort key of the last row returned. */
  k: SortKey;
  /** Id of the last row returned (tie-breaker, always last in the ORDER BY). */
  i: string;
}

export interface DecodedCursor {
  sortKey: SortKey;
  lastId: string;
}

/**
 * Hash of the filters that define a listing (not the limit: a client may change the page size).
 * Keys are sorted and undefined values dropped so equal queries hash equally.
 */
export function queryHash(kind: string, filters: Record<string, unknown>): string {
  const normalized = Object.keys(filters)
    .sort()
    .filter(
      (key) =>
        filters[key] !== undefined && filters[key] !== null && filters[key] !== false && filters[key] !== '',
    )
    .map((key) => [key, filters[key]]);
  return createHash('sha256')
    .update(JSON.stringify([kind, normalized]))
    .digest('base64url')
    .slice(0, 16);
}

/** Opaque cursor: base64url of {query hash, last sort key, last id}. */
export function encodeCursor(hash: string, sortKey: SortKey, lastId: string): string {
  const body: CursorBody = { q: hash, k: sortKey, i: lastId };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it belongs to the query at hand; a malformed cursor, or one from
 * another query, is INVALID_CURSOR (400) rather than a silently wrong page.
 */
export function decodeCursor(cursor: string, expectedHash: string, sortKeyLength: number): DecodedCursor {
  const invalid = (why: string) => new CodedError(ErrorCodes.INVALID_CURSOR, `cursor is invalid: ${why}`);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid('not base64url');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a cursor issued by this API');
  }
  const parsed = body as Partial<CursorBody>;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof parsed.q !== 'string' ||
    typeof parsed.i !== 'string' ||
    !/^[0-9]{1,19}$/.test(parsed.i) ||
    !Array.isArray(parsed.k) ||
    parsed.k.length !== sortKeyLength ||
    !parsed.k.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)))
  ) {
    throw invalid('not a cursor issued by this API');
  }
  if (parsed.q !== expectedHash) throw invalid('it belongs to a different query (filters or sort changed)');
  return { sortKey: parsed.k, lastId: parsed.i };
}
