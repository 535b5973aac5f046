import type { FeeData, Provider } from 'ethers';

/** How long the fee suggestion a payload is priced with may be reused for the chain's next payloads. */
export const FEE_DATA_MAX_AGE_MS = 1000;

interface Entry {
  atMs: number;
  feeData: Promise<FeeData>;
}

const recent = new WeakMap<Provider, Entry>();

/**
 * The node's EIP-1559 fee suggestion for pricing a payload, shared by every payload the chain issues
 * within `maxAgeMs` (and by concurrent callers while one read is in flight). `getFeeData` is three
 * RPC calls and a parsed block; a burst of builds would otherwise read it once per payload, while a
 * payload's fees are a suggestion the wallet signs within minutes anyway. A failed read is not kept.
 * Sends by the service's own relayers read fees fresh, not through this. `nowMs` is the caller's
 * Clock time: whether the kept suggestion is still young enough is its decision.
 */
export function recentFeeData(
  provider: Provider,
  nowMs: number,
  maxAgeMs = FEE_DATA_MAX_AGE_MS,
): Promise<FeeData> {
  const entry = recent.get(provider);
  if (entry && nowMs - entry.atMs < maxAgeMs) return entry.feeData;
  const feeData = provider.getFeeData();
  const fresh: Entry = { atMs: nowMs, feeData };
  recent.set(provider, fresh);
  feeData.catch(() => {
    if (recent.get(provider) === fresh) recent.delete(provider);
  });
  return feeData;
}
