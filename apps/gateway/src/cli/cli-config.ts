import { IsString, Matches } from 'class-validator';
import { DEFAULT_DATABASE_URL } from '@swapgw/persistence';

/** What the gateway's command-line tools read from the environment. */
export class GatewayCliConfig {
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = DEFAULT_DATABASE_URL;
}
