import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { CodedError, ErrorCodes, IntegratorFeeShare } from '@swapgw/contracts';
import type { GatewayRequest } from './gateway-request';

export const IS_PUBLIC_ROUTE = 'gateway:public-route';

/** Marks a handler or controller as reachable without an API key (and outside rate limits). */
export const PublicRoute = (): MethodDecorator & ClassDecorator =>
  // The extension tells the OpenAPI post-processing not to add bearer security to the operation.
  applyDecorators(SetMetadata(IS_PUBLIC_ROUTE, true), ApiExtension('x-public', true));

/** The owner of the API key of the request; use it in payloads that need `owner`. */
export const Owner = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const owner = ctx.switchToHttp().getRequest<GatewayRequest>().owner;
  // Only reachable on a public route by mistake: fail loudly rather than act for nobody.
  if (!owner) throw new CodedError(ErrorCodes.UNAUTHORIZED, 'Missing or invalid API key');
  return owner;
});

/** The API key's default integrator fee (set by the operator with the keys CLI), or undefined. */
export const IntegratorFeeDefault = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): IntegratorFeeShare[] | undefined =>
    ctx.switchToHttp().getRequest<GatewayRequest>().integratorFeeDefault ?? undefined,
);

/** The Idempotency-Key of the request (as given, or generated when optional); needs @Idempotent(). */
export const IdempotencyKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const key = ctx.switchToHttp().getRequest<GatewayRequest>().idempotencyKey;
  if (!key) throw new Error('@IdempotencyKey() used on a handler without @Idempotent()');
  return key;
});

/** The request id of the current request (also in meta.requestId and X-Request-Id). */
export const RequestId = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string =>
    ctx.switchToHttp().getRequest<GatewayRequest>().requestContext.requestId,
);
