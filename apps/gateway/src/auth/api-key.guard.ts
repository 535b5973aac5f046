import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type { GatewayRequest } from '../common/http/gateway-request';
import { IS_PUBLIC_ROUTE } from '../common/http/request-decorators';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { bearerKeyOf } from './api-key';

/** Every failure answers the same body, so a caller cannot tell missing from revoked from unknown. */
export const unauthorized = (): CodedError =>
  new CodedError(ErrorCodes.UNAUTHORIZED, 'Missing or invalid API key');

/** Global guard: `Authorization: Bearer <key>` on every route not marked @PublicRoute(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, [context.getHandler(), context.getClass()])
    ) {
      return true;
    }
    const request = context.switchToHttp().getRequest<GatewayRequest>();
    const key = bearerKeyOf(request.headers.authorization);
    if (!key) throw unauthorized();
    const principal = await this.authenticator.authenticate(key);
    if (!principal) throw unauthorized();
    request.owner = principal.owner;
    request.apiKeyId = principal.apiKeyId;
    request.integratorFeeDefault = principal.integratorFee;
    return true;
  }
}
