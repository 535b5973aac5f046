import type { ColumnOptions, ValueTransformer } from 'typeorm';

/** numeric(78,0) read as bigint: pg returns numerics as strings, and wei amounts exceed 2^53. */
export const weiAsBigint: ValueTransformer = {
  to: (value: bigint | null | undefined) =>
    value === null || value === undefined ? value : value.toString(),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};

/** Column options of a wei amount (uint256 range) stored as numeric(78,0). */
export const weiColumn = (name: string, nullable = false): ColumnOptions => ({
  name,
  type: 'numeric',
  precision: 78,
  scale: 0,
  nullable,
  transformer: weiAsBigint,
});
