import { metricsRegistry } from '@swapgw/runtime';
import { Counter } from 'prom-client';

// The Cosmos fee granters' own metric, on the registry signer-surface serves on /metrics. Their
// balances are the relayers' balance gauges (swapgw_relayer_balance_wei, in base units of the fee
// denom), what they pay the ledger's counters (purposes cosmos-transaction and cosmos-fee-grant).

const feeGrants = new Counter({
  name: 'swapgw_cosmos_fee_grants_total',
  help: "The Cosmos fee granters' x/feegrant grants by chain and outcome: granted (a wallet's first allowance), topped-up (a revoke and a new grant: what was left could not pay the next step), failed (refused by the node, failed in its block, or not landed in time: the step answered 503 SPONSORSHIP_UNAVAILABLE)",
  labelNames: ['chain', 'outcome'] as const,
  registers: [metricsRegistry()],
});

export const CosmosFeeGrantMetrics = {
  grant(chain: string, outcome: 'granted' | 'topped-up' | 'failed'): void {
    feeGrants.inc({ chain, outcome });
  },
};
