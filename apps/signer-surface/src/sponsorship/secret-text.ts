import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A secret read from the environment (relayer private keys). It prints as `[redacted]` however it
 * is printed (JSON.stringify, util.inspect, string interpolation), so a config dump or a log line
 * that includes the config cannot leak it; only `reveal()` gives the text.
 */
export class SecretText {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `SecretText ${REDACTED}`;
  }
}

/** class-transformer hook: an environment string becomes a SecretText as soon as it is read. */
export const toSecretText = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? new SecretText(value) : value;
