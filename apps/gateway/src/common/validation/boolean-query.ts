/**
 * Boolean-like query values. The spec accepts `1` and `true`; we also read `0` and `false` as an
 * explicit "off" (so clients can send the flag unconditionally). Anything else is a 400.
 */
const BOOLEAN_LIKE: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

export const BOOLEAN_LIKE_VALUES = Object.keys(BOOLEAN_LIKE);

/** true/false for an accepted value, the input unchanged otherwise (so the validator rejects it). */
export function parseBooleanLike(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  return typeof value === 'string' && value in BOOLEAN_LIKE ? BOOLEAN_LIKE[value] : value;
}
