import { Type } from 'class-transformer';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { RoutePlan } from './route-plan';

/**
 * What the preflight of a route found before the wallet signs (POST /quote with `userAddress`):
 *  - `INSUFFICIENT_BALANCE`: the wallet holds less of `token` on `chain` than the route's first leg
 *    spends (`needed`, `held`);
 *  - `ALLOWANCE_MISSING`: the wallet's ERC-20 allowance to `spender` is below what the first leg
 *    spends; the build adds the approval (or permit) step itself, `coveredByPermit` says whether a
 *    signature (EIP-2612 permit) does it instead of an approve transaction;
 *  - `SIMULATION_REVERTED`: the first leg's transaction, simulated on the chain now (`eth_call`),
 *    reverts; `revertReason` is decoded (Error(string), a panic, a known custom error, else the
 *    selector);
 *  - `SIMULATION_UNAVAILABLE`: the simulation could not be run (the node failed or was too slow, the
 *    leg has no transaction the wallet itself sends, ...): nothing is known either way;
 *  - `CHECK_UNAVAILABLE`: a balance or allowance read failed or was too slow (`check` names it).
 */
export const ROUTE_ISSUE_CODES = [
  'INSUFFICIENT_BALANCE',
  'ALLOWANCE_MISSING',
  'SIMULATION_REVERTED',
  'SIMULATION_UNAVAILABLE',
  'CHECK_UNAVAILABLE',
] as const;
export type RouteIssueCode = (typeof ROUTE_ISSUE_CODES)[number];

/** `blocking`: the route cannot succeed as it is; `warning`: it can, with what the message says. */
export const ROUTE_ISSUE_SEVERITIES = ['blocking', 'warning'] as const;
export type RouteIssueSeverity = (typeof ROUTE_ISSUE_SEVERITIES)[number];

/** Which read of CHECK_UNAVAILABLE failed. */
export const ROUTE_ISSUE_CHECKS = ['balance', 'allowance'] as const;
export type RouteIssueCheck = (typeof ROUTE_ISSUE_CHECKS)[number];

/** One finding of a route's preflight; the fields beside code, severity, message and chain depend on the code. */
export interface RouteIssue {
  code: RouteIssueCode;
  severity: RouteIssueSeverity;
  /** For people, not for code. */
  message: string;
  /** API chain id the finding is about (the first leg's chain). */
  chain: string;
  /** Index of the route leg (plan order) checked: 0, the first leg. */
  leg: number;
  /** INSUFFICIENT_BALANCE, ALLOWANCE_MISSING: the token's symbol. */
  token?: string;
  /** Its contract address (EVM), mint (Solana), or null for the chain's native coin. */
  tokenAddress?: string | null;
  /** INSUFFICIENT_BALANCE, ALLOWANCE_MISSING: human units of `token`. */
  needed?: string;
  held?: string;
  /** ALLOWANCE_MISSING: the contract the allowance is granted to. */
  spender?: string;
  /** ALLOWANCE_MISSING: true when the build can replace the approve transaction by a permit signature. */
  coveredByPermit?: boolean;
  /** SIMULATION_REVERTED: the decoded revert reason. */
  revertReason?: string;
  /** SIMULATION_REVERTED: the raw revert data (0x-hex), when the node returned some. */
  revertData?: string;
  /** CHECK_UNAVAILABLE: which read failed. */
  check?: RouteIssueCheck;
}

/**
 * `quote.preflight`: the checks of a route's issues for the plan a build was given, against the
 * build's wallet (and the recipient the build pays, when it names one). Answered RoutePreflightResult.
 */
export class RoutePreflightRequest {
  @ValidateNested()
  @Type(() => RoutePlan)
  plan!: RoutePlan;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  userAddress!: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  recipient?: string;

  /** The build is user-paid (gasPayment user, or its own permit): the wallet pays its gas. */
  @IsOptional()
  @IsBoolean()
  userPaysGas?: boolean;
}

export interface RoutePreflightResult {
  issues: RouteIssue[];
}
