import type { ColumnOptions } from 'typeorm';

/**
 * A millisecond timestamp stored as bigint: pg returns bigint as a string, and ms since epoch stay
 * far below 2^53, so converting to a number loses nothing.
 */
export const msColumn = (name: string, nullable = false): ColumnOptions => ({
  name,
  type: 'bigint',
  nullable,
  transformer: {
    to: (value: number | null | undefined) => value,
    from: (value: string | null) => (value === null ? null : Number(value)),
  },
});
