import { ValueTransformer } from 'typeorm';

/** bigint columns hold epoch milliseconds: safe as JS numbers, but pg returns them as strings. */
export const epochMsColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
