import type { ColumnOptions, ValueTransformer } from 'typeorm';

/**
 * bigint columns read as JS numbers: pg returns bigint as a string; epoch milliseconds (and block
 * numbers) stay far below 2^53, so converting loses nothing.
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/** Column options of an epoch-milliseconds timestamp stored as bigint. */
export const msColumn = (name: string, nullable = false): ColumnOptions => ({
  name,
  type: 'bigint',
  nullable,
  transformer: bigintAsNumber,
});
