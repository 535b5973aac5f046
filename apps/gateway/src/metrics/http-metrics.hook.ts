import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { initProcessMetrics, observeHttpRequest } from '@swapgw/runtime';

/**
 * Times every HTTP request into swapgw_http_request_duration_seconds, labelled with Fastify's
 * route template (`/api/v1/swap/:swapId/signing`), never the raw URL, so that ids in paths cannot
 * make the label unbounded; requests that match no route count as `unmatched`.
 */
export function installHttpMetrics(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    observeHttpRequest({
      method: request.method,
      routeTemplate: request.routeOptions?.url,
      statusCode: reply.statusCode,
      durationSeconds: reply.elapsedTime / 1000,
    });
    done();
  });
}

/** Names the gateway's metrics and installs the HTTP timing on its Fastify instance at start. */
@Injectable()
export class HttpMetricsInstaller implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    initProcessMetrics('gateway');
    // @nestjs/platform-fastify bundles its own copy of fastify: same API, distinct type declarations.
    installHttpMetrics(this.adapterHost.httpAdapter.getInstance() as unknown as FastifyInstance);
  }
}
