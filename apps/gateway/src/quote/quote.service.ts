import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  CodedError,
  CreateQuoteRequest,
  ErrorCodes,
  IntegratorFeeShare,
  QuoteMessageTypes,
  QuoteResult,
  QuoteUnavailableRoutes,
  Topics,
} from '@swapgw/contracts';
import { ServiceHeartbeats } from '../health/service-heartbeats';
import { ServiceClient } from '../messaging/service-client';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { ServedQuotes } from './served-quotes.repository';

/** What POST /quote answers: the quote without the executable plans, which stay with the services. */
export type QuoteAnswer = Omit<QuoteResult, 'routePlans'>;

/**
 * POST /quote as a request-reply call to quote-service. Its client errors (UNKNOWN_CHAIN,
 * UNKNOWN_TOKEN, SAME_TOKEN, INVALID_AMOUNT, INVALID_ADDRESS) and QUOTE_UPSTREAM_FAILED pass
 * through. A quote service that is away (its heartbeats say down) and does not answer within
 * QUOTE_TIMEOUT_MS is 502 QUOTE_UPSTREAM_FAILED (spec: quote service unavailable); one that is up
 * but busy (a flood) is waited for up to QUOTE_BUSY_TIMEOUT_MS: the answer comes later, not as a
 * 502. The first bound leaves room for the providers' own deadline (4 s by default).
 * Quotes of one owner need no order between them: unordered, so one integrator's concurrent quotes
 * are answered in parallel rather than queued on the partition of its owner id.
 * The quote is recorded with its plans before it is answered, so that any gateway instance can
 * judge and send a build of it without asking another service.
 */
@Injectable()
export class QuoteService {
  static readonly QUOTE_TIMEOUT_MS = 15_000;
  static readonly QUOTE_BUSY_TIMEOUT_MS = 60_000;

  constructor(
    private readonly services: ServiceClient,
    private readonly served: ServedQuotes,
    private readonly heartbeats: ServiceHeartbeats,
  ) {}

  async create(
    owner: string,
    body: CreateQuoteDto,
    debug: boolean,
    feeDefault?: IntegratorFeeShare[],
  ): Promise<QuoteAnswer> {
    // The key's default fee goes along for quote-service to apply when the body has none (it keeps
    // the recipients that are addresses of the source chain).
    const request: CreateQuoteRequest = {
      ...body,
      owner,
      ...(body.integratorFee === undefined && feeDefault?.length ? { defaultIntegratorFee: feeDefault } : {}),
      ...(debug ? { debug: true } : {}),
    };
    const { routePlans, ...answer } = await this.services.unordered<QuoteResult>(
      Topics.quoteRequests,
      QuoteMessageTypes.create,
      request,
      {
        timeoutMs: QuoteService.QUOTE_TIMEOUT_MS,
        waitLonger: {
          stillWaiting: this.heartbeats.notDown('quote-service'),
          upToMs: QuoteService.QUOTE_BUSY_TIMEOUT_MS,
        },
        unavailableAs: ErrorCodes.QUOTE_UPSTREAM_FAILED,
      },
    );
    answer.unavailableRoutes = checkedUnavailableRoutes(answer.unavailableRoutes);
    await this.served.record(answer.quoteId, owner, answer.expiresAtMs, routePlans);
    return answer;
  }
}

/**
 * The reply's unavailableRoutes, validated on arrival (QuoteUnavailableRoutes): an answer outside
 * the contract is the quote service's failure, 502 QUOTE_UPSTREAM_FAILED, never passed on.
 */
function checkedUnavailableRoutes(value: unknown): QuoteResult['unavailableRoutes'] {
  const checked = plainToInstance(QuoteUnavailableRoutes, { unavailableRoutes: value });
  const problems = validateSync(checked, { whitelist: true, forbidUnknownValues: false });
  if (problems.length > 0)
    throw new CodedError(
      ErrorCodes.QUOTE_UPSTREAM_FAILED,
      'The quote service answered invalid unavailableRoutes',
      {
        fields: problems.map((problem) => problem.property),
      },
    );
  return checked.unavailableRoutes;
}
