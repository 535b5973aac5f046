import { DatabaseEnvironment } from '@swapgw/runtime';

/**
 * What the gateway's command-line tools read from the environment: DATABASE_URL and its TLS and
 * password variables, as the gateway itself does.
 */
export class GatewayCliConfig extends DatabaseEnvironment {}
