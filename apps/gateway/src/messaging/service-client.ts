import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CodedError, ErrorCode, ErrorCodes, HeartbeatService } from '@swapgw/contracts';
import { RequestReplyClient, WaitLonger } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceHeartbeats } from './service-heartbeats';

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
   * Past `timeoutMs`, wait on while this service's heartbeats do not say it is down, up to `upToMs`
   * in all: a busy service answers later, one that is away still fails at `timeoutMs`.
   */
  busy?: { service: HeartbeatService; upToMs: number };
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
    private readonly heartbeats: ServiceHeartbeats,
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
        waitLonger: options.busy && this.whileNotDown(options.busy),
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

  private whileNotDown(busy: { service: HeartbeatService; upToMs: number }): WaitLonger {
    return {
      stillWaiting: () => this.heartbeats.statusOf(busy.service) !== 'down',
      upToMs: busy.upToMs,
    };
  }

  /** True once replies can be received (the reply consumer joined its group). */
  isReady(): boolean {
    return this.requester.isReady();
  }
}
