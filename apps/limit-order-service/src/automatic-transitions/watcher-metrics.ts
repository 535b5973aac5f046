import { metricsRegistry } from '@swapgw/runtime';
import { Counter } from 'prom-client';
import type { CheckFailureKind } from './check-failures';

// Watcher metrics, on the process registry limit-order-service serves on /metrics (health port).

const checks = new Counter({
  name: 'swapgw_limit_order_checks_total',
  help: 'Watcher checks of open limit orders by outcome: ok (quoted), refused (a 400 for the terms; counts towards WATCH_MAX_FAILED_CHECKS), transient (not counted)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry()],
});

const failedOrders = new Counter({
  name: 'swapgw_limit_orders_failed_total',
  help: 'Open limit orders the watcher moved to failed after WATCH_MAX_FAILED_CHECKS refused checks in a row, by failure code',
  labelNames: ['code'] as const,
  registers: [metricsRegistry()],
});

export const WatcherMetrics = {
  checked(outcome: 'ok' | CheckFailureKind): void {
    checks.inc({ outcome });
  },
  orderFailed(code: string): void {
    failedOrders.inc({ code });
  },
};
