import { httpLabelsOf, observeHttpRequest, UNMATCHED_ROUTE } from './http-metrics';
import { metricsRegistry } from './metrics-registry';

describe('http metrics', () => {
  it('labels a request by its route template, not its URL', () => {
    expect(
      httpLabelsOf({ method: 'post', routeTemplate: '/api/v1/swap/:swapId/signing', statusCode: 409 }),
    ).toEqual({
      method: 'POST',
      route: '/api/v1/swap/:swapId/signing',
      status_code: '409',
    });
  });

  it('bounds the labels of unmatched routes and unknown methods', () => {
    expect(httpLabelsOf({ method: 'PROPFIND', routeTemplate: undefined, statusCode: 404 })).toEqual({
      method: 'OTHER',
      route: UNMATCHED_ROUTE,
      status_code: '404',
    });
  });

  it('records the duration in the histogram under those labels', async () => {
    observeHttpRequest({
      method: 'GET',
      routeTemplate: '/api/v1/tokens',
      statusCode: 200,
      durationSeconds: 0.03,
    });
    const text = await metricsRegistry().metrics();
    expect(text).toContain(
      'swapgw_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/v1/tokens",status_code="200"} 0',
    );
    expect(text).toContain(
      'swapgw_http_request_duration_seconds_bucket{le="0.05",method="GET",route="/api/v1/tokens",status_code="200"} 1',
    );
    expect(text).toContain(
      'swapgw_http_request_duration_seconds_count{method="GET",route="/api/v1/tokens",status_code="200"} 1',
    );
  });
});
