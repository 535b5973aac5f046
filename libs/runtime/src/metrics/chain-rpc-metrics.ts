import { Counter } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

const rpcRequests = new Counter({
  name: 'swapgw_rpc_requests_total',
  help: 'JSON-RPC requests this process sent to chain nodes, by chain and method (counted where they are sent: what a provider bills)',
  labelNames: ['chain', 'method'] as const,
  registers: [metricsRegistry()],
});

export const chainRpcMetrics = {
  /** One JSON-RPC request sent to `chain`'s node (a batch counts each of its requests). */
  requestSent(chain: string, method: string): void {
    rpcRequests.inc({ chain, method });
  },
};
