import {
  IsIn,
  IsOptional,
  IsString,
  Matches,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  DATABASE_SSL_MODES,
  databaseUrlFrom,
  DatabaseVariables,
  pgConnectionConfig,
} from './database-connection';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/swapgw';

/** The PostgreSQL variables taken together: files readable, nothing missing or contradictory. */
@ValidatorConstraint({ name: 'databaseConnection' })
class DatabaseSettingsConsistent implements ValidatorConstraintInterface {
  private problem = '';
  validate(_value: unknown, args: ValidationArguments): boolean {
    try {
      pgConnectionConfig(databaseUrlFrom(args.object as DatabaseVariables));
      return true;
    } catch (error) {
      this.problem = (error as Error).message;
      return false;
    }
  }
  defaultMessage(): string {
    return this.problem;
  }
}

/**
 * Where PostgreSQL is and how to reach it: every app's config (ServiceEnvironment) and the
 * gateway's CLI read these. The TLS and password variables are described in database-connection.ts;
 * `databaseUrl` is what connections are opened with.
 */
export class DatabaseEnvironment implements DatabaseVariables {
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  @Validate(DatabaseSettingsConsistent)
  DATABASE_URL: string = DEFAULT_DATABASE_URL;

  /** disable (default, or DATABASE_URL's sslmode), require, verify-ca, verify-full. */
  @IsOptional()
  @IsIn(DATABASE_SSL_MODES, { message: `DATABASE_SSL_MODE must be one of ${DATABASE_SSL_MODES.join(', ')}` })
  DATABASE_SSL_MODE?: string;

  @IsOptional()
  @IsString()
  DATABASE_SSL_CA_FILE?: string;

  @IsOptional()
  @IsString()
  DATABASE_SSL_CERT_FILE?: string;

  @IsOptional()
  @IsString()
  DATABASE_SSL_KEY_FILE?: string;

  @IsOptional()
  @IsString()
  DATABASE_PASSWORD_FILE?: string;

  private databaseUrlRead?: string;

  /** DATABASE_URL with the TLS variables and the password file folded in (databaseUrlFrom). */
  get databaseUrl(): string {
    this.databaseUrlRead ??= databaseUrlFrom(this);
    return this.databaseUrlRead;
  }
}
