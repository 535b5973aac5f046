import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { withConnectionPriority } from '@swapgw/persistence';
import { ReplayedApiError } from '../common/errors/api-error';
import { mapException } from '../common/errors/exception-mapping';
import type { GatewayReply, GatewayRequest } from '../common/http/gateway-request';
import { IDEMPOTENCY_KEY_HEADER, resolveIdempotencyKey } from './idempotency-key';
import { HeldIdempotencyClaim } from './held-claim';
import { IdempotentResponseRepository } from './idempotent-response.repository';
import { IDEMPOTENT_ROUTE, IdempotentOptions } from './idempotent-route';
import { requestFingerprint } from './request-fingerprint';

/** Global interceptor that applies @Idempotent() handlers' semantics (see the decorator). */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotentResponseRepository,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_ROUTE, context.getHandler());
    if (!options) return next.handle();
    // A command its client waits on (a build, an order): its claim, its handler's statements and the
    // claim's completion take the gateway's next free database connection ahead of quotes, polls and
    // projections (the handler runs in this context: Nest binds next.handle() to it).
    return withConnectionPriority('command', () => this.claimAndRun(context, next, options));
  }

  private async claimAndRun(
    context: ExecutionContext,
    next: CallHandler,
    options: IdempotentOptions,
  ): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<GatewayRequest>();
    const reply = context.switchToHttp().getResponse<GatewayReply>();
    const { key } = resolveIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER], options.required);
    request.idempotencyKey = key;
    reply.header('Idempotency-Key', key);
    if (!request.owner) throw new Error('@Idempotent() needs an authenticated route (it is scoped by owner)');

    const scope = {
      owner: request.owner,
      routeKey: `${request.method} ${request.routeOptions.url}`,
      idempotencyKey: key,
    };
    const fingerprint = requestFingerprint(request.body, request.params as Record<string, string>);
    const claimed = await this.store.claim(scope, fingerprint, options.readWithClaim?.(request));
    switch (claimed.outcome) {
      case 'conflict':
        throw new CodedError(
          ErrorCodes.IDEMPOTENCY_CONFLICT,
          'This Idempotency-Key was already used with a different request; use a new key for a new request',
        );
      case 'in_progress':
        throw new CodedError(
          ErrorCodes.IDEMPOTENCY_IN_PROGRESS,
          'A request with this Idempotency-Key is still being processed; retry later',
        );
      case 'replay':
        reply.header('Idempotent-Replayed', 'true');
        if (claimed.response.kind === 'error')
          throw new ReplayedApiError(claimed.status, claimed.response.error);
        reply.status(claimed.status);
        return of(claimed.response.data);
      case 'claimed': {
        const held = new HeldIdempotencyClaim(claimed.claim, claimed.readWithClaim);
        request.idempotencyClaim = held;
        return this.runAndRecord(next, reply, held);
      }
    }
  }

  private runAndRecord(
    next: CallHandler,
    reply: GatewayReply,
    held: HeldIdempotencyClaim,
  ): Observable<unknown> {
    const { claim } = held;
    return next.handle().pipe(
      mergeMap((data) =>
        from(
          // A handler that completed the claim in its own statement stored this answer already.
          (held.completed
            ? Promise.resolve()
            : this.store.complete(claim, reply.statusCode, { kind: 'data', data: data ?? null })
          )
            // The work is done: answer it even if it cannot be stored (a retry then sees the claim
            // in progress until its lease ends, which is the safe side).
            .catch((error: Error) =>
              this.logger.error(`could not store idempotent response: ${error.message}`),
            )
            .then(() => data),
        ),
      ),
      catchError((error: unknown) => {
        const mapped = mapException(error);
        // 5xx: the outcome is unknown or transient, so a retry must run again. A request refused by
        // validation never started: releasing lets the client correct it under the same key rather
        // than be told it conflicts with its own typo. A build refused for a price that moved
        // (QUOTE_PRICE_CHANGED) sent nothing and depends on the market: the same key may build
        // again, with acceptedMinAmountOut or once the price is back. Any other 4xx is a decision and is kept.
        const releases =
          mapped.status >= 500 ||
          mapped.error.code === ErrorCodes.VALIDATION_FAILED ||
          mapped.error.code === ErrorCodes.QUOTE_PRICE_CHANGED;
        const settle = releases
          ? this.store.release(claim)
          : this.store.complete(claim, mapped.status, { kind: 'error', error: mapped.error });
        return from(
          settle
            .catch((storeError: Error) =>
              this.logger.error(`could not settle idempotency claim: ${storeError.message}`),
            )
            .then(() => {
              throw error;
            }),
        );
      }),
    );
  }
}
