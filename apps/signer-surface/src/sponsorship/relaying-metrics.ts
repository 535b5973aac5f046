import { metricsRegistry } from '@swapgw/runtime';
import { Counter, Gauge } from 'prom-client';
import type { LedgerPurpose, SponsoredTransactionStatus } from './sponsored-transaction.entity';

// Gas sponsorship metrics, on the process registry that signer-surface serves on /metrics (health
// port). Amounts are wei as floats: Prometheus has no integers, and alerting needs no exact wei.

const relayerBalance = new Gauge({
  name: 'swapgw_relayer_balance_wei',
  help: 'Native balance of each relayer account, as last read (refreshed by the relayed-transaction tracker)',
  labelNames: ['chain', 'address'] as const,
  registers: [metricsRegistry()],
});

const relayerMinimum = new Gauge({
  name: 'swapgw_relayer_min_balance_wei',
  help: 'The minimum balance under which a relayer account is no longer used (RELAYER_MIN_BALANCE_WEI, SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS, BITCOIN_FEE_WALLET_MIN_BALANCE_SATS, COSMOS_FEE_GRANTER_MIN_BALANCE), next to each balance: alerts compare the two',
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

const healing = new Counter({
  name: 'swapgw_relayer_healing_total',
  help: 'What the relayers did to heal their nonces and fees, by chain and action: resent (the node had lost it: the same transaction again), reissued (its nonce was taken by another sender: the call at a fresh nonce), filled (a zero-value self-transfer at a nonce missing under a pending one), repended (recorded as mined, the chain no longer had it: followed again), lost (the same, its nonce since used by another), cancelled (not mined under its fee ceiling: a cancel sent), held (at its ceiling with a cancel out: nothing more sent)',
  labelNames: ['chain', 'action'] as const,
  registers: [metricsRegistry()],
});

const nonceDrift = new Gauge({
  name: 'swapgw_relayer_nonce_drift',
  help: "A relayer's ledger next nonce minus the chain's pending nonce count at its last reconciliation, before healing (0 when they agree; > 0: the chain lost transactions or was reset; < 0: another sender used the key)",
  labelNames: ['chain', 'address'] as const,
  registers: [metricsRegistry()],
});

const oldestPending = new Gauge({
  name: 'swapgw_relayer_oldest_pending_seconds',
  help: 'Age of the oldest pending sponsored transaction per chain (0 when none): a stuck relayer shows here',
  labelNames: ['chain'] as const,
  registers: [metricsRegistry()],
});

const pendingTransactions = new Gauge({
  name: 'swapgw_relayer_pending_transactions',
  help: 'Sponsored transactions sent and not yet settled (mined, failed, dropped), per chain: the relayers in-flight work',
  labelNames: ['chain'] as const,
  registers: [metricsRegistry()],
});

const replacements = new Counter({
  name: 'swapgw_relayer_replacements_total',
  help: 'Stuck sponsored transactions sent again with the same nonce and higher fees, by chain',
  labelNames: ['chain'] as const,
  registers: [metricsRegistry()],
});

const bitcoinFeeBumps = new Counter({
  name: 'swapgw_bitcoin_fee_bumps_total',
  help: 'Fee bumps of stuck sponsored Bitcoin transactions by chain and action: child (a CPFP child from the fee wallet), replaced (that child replaced with a higher fee, RBF), held (still stuck at BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE, or the change cannot pay: nothing sent)',
  labelNames: ['chain', 'action'] as const,
  registers: [metricsRegistry()],
});

export const RelayingMetrics = {
  /** An account's balance as read, with the minimum under which it is no longer used. */
  balance(chain: string, address: string, wei: bigint, minimumWei: bigint): void {
    relayerBalance.set({ chain, address }, Number(wei));
    relayerMinimum.set({ chain, address }, Number(minimumWei));
  },
  sent(chain: string, purpose: LedgerPurpose): void {
    sponsoredTransactions.inc({ chain, purpose, status: 'sent' });
  },
  settled(
    chain: string,
    purpose: LedgerPurpose,
    status: Exclude<SponsoredTransactionStatus, 'pending'>,
    owner: string | null,
    costWei: bigint,
  ): void {
    sponsoredTransactions.inc({ chain, purpose, status });
    if (costWei > 0n) {
      gasSpent.inc({ chain }, Number(costWei));
      if (owner !== null) gasSpentByOwner.inc({ chain, owner }, Number(costWei));
    }
  },
  healed(
    chain: string,
    action: 'resent' | 'reissued' | 'filled' | 'repended' | 'lost' | 'cancelled' | 'held',
    count = 1,
  ): void {
    healing.inc({ chain, action }, count);
  },
  nonceDrift(chain: string, address: string, drift: number): void {
    nonceDrift.set({ chain, address }, drift);
  },
  pending(chain: string, oldestSeconds: number, count: number): void {
    oldestPending.set({ chain }, oldestSeconds);
    pendingTransactions.set({ chain }, count);
  },
  replaced(chain: string): void {
    replacements.inc({ chain });
  },
  bitcoinFeeBump(chain: string, action: 'child' | 'replaced' | 'held'): void {
    bitcoinFeeBumps.inc({ chain, action });
  },
};
