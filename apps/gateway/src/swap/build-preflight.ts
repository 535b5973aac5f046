import { Injectable, Logger } from '@nestjs/common';
import {
  QuoteMessageTypes,
  RouteIssue,
  RoutePlan,
  RoutePreflightRequest,
  RoutePreflightResult,
  Topics,
} from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';
import { BuildSwapDto } from './dto/build-swap.dto';

/** The longest the gateway waits for quote-service's preflight of a build (its own bound is 2 s). */
const PREFLIGHT_TIMEOUT_MS = 5_000;
/** A build's answer waits for the preflight until this long after the build started, at most. */
const PREFLIGHT_WAIT_MS = 3_000;

/** A preflight under way: its issues once they came, or undefined when they did not by `buildDeadlineMs`. */
export type PendingPreflight = (buildDeadlineMs: number) => Promise<RouteIssue[] | undefined>;

/**
 * quote-service's preflight of a build's plan against its wallet and recipient (`quote.preflight`,
 * the same checks as POST /quote with userAddress). It runs while the planner builds and never
 * refuses a build: a preflight that fails or does not answer is logged and the build answers
 * without `issues`; a build with waitForTxRequestMs 0 does not ask it. Its issues join the answer when they come within the build's own wait and within
 * PREFLIGHT_WAIT_MS of its start, so that a slow quote-service delays a ready payload by little.
 */
@Injectable()
export class BuildPreflight {
  private readonly logger = new Logger(BuildPreflight.name);

  constructor(private readonly services: ServiceClient) {}

  start(plan: RoutePlan, dto: BuildSwapDto, startedAtMs: number): PendingPreflight {
    // A build that waits for nothing (waitForTxRequestMs 0) answers before any preflight could: it
    // is not asked, so that an async build costs quote-service nothing it would throw away.
    if (dto.waitForTxRequestMs === 0) return () => Promise.resolve(undefined);
    const issues = this.ask(plan, dto);
    return (buildDeadlineMs) =>
      untilDeadline(issues, Math.min(buildDeadlineMs, startedAtMs + PREFLIGHT_WAIT_MS));
  }

  private async ask(plan: RoutePlan, dto: BuildSwapDto): Promise<RouteIssue[] | undefined> {
    const request: RoutePreflightRequest = {
      plan,
      userAddress: dto.userAddress,
      recipient: dto.recipient,
      userPaysGas: userPaysGasOf(dto),
    };
    try {
      const result = await this.services.unordered<RoutePreflightResult>(
        Topics.quoteChecks,
        QuoteMessageTypes.preflight,
        request,
        { timeoutMs: PREFLIGHT_TIMEOUT_MS },
      );
      return result.issues;
    } catch (error) {
      this.logger.warn({ msg: 'build preflight failed', quoteId: plan.quoteId, error: String(error) });
      return undefined;
    }
  }
}

/** `promise`'s value if it settles before `deadlineMs` (epoch ms), else undefined at the deadline. */
async function untilDeadline<T>(promise: Promise<T | undefined>, deadlineMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadlineMs - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the build is user-paid, as the planner decides it (gasPaymentOf): gasPayment `user`, or
 * none with a permit field of the build's own (the wallet sends the router call).
 */
function userPaysGasOf(dto: BuildSwapDto): boolean {
  if (dto.gasPayment !== undefined) return dto.gasPayment === 'user';
  return [
    dto.permitType,
    dto.permitSignature,
    dto.permitSignatureCompact,
    dto.permit2,
    dto.permitDeadline,
  ].some((field) => field !== undefined);
}
