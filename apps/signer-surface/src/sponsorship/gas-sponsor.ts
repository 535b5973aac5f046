import type { EntityManager } from 'typeorm';

/**
 * What the signing flow needs from the service's relayers (apps/signer-surface/src/sponsorship): admit
 * a step under the key's budget, send the transaction that carries a user's signature (or the gas
 * a user's own transaction needs), and tell where a sent transaction stands. A port, so the signing
 * code does not depend on how relayer accounts, nonces and the ledger work.
 */
export const GAS_SPONSOR = Symbol('GasSponsor');

export interface GasSponsor {
  /**
   * Throws a 503 CodedError (SPONSORSHIP_BUDGET_EXHAUSTED, SPONSORSHIP_UNAVAILABLE) when the key's
   * daily budget on the chain cannot take `estimatedCostWei` more, or no relayer can pay.
   */
  admit(owner: string, chain: string, estimatedCostWei: bigint): Promise<void>;

  /**
   * Sends `call` from a relayer account and records it in the ledger. Throws a CodedError when the
   * chain refuses it (its gas estimate reverts: TX_REQUEST_INVALID with the reason) or no relayer
   * can pay (503).
   */
  send(call: SponsoredSend): Promise<SponsoredSent>;

  /** Where a sent transaction stands: every hash it went out under (fee bumps replace it). */
  status(id: string): Promise<SponsoredTransactionStatus>;

  /** The transaction already sent for a step and purpose (a submit retried after a crash), if any. */
  findSent(swapId: string, stepIndex: number, purpose: SponsoredPurpose): Promise<SponsoredSent | null>;

  /**
   * Solana: the address of one of the chain's fee payers able to pay `estimatedCostLamports` (fees
   * and rent), to name in a transaction. SPONSORSHIP_UNAVAILABLE when there is none.
   */
  solanaFeePayer(chain: string, estimatedCostLamports: bigint): Promise<string>;

  /** Solana: SPONSORSHIP_BUDGET_EXHAUSTED when the key's daily budget on the chain (lamports) cannot take the cost. */
  admitSolana(owner: string, chain: string, estimatedCostLamports: bigint): Promise<void>;

  /**
   * The signature of `message` by `feePayer` when it is one of the service's Solana fee payers,
   * else null. Ed25519 is deterministic: the same message always gets the same signature.
   */
  signAsSolanaFeePayer(feePayer: string, message: Uint8Array): Uint8Array | null;

  /**
   * Records a co-signed Solana transaction in the sponsorship ledger (pending; the tracker settles
   * it with its fee), inside the caller's database transaction. Answers the ledger row's id.
   */
  recordSolana(manager: EntityManager, transaction: SponsoredSolanaTransaction): Promise<string>;

  /**
   * Bitcoin: holds one UTXO of the chain's fee wallets worth at least `minValueSats` for the step
   * (swapId, stepIndex) until `holdUntilMs`, so no other step spends it; the same step asking again
   * while it holds one gets the same UTXO. SPONSORSHIP_UNAVAILABLE (503) when no fee wallet is
   * configured or none has a free UTXO that large.
   */
  holdBitcoinFeeInput(
    chain: string,
    swapId: string,
    stepIndex: number,
    minValueSats: bigint,
    holdUntilMs: number,
  ): Promise<BitcoinFeeInput>;

  /** Lets the step's hold go (its payload failed or expired); a hold already spent stays. */
  releaseBitcoinFeeInput(chain: string, swapId: string, stepIndex: number): Promise<void>;

  /** Bitcoin: SPONSORSHIP_BUDGET_EXHAUSTED when the key's daily budget on the chain (sats) cannot take the cost. */
  admitBitcoin(owner: string, chain: string, estimatedCostSats: bigint): Promise<void>;

  /**
   * Runs `sign` with the 32-byte private key of fee wallet `address` when it is one of the
   * service's, else null. The key never leaves the callback: its bytes are zeroed after it returns.
   */
  withBitcoinFeeWalletKey<T>(address: string, sign: (privateKey: Uint8Array) => T): T | null;

  /**
   * Records a transaction whose fee input the service signed (ledger row pending, purpose
   * 'bitcoin-transaction'; the hold marked spent by it), inside the caller's database transaction.
   * Answers the ledger row's id. SPONSORSHIP_UNAVAILABLE when the fee input is not held for the
   * step (its hold expired and another step took it): the caller must not broadcast then.
   */
  recordBitcoin(manager: EntityManager, transaction: SponsoredBitcoinTransaction): Promise<string>;
}

/**
 * Why the service pays: a user's gas for their own transaction, a signature to carry, the fee of a
 * Solana transaction it pays as fee payer, or the miner fee of a Bitcoin transaction one of its fee
 * wallets' inputs pays.
 */
export const SPONSORED_PURPOSES = [
  'gas-drop',
  'permit',
  'intent',
  'solana-transaction',
  'bitcoin-transaction',
] as const;
export type SponsoredPurpose = (typeof SPONSORED_PURPOSES)[number];

/** A user's Solana transaction the service's fee payer co-signed, as the ledger records it. */
export interface SponsoredSolanaTransaction {
  chain: string;
  feePayer: string;
  /** The wallet whose transaction it is. */
  wallet: string;
  swapId: string;
  stepIndex: number;
  owner: string;
  /** The fee payer's signature: the transaction id. */
  signature: string;
  /** The fully signed transaction, base64. */
  transaction: string;
  /** Signature fees plus any priority fee, at most. */
  maxFeeLamports: bigint;
  /** Rent of the accounts it may create, paid by the fee payer (an upper bound). */
  rentLamports: bigint;
}

/** A UTXO of one of the service's Bitcoin fee wallets, held for one step. */
export interface BitcoinFeeInput {
  chain: string;
  txid: string;
  vout: number;
  value: bigint;
  /** The fee wallet it belongs to (P2WPKH on the chain's network). */
  address: string;
}

/** A user's Bitcoin transaction whose fee input the service signed, as the ledger records it. */
export interface SponsoredBitcoinTransaction {
  chain: string;
  /** The fee wallet whose input pays the miner fee. */
  feeWallet: string;
  /** The wallet whose transaction it is. */
  wallet: string;
  swapId: string;
  stepIndex: number;
  owner: string;
  txid: string;
  /** The fully signed transaction, hex. */
  rawTx: string;
  /** The whole miner fee (inputs minus outputs), which the fee input pays. */
  feeSats: bigint;
  /** The held UTXO it spends (holdBitcoinFeeInput). */
  feeInput: { txid: string; vout: number };
}

export interface SponsoredSend {
  chain: string;
  to: string;
  data: string;
  value: bigint;
  purpose: SponsoredPurpose;
  swapId: string;
  stepIndex: number;
  /** The API key the swap belongs to (ledger and budget). */
  owner: string;
}

export interface SponsoredSent {
  /** The ledger row. */
  id: string;
  txHash: string;
}

export interface SponsoredTransactionStatus {
  /**
   * pending (the relayers still follow it: resend, fee-bump, re-issue), confirmed, failed (mined,
   * reverted), or one of the ends where it will never carry the step: dropped (its nonce was taken
   * and it could not be sent again), cancelled (not mined under its fee ceiling: a zero-value
   * replacement took its nonce), lost (recorded as mined, then its receipt was gone: a reorg or a
   * chain reset). Those three come with `failure`.
   */
  state: 'pending' | 'confirmed' | 'failed' | 'dropped' | 'cancelled' | 'lost';
  /** Every hash the transaction was sent under, the newest last. */
  hashes: string[];
  /** The mined one, once mined. */
  minedHash: string | null;
  /** Why it will never carry the step (dropped, cancelled, lost); null otherwise. */
  failure: SponsoredFailure | null;
}

/**
 * A stable code (a `signing.step-failed` code, see StepFailureCodes) and a sentence for the step
 * that a sponsored transaction was meant to carry.
 */
export interface SponsoredFailure {
  code: 'RELAY_DROPPED' | 'RELAY_FEE_CEILING' | 'RELAY_LOST';
  reason: string;
}
