import { metricsRegistry } from '@swapgw/runtime';
import { Counter, Gauge } from 'prom-client';
import type { SponsoredPurpose, SponsoredTransactionStatus } from './sponsored-transaction.entity';

// Gas sponsorship metrics, on the process registry that signer-surface serves on /metrics (health
// port). Amounts are wei as floats: Prometheus has no integers, and alerting needs no exact wei.

const relayerBalance = new Gauge({
  name: 'swapgw_relayer_balance_wei',
  help: 'Native balance of each relayer account, as last read (refreshed by the relayed-transaction tracker)',
  labelNames: ['chain', 'address'] as const,
  registers: [metricsRegistry()],
});

const gasSpent = new Counter({
  name: 'swapgw_sponsored_gas_spent_wei_total',
  help: 'Wei the relayers spent on mined sponsored transactions (gas used x effective price, plus value moved) by chain',
  labelNames: ['chain'] as const,
  registers: [metricsRegistry()],
});

const gasSpentByOwner = new Counter({
  name: 'swapgw_sponsored_gas_spent_by_owner_wei_total',
  help: 'Wei the relayers spent on mined sponsored transactions by chain and owner (API key id)',
  labelNames: ['chain', 'owner'] as const,
  registers: [metricsRegistry()],
});

const sponsoredTransactions = new Counter({
  name: 'swapgw_sponsored_transactions_total',
  help: 'Sponsored transactions by chain, purpose and status: sent (broadcast), then confirmed, failed (reverted) or dropped',
  labelNames: ['chain', 'purpose', 'status'] as const,
  registers: [metricsRegistry()],
});

const replacements = new Counter({
  name: 'swapgw_relayer_replacements_total',
  help: 'Stuck sponsored transactions sent again with the same nonce and higher fees, by chain',
  labelNames: ['chain'] as const,
  registers: [metricsRegistry()],
});

export const RelayingMetrics = {
  balance(chain: string, address: string, wei: bigint): void {
    relayerBalance.set({ chain, address }, Number(wei));
  },
  sent(chain: string, purpose: SponsoredPurpose): void {
    sponsoredTransactions.inc({ chain, purpose, status: 'sent' });
  },
  settled(
    chain: string,
    purpose: SponsoredPurpose,
    status: Exclude<SponsoredTransactionStatus, 'pending'>,
    owner: string,
    costWei: bigint,
  ): void {
    sponsoredTransactions.inc({ chain, purpose, status });
    if (costWei > 0n) {
      gasSpent.inc({ chain }, Number(costWei));
      gasSpentByOwner.inc({ chain, owner }, Number(costWei));
    }
  },
  replaced(chain: string): void {
    replacements.inc({ chain });
  },
};
