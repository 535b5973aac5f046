import { inspect } from 'node:util';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { KafkaServiceEnvironment } from '@swapgw/messaging';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The aggregators' API keys: a dump of the config (JSON, util.inspect, a log line) shows them as [redacted]. */
const SECRET_VARIABLES = ['LIFI_API_KEY', 'JUPITER_API_KEY', 'ZEROX_API_KEY', 'SKIP_GO_API_KEY'] as const;

/** quote-service configuration, validated at boot. Property names are the environment variables. */
export class QuoteServiceConfig extends KafkaServiceEnvironment {
  override HEALTH_PORT = 3101;

  /** How long a quote (and the plans of its routes) can be built into a swap. */
  @IsInt()
  @Min(5_000)
  @Max(600_000)
  QUOTE_TTL_MS: number = 60_000;

  /** Expired quotes and their route plans are deleted this long after expiry. */
  @IsInt()
  @Min(60_000)
  QUOTE_RETENTION_MS: number = 86_400_000;

  /** Providers are asked in parallel; one slower than this is skipped (and named in debug). */
  @IsInt()
  @Min(100)
  @Max(30_000)
  QUOTE_PROVIDER_TIMEOUT_MS: number = 4_000;

  /** Bound on every chain RPC call (gas prices, token metadata, pool reserves), so a dead node errs instead of hanging. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  RPC_TIMEOUT_MS: number = 10_000;

  /** Route warning HIGH_PRICE_IMPACT above this many basis points. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  PRICE_IMPACT_WARNING_BPS: number = 100;

  /** Route warning THIN_LIQUIDITY when a hop takes more than this share (bps) of a pool's output reserve. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  THIN_LIQUIDITY_WARNING_BPS: number = 1_000;

  /** LI.FI API base URL (e.g. https://li.quest); unset = the lifi provider is off. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'LIFI_API_URL must be an http(s) URL' })
  LIFI_API_URL?: string;

  @IsOptional()
  @IsString()
  LIFI_API_KEY?: string;

  /**
   * LI.FI quotes need a sender address; without a recipient in the request this one is used, so
   * the prebuilt call of a LI.FI leg is only a price reference until the planner re-quotes.
   */
  @Matches(/^0x[0-9a-fA-F]{40}$/)
  LIFI_QUOTE_FROM_ADDRESS: string = '0x0000000000000000000000000000000000000001';

  /**
   * The `integrator` string of the operator's LI.FI account (portal.li.fi). LI.FI pays an integrator
   * fee only to the fee wallet registered there for that string, never to an address named per
   * request: a quote with integratorFee gets a LI.FI route only when its one recipient is
   * LIFI_FEE_WALLET_EVM (EVM source chains). Unset = LI.FI gives no route to quotes with a fee.
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,23}$/, {
    message: 'LIFI_INTEGRATOR must be 1 to 23 letters, digits, ., _ or -',
  })
  LIFI_INTEGRATOR?: string;

  /** The EVM fee wallet registered with LIFI_INTEGRATOR on LI.FI's portal. */
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{40}$/)
  LIFI_FEE_WALLET_EVM?: string;

  /**
   * Jupiter Swap API base URL (e.g. https://lite-api.jup.ag/swap/v1: /quote and /swap are appended);
   * unset = the jupiter provider is off.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'JUPITER_API_URL must be an http(s) URL' })
  JUPITER_API_URL?: string;

  /** Sent as x-api-key to Jupiter (needed by api.jup.ag, not by lite-api.jup.ag). */
  @IsOptional()
  @IsString()
  JUPITER_API_KEY?: string;

  /** The Solana chain of GET /chains whose swaps Jupiter prices: `solana`, or another for a stand-in API. */
  @IsString()
  @Matches(/^[a-z0-9-]{1,64}$/)
  JUPITER_CHAIN: string = 'solana';

  /**
   * Across API base URL (GET /suggested-fees is appended): the fees of bridge legs through Across's
   * SpokePools, between two chains whose deployments name one and that both have an RPC URL.
   * `off` turns the across provider off.
   */
  @Matches(/^(https?:\/\/\S+|off)$/, { message: 'ACROSS_API_URL must be an http(s) URL or off' })
  ACROSS_API_URL: string = 'https://app.across.to/api';

  /**
   * THORNode REST API base URL (/thorchain/inbound_addresses and /thorchain/quote/swap are
   * appended): swaps out of native Bitcoin through THORChain. Unset = the thorchain provider is off.
   * The devnet and the mainnet replica serve the same API locally (their manifest's `thornode.url`).
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'THORNODE_URL must be an http(s) URL' })
  THORNODE_URL?: string;

  /** The operator's THORName (or THOR address) written as THORChain's affiliate in every swap memo; unset = none. */
  @IsOptional()
  @Matches(/^([a-z0-9+_.-]{1,30}|thor1[02-9ac-hj-np-z]{38,58})$/, {
    message: 'THORCHAIN_AFFILIATE must be a THORName or a thor1 address',
  })
  THORCHAIN_AFFILIATE?: string;

  /** THORChain's affiliate fee for THORCHAIN_AFFILIATE, in bps of the input (THORChain's cap: 1000). */
  @IsInt()
  @Min(0)
  @Max(1000)
  THORCHAIN_AFFILIATE_BPS: number = 0;

  /** 0x API base URL (GET /swap/allowance-holder/quote is appended); used once ZEROX_API_KEY is set. */
  @Matches(HTTP_URL, { message: 'ZEROX_API_URL must be an http(s) URL' })
  ZEROX_API_URL: string = 'https://api.0x.org';

  /** Sent as 0x-api-key; 0x answers no request without one, so unset = the 0x provider is off. */
  @IsOptional()
  @IsString()
  ZEROX_API_KEY?: string;

  /**
   * The `taker` of 0x quotes whose request names no recipient. 0x builds its transaction for the
   * taker (who is also paid the output), so such a route is priced but carries no call: quoting
   * with the wallet as recipient gives the executable route.
   */
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'ZEROX_QUOTE_TAKER_ADDRESS must be an EVM address' })
  ZEROX_QUOTE_TAKER_ADDRESS: string = '0x0000000000000000000000000000000000000001';

  /**
   * Skip Go API base URL (e.g. https://api.skip.build: /v2/fungible/route, /v2/fungible/msgs and
   * /v2/tx/status are appended): routes between Cosmos chains (IBC transfers, swaps on Osmosis).
   * Unset = the skip-go provider is off.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SKIP_GO_API_URL must be an http(s) URL' })
  SKIP_GO_API_URL?: string;

  /** Sent as the `authorization` header to Skip Go (optional: without it Skip's shared rate limit applies). */
  @IsOptional()
  @IsString()
  SKIP_GO_API_KEY?: string;

  /** Optional extra Token Lists document served over HTTP, re-read every TOKEN_LIST_REFRESH_MS. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'TOKEN_LIST_URL must be an http(s) URL' })
  TOKEN_LIST_URL?: string;

  @IsInt()
  @Min(1_000)
  TOKEN_LIST_REFRESH_MS: number = 3_600_000;

  @IsInt()
  @Min(100)
  @Max(60_000)
  TOKEN_LIST_TIMEOUT_MS: number = 5_000;

  /** A failed discovery source is retried at most this often by listing requests. */
  @IsInt()
  @Min(0)
  DISCOVERY_RETRY_INTERVAL_MS: number = 10_000;

  /** The config as JSON.stringify (and loggers) print it: every variable, the API keys redacted. */
  toJSON(): Record<string, unknown> {
    const shown: Record<string, unknown> = Object.fromEntries(Object.entries(this));
    for (const name of SECRET_VARIABLES) if (shown[name] !== undefined) shown[name] = '[redacted]';
    return shown;
  }

  [inspect.custom](_depth: number, options: object): string {
    return `QuoteServiceConfig ${inspect(this.toJSON(), options)}`;
  }
}
