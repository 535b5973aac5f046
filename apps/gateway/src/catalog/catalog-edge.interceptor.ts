import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { EdgeReads } from '../common/http/edge-reads';
import type { GatewayRequest } from '../common/http/gateway-request';
import { CatalogService } from './catalog.service';

/**
 * Hands each catalog answer served from the catalog cache to the edge of cached reads, for as long
 * as the cache keeps it: the next identical GET (same path and query string) is answered there.
 * Catalog answers are the same for every caller, which is what makes this safe.
 */
@Injectable()
export class CatalogEdgeInterceptor implements NestInterceptor {
  constructor(
    private readonly catalog: CatalogService,
    private readonly edge: EdgeReads,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<GatewayRequest>();
    return next.handle().pipe(
      tap((answer) => {
        const freshUntil = this.catalog.freshUntil(answer);
        if (freshUntil !== undefined) {
          this.edge.remember(request.url, request.routeOptions.url ?? 'unmatched', answer, freshUntil);
        }
      }),
    );
  }
}
