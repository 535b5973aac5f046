import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import { ErrorCodes } from '@swapgw/contracts';
import { Clock, runWithRequestContext } from '@swapgw/runtime';
import { apiMetaOf } from '../envelope/api-meta';
import type { GatewayReply, GatewayRequest } from '../http/gateway-request';
import { RouteTable } from '../http/route-table';
import { mapException, MappedException } from './exception-mapping';

/**
 * The one exception filter of the gateway: everything thrown while serving HTTP (by handlers,
 * guards, pipes, Fastify's body parsing or its not-found handler) leaves as an ApiError body
 * `{ error: { code, message, details? }, meta }`. Unexpected errors are logged with the request
 * id and answered 500 INTERNAL_ERROR without a stack.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly routes: RouteTable,
    private readonly clock: Clock,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const request = host.switchToHttp().getRequest<GatewayRequest>();
    const reply = host.switchToHttp().getResponse<GatewayReply>();
    const mapped = this.map(exception, request, reply);

    const log = (): void => {
      if (mapped.unexpected) {
        this.logger.error(
          { msg: 'unhandled error', method: request.method, url: request.url, error: describe(exception) },
          exception instanceof Error ? exception.stack : undefined,
        );
      } else if (mapped.status >= 500) {
        this.logger.warn({
          msg: mapped.error.message,
          code: mapped.error.code,
          method: request.method,
          url: request.url,
        });
      }
    };
    if (request.requestContext) runWithRequestContext(request.requestContext, log);
    else log();

    if (reply.sent) return;
    reply
      .status(mapped.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ error: mapped.error, meta: apiMetaOf(request, this.clock.nowMs()) });
  }

  private map(exception: unknown, request: GatewayRequest, reply: GatewayReply): MappedException {
    // Nest's not-found handler throws NotFoundException for any unmatched method + path.
    if (exception instanceof NotFoundException && !request.routeOptions?.url) {
      const allowed = this.routes.methodsFor(request.url);
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        reply.header('Allow', allowed.join(', '));
        return {
          status: 405,
          error: {
            code: ErrorCodes.METHOD_NOT_ALLOWED,
            message: `${request.method} is not allowed on this path`,
            details: { allow: allowed },
          },
          unexpected: false,
        };
      }
      return {
        status: 404,
        error: {
          code: ErrorCodes.NOT_FOUND,
          message: `No route ${request.method} ${request.url.split('?')[0]}`,
        },
        unexpected: false,
      };
    }
    return mapException(exception);
  }
}

function describe(exception: unknown): string {
  if (exception instanceof Error) return `${exception.name}: ${exception.message}`;
  try {
    return JSON.stringify(exception);
  } catch {
    return String(exception);
  }
}
