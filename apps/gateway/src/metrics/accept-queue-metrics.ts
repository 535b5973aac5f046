import { acceptQueueLength, metricsRegistry } from '@swapgw/runtime';
import { Gauge } from 'prom-client';

let port: number | undefined;

// Read at scrape time from the kernel (nothing sampled): the connections on the API port that
// clients count as connected and this instance has not accepted yet.
new Gauge({
  name: 'swapgw_http_accept_queue_connections',
  help: "Connections the kernel completed on the gateway's API port that no listening socket has accepted yet, all HTTP_ACCEPT_SOCKETS together (Linux, read from /proc/net/tcp and tcp6 at scrape time; absent elsewhere). Their clients count them connected while the gateway has not read their requests, and its request timings do not see the wait: a queue that stays above 0 means the event loop's turns are too long for the sockets it has",
  registers: [metricsRegistry()],
  async collect() {
    this.reset();
    const waiting = port === undefined ? undefined : await acceptQueueLength(port);
    if (waiting !== undefined) this.set(waiting);
  },
});

export const acceptQueueMetrics = {
  /** The API port whose accept queues the gauge reads (set once the gateway listens). */
  readFrom(apiPort: number): void {
    port = apiPort;
  },
};
