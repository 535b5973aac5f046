import { CosmosTxError } from './cosmos-errors';

/**
 * The devnet's gas meter: fixed, documented costs, so that simulate and deliver charge the same
 * transaction the same gas (what a wallet's "auto" fee relies on). Its magnitudes follow the SDK's
 * defaults (TxSizeCostPerByte 10, SigVerifyCostSecp256k1 1000, a KV write 2000 + 30/byte) without
 * metering each store access:
 *   - 10 per byte of the tx body (the body is byte-identical in simulate and deliver, unlike the
 *     signatures and the fee, which a simulation leaves empty);
 *   - per signer: 1000 to verify its signature and 4000 to read and write its account;
 *   - 6000 to deduct the fee (a grant used or not: simulate does not know the fee yet);
 *   - each message, its handler's cost (cosmos-messages.ts).
 */
export const GAS_COSTS = {
  txBodyBytePerByte: 10,
  signatureVerification: 1000,
  accountReadWrite: 4000,
  feeDeduction: 6000,
} as const;

/** Counts gas up to the tx's limit; over it, the SDK's out-of-gas error. Limit 0 = infinite (simulate). */
export class GasMeter {
  private used = 0n;

  constructor(readonly limit: bigint) {}

  get consumed(): bigint {
    return this.used;
  }

  consume(amount: number | bigint, descriptor: string): void {
    this.used += BigInt(amount);
    if (this.limit > 0n && this.used > this.limit) {
      throw new CosmosTxError(
        'outOfGas',
        `out of gas in location: ${descriptor}; gasWanted: ${this.limit}, gasUsed: ${this.used}`,
      );
    }
  }
}
