import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add(['GET', 'HEAD'], '/api/v1/limit-orders/limit/:limitOrderId');
  table.add('DELETE', '/api/v1/limit-orders/limit/:limitOrderId');
  table.add('POST', '/api/v1/limit-orders/limit/:limitOrderId/replace');
  table.add('GET', '/api/v1/health');

  it('lists the methods of a concrete path, ignoring the query string', () => {
    expect(table.methodsFor('/api/v1/limit-orders/limit/lo_1?x=y')).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(table.methodsFor('/api/v1/limit-orders/limit/lo_1/replace')).toEqual(['POST']);
  });

  it('does not let a parameter span segments or match unknown paths', () => {
    expect(table.methodsFor('/api/v1/limit-orders/limit/a/b')).toEqual([]);
    expect(table.methodsFor('/api/v1/health/extra')).toEqual([]);
    expect(table.methodsFor('/api/v1/healthz')).toEqual([]);
  });
});
