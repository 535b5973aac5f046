import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CodedError, ErrorCode, ErrorCodes } from '@swapgw/contracts';
import { RequestReplyClient, WaitLonger } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';

export interface ServiceCallOptions {
  /** Bound of the whole call; default SERVICE_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Code to answer when the service cannot be reached or does not answer in time. Default
   * SERVICE_UNAVAILABLE (503); e.g. the quote routes answer 502 QUOTE_UPSTREAM_FAILED as the spec
   * says for an unavailable quote service.
   */
  unavailableAs?: ErrorCode;
  version?: number;
  /**
   * Past `timeoutMs`, wait on while `stillWaiting()` holds, up to `upToMs` in all: a service that is
   * busy answers later, one that is away still fails at `timeoutMs` (e.g. POST /quote while
   * quote-service's heartbeats do not say it is down: ServiceHeartbeats.notDown).
   */
  waitLonger?: WaitLonger;
}

/**
 * How feature modules call the Kafka services: one request-reply exchange whose errors arrive as
 * CodedErrors, which the exception filter turns into the matching HTTP status and ApiError.
 *
 *   const order = await this.services.call<Order>(Topics.limitOrderRequests, 'limit-order.get', limitOrderId, payload);
 *   const chains = await this.services.unordered<Chains>(Topics.catalogRequests, 'catalog.chains.list', {});
 */
@Injectable()
export class ServiceClient {
  constructor(
    private readonly requester: RequestReplyClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async call<T>(
    topic: string,
    type: string,
    aggregateId: string,
    payload: unknown,
    timeoutMsOrOptions: number | ServiceCallOptions = {},
  ): Promise<T> {
    const options =
      typeof timeoutMsOrOptions === 'number' ? { timeoutMs: timeoutMsOrOptions } : timeoutMsOrOptions;
    try {
      return await this.requester.request<T>(topic, type, aggregateId, payload, {
        timeoutMs: options.timeoutMs ?? this.config.SERVICE_REQUEST_TIMEOUT_MS,
        version: options.version,
        waitLonger: options.waitLonger,
      });
    } catch (error) {
      if (error instanceof CodedError) {
        if (error.code === ErrorCodes.SERVICE_UNAVAILABLE && options.unavailableAs) {
          throw new CodedError(options.unavailableAs, error.message, error.details);
        }
        throw error;
      }
      // Anything else is a failure of the messaging layer itself, not an answer of the service.
      throw new CodedError(
        options.unavailableAs ?? ErrorCodes.MESSAGING_UNAVAILABLE,
        `Could not call ${type}`,
        {
          topic,
          type,
          cause: (error as Error)?.message,
        },
      );
    }
  }

  /**
   * A call about no aggregate (a catalog read, a new quote): keyed by a fresh id, so concurrent
   * calls spread over every partition of the request topic and the service answers them in
   * parallel. `call` with an aggregate id keeps one aggregate's requests in order on one partition,
   * which a constant key would impose on every request of the topic.
   */
  unordered<T>(
    topic: string,
    type: string,
    payload: unknown,
    options: number | ServiceCallOptions = {},
  ): Promise<T> {
    return this.call<T>(topic, type, randomUUID(), payload, options);
  }

  /** True once replies can be received (the reply consumer joined its group). */
  isReady(): boolean {
    return this.requester.isReady();
  }
}
