import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigValidationError';
  }
}

/**
 * Reads environment variables into a validated config class. Property names are the variable names
 * (e.g. `DATABASE_URL`); defaults are the class's initialisers. A bad value throws a
 * ConfigValidationError naming the variable, so the app refuses to start with a clear message.
 * Annotate every property with its type (`PORT: number = 3000`): the string-to-number conversion
 * reads the emitted design type, and an unannotated initialiser is typed Object.
 */
export function loadConfig<T extends object>(
  configClass: new () => T,
  env: Record<string, string | undefined> = process.env,
): T {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(configClass, defined, { enableImplicitConversion: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigValidationError(flatten(errors, env));
  return config;
}

function flatten(errors: ValidationError[], env: Record<string, string | undefined>): string[] {
  return errors.flatMap((e) => {
    const shown = env[e.property] === undefined ? '(unset)' : JSON.stringify(env[e.property]);
    return Object.values(e.constraints ?? {}).map((c) => `${e.property}=${shown}: ${c}`);
  });
}

/** Loads config or exits the process with the message: for use at the top of each main.ts. */
export function loadConfigOrExit<T extends object>(configClass: new () => T, service: string): T {
  try {
    return loadConfig(configClass);
  } catch (error) {
    process.stderr.write(
      JSON.stringify({
        level: 'fatal',
        service,
        msg: (error as Error).message,
        time: new Date().toISOString(),
      }) + '\n',
    );
    process.exit(78); // EX_CONFIG
  }
}
