import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import type { EdgeReads } from './edge-reads';
import { edgeServerFactory } from './http-shell';

/** A real HTTP server from the factory, with an edge that answers /edge and a handler standing in for Fastify. */
async function serverWith(edge: Pick<EdgeReads, 'serve'> | undefined) {
  const handled: string[] = [];
  const server = edgeServerFactory(() => edge as EdgeReads | undefined)(
    (request, response) => {
      handled.push(request.url ?? '');
      response.end('from the framework');
    },
    { keepAliveTimeout: 72_000, requestTimeout: 30_000, connectionTimeout: 0, maxRequestsPerSocket: 0 },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, base, handled };
}

const edgeAnsweringOnlyEdgePath: Pick<EdgeReads, 'serve'> = {
  serve: (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (request.url !== '/edge') return false;
    response.end('from the edge');
    return true;
  },
};

describe('edgeServerFactory', () => {
  it('answers at the edge what the edge answers, and hands everything else to the framework unchanged', async () => {
    const { server, base, handled } = await serverWith(edgeAnsweringOnlyEdgePath);
    try {
      expect(await (await fetch(`${base}/edge`)).text()).toBe('from the edge');
      expect(await (await fetch(`${base}/other?x=1`)).text()).toBe('from the framework');
      expect(handled).toEqual(['/other?x=1']);
      expect(server.keepAliveTimeout).toBe(72_000);
      expect(server.requestTimeout).toBe(30_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('hands every request to the framework until the edge exists', async () => {
    const { server, base, handled } = await serverWith(undefined);
    try {
      expect(await (await fetch(`${base}/edge`)).text()).toBe('from the framework');
      expect(handled).toEqual(['/edge']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
