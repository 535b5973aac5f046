import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Clock } from '@swapgw/runtime';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import type { GatewayReply, GatewayRequest } from '../http/gateway-request';
import { apiMetaOf, ApiMeta } from './api-meta';

export interface ApiEnvelope<T> {
  data: T;
  meta: ApiMeta;
}

const RAW_RESPONSE = 'gateway:raw-response';

/** Opts a handler out of the envelope (e.g. a document served as-is). */
export const RawResponse = (): MethodDecorator & ClassDecorator => SetMetadata(RAW_RESPONSE, true);

/** Wraps every successful handler result as `{ data, meta: { requestId, timestamp } }`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()])) {
      return next.handle();
    }
    const request = context.switchToHttp().getRequest<GatewayRequest>();
    const reply = context.switchToHttp().getResponse<GatewayReply>();
    // The API answers 200 to POSTs (never 201): Nest's POST default applies only when a handler
    // neither declares @HttpCode nor sets the status itself.
    const explicitCode = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
    if (explicitCode === undefined && reply.statusCode === 201) reply.status(200);
    return next.handle().pipe(
      map((data): ApiEnvelope<unknown> => ({
        data: data ?? null,
        meta: apiMetaOf(request, this.clock.nowMs()),
      })),
    );
  }
}
