import {
  ArgumentsHost,
  BadRequestException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { SystemClock } from '@swapgw/runtime';
import { RouteTable } from '../http/route-table';
import { ReplayedApiError } from './api-error';
import { ApiExceptionFilter } from './api-exception.filter';
import { mapException } from './exception-mapping';

describe('mapException', () => {
  it('maps a CodedError to its catalog status, code, message and details', () => {
    expect(mapException(new CodedError(ErrorCodes.QUOTE_EXPIRED, 'expired', { quoteId: 'q1' }))).toEqual({
      status: 410,
      error: { code: 'QUOTE_EXPIRED', message: 'expired', details: { quoteId: 'q1' } },
      unexpected: false,
    });
    expect(mapException(new CodedError(ErrorCodes.tx_request_expired, 'expired')).status).toBe(409);
  });

  it('treats a code outside the catalog as an internal error', () => {
    const mapped = mapException(new CodedError('NOT_A_CODE' as never, 'x'));
    expect(mapped).toMatchObject({ status: 500, error: { code: 'INTERNAL_ERROR' }, unexpected: true });
  });

  it('maps database outages to 503 PERSISTENCE_UNAVAILABLE', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(mapException(refused)).toMatchObject({ status: 503, error: { code: 'PERSISTENCE_UNAVAILABLE' } });
    const wrapped = Object.assign(new Error('query failed'), { driverError: { code: '57P01' } });
    expect(mapException(wrapped).error.code).toBe('PERSISTENCE_UNAVAILABLE');
  });

  it('maps Nest and Fastify HTTP errors by status', () => {
    expect(mapException(new PayloadTooLargeException()).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(mapException(new HttpException('Unsupported Media Type', 415)).error.code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(
      mapException(new BadRequestException(['a must be a string', 'b must be an integer'])),
    ).toMatchObject({
      status: 400,
      error: { code: 'VALIDATION_FAILED', message: 'a must be a string; b must be an integer' },
    });
    expect(mapException(new HttpException('teapot', 418))).toMatchObject({
      status: 400,
      error: { code: 'VALIDATION_FAILED' },
    });
    expect(mapException(new HttpException('bad gateway', 502))).toMatchObject({
      status: 500,
      unexpected: true,
    });
    const fastifyError = Object.assign(new Error('Request body is too large'), { statusCode: 413 });
    expect(mapException(fastifyError).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a replayed error exactly as stored', () => {
    const body = { code: 'INVALID_AMOUNT', message: 'no', details: { field: 'amount' } };
    expect(mapException(new ReplayedApiError(400, body))).toEqual({
      status: 400,
      error: body,
      unexpected: false,
    });
  });

  it('never exposes the message of an unexpected error', () => {
    const mapped = mapException(new TypeError('cannot read secret of undefined at /srv/x.ts:1'));
    expect(mapped).toMatchObject({ status: 500, error: { code: 'INTERNAL_ERROR' }, unexpected: true });
    expect(mapped.error.message).not.toContain('secret');
  });
});

describe('ApiExceptionFilter', () => {
  interface Sent {
    status?: number;
    headers: Record<string, string>;
    body?: unknown;
  }

  function hostFor(request: { method: string; url: string; routeOptions?: { url?: string } }): {
    host: ArgumentsHost;
    sent: Sent;
  } {
    const sent: Sent = { headers: {} };
    const reply = {
      sent: false,
      status(code: number) {
        sent.status = code;
        return reply;
      },
      header(name: string, value: string) {
        sent.headers[name.toLowerCase()] = value;
        return reply;
      },
      send(body: unknown) {
        sent.body = body;
        return reply;
      },
    };
    const fullRequest = {
      ...request,
      requestContext: {
        requestId: 'req-1',
        traceparent: '00-' + '1'.repeat(32) + '-' + '2'.repeat(16) + '-01',
      },
    };
    const host = {
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => fullRequest, getResponse: () => reply }),
    } as unknown as ArgumentsHost;
    return { host, sent };
  }

  const routes = new RouteTable();
  routes.add(['GET', 'HEAD'], '/api/v1/swap/:swapId/signing');
  routes.add('POST', '/api/v1/swap/:swapId/signing');
  const filter = new ApiExceptionFilter(routes, new SystemClock());

  it('answers 404 NOT_FOUND for an unknown path', () => {
    const { host, sent } = hostFor({ method: 'GET', url: '/api/v1/nothing?x=1' });
    filter.catch(new NotFoundException('Cannot GET /api/v1/nothing'), host);
    expect(sent.status).toBe(404);
    expect(sent.body).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route GET /api/v1/nothing' },
      meta: { requestId: 'req-1', timestamp: expect.any(String) },
    });
  });

  it('answers 405 with Allow for a known path and another method', () => {
    const { host, sent } = hostFor({ method: 'DELETE', url: '/api/v1/swap/abc/signing' });
    filter.catch(new NotFoundException(), host);
    expect(sent.status).toBe(405);
    expect(sent.headers.allow).toBe('GET, HEAD, POST');
    expect((sent.body as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('maps a NotFoundException thrown inside a matched route as a plain 404', () => {
    const { host, sent } = hostFor({
      method: 'GET',
      url: '/api/v1/swap/abc/signing',
      routeOptions: { url: '/api/v1/swap/:swapId/signing' },
    });
    filter.catch(new NotFoundException('gone'), host);
    expect(sent.status).toBe(404);
  });

  it('answers CodedErrors with their status and JSON content type', () => {
    const { host, sent } = hostFor({
      method: 'POST',
      url: '/api/v1/swap/build',
      routeOptions: { url: '/api/v1/swap/build' },
    });
    filter.catch(new CodedError(ErrorCodes.SIGNING_SURFACE_UNAVAILABLE, 'no rpc'), host);
    expect(sent.status).toBe(503);
    expect(sent.headers['content-type']).toContain('application/json');
  });
});
