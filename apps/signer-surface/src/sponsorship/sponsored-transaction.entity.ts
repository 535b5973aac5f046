import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber, msColumn } from '@swapgw/persistence';
import { weiColumn } from './wei-column';
import { SPONSOR_PURPOSES } from '@swapgw/contracts';
import { SPONSORED_PURPOSES, SponsoredPurpose } from './gas-sponsor';

/**
 * What a sponsored transaction carries (the signing flow's list: its GasSponsor port names what it
 * asks the relayers for); bounded, as it labels metrics. `solana-transaction`: a user's Solana
 * transaction whose fee payer is the service's; `bitcoin-transaction`: a user's Bitcoin transaction
 * whose fee input a service fee wallet signed (see the entity).
 */
export { SPONSORED_PURPOSES };
export type { SponsoredPurpose };

/**
 * What the ledger records: the signing flow's purposes, and each family's sponsors' own transactions
 * (FAMILY_SPONSORSHIP's `sponsorPurposes`): `nonce-fill`, a zero-value self-transfer the relayers
 * send at a nonce the chain is missing under one of their pending transactions (the operator's cost:
 * no swap, step or owner), `bitcoin-fee-bump`, a fee wallet's child of a stuck sponsored Bitcoin
 * transaction (CPFP; see families/bitcoin/bitcoin-fee-bump.ts), counted in the budget of the swap's
 * owner, and `cosmos-fee-grant`, a Cosmos fee granter's grant of an x/feegrant allowance to a wallet
 * before its step (families/cosmos), counted in the budget of the owner of the swap whose step asked
 * for it.
 */
export const LEDGER_PURPOSES = [...SPONSORED_PURPOSES, ...SPONSOR_PURPOSES] as const;
export type LedgerPurpose = (typeof LEDGER_PURPOSES)[number];

/**
 * pending → confirmed (receipt status 1) | failed (receipt status 0: mined, reverted, gas paid) |
 * dropped (the nonce was used by a transaction that is none of this row's attempts, and it could
 * not be sent again: nothing paid) | cancelled (not mined under its fee ceiling: a zero-value
 * self-transfer took the nonce, its gas paid). confirmed | failed → lost (the receipt is gone: a
 * reorg or a chain reset took the block; nothing is counted as paid, since the chain no longer has
 * the payment either). dropped, cancelled and lost carry `failureCode` and `failureReason`.
 */
export const SPONSORED_TRANSACTION_STATUSES = [
  'pending',
  'confirmed',
  'failed',
  'dropped',
  'cancelled',
  'lost',
] as const;
export type SponsoredTransactionStatus = (typeof SPONSORED_TRANSACTION_STATUSES)[number];

/**
 * One signed and (meant to be) broadcast version of the transaction. Amounts in wei, as strings.
 * `cancel`: a zero-value self-transfer at the row's nonce with 21,000 gas, sent to take the nonce
 * from a transaction that cannot be mined under its fee ceiling. `nonce`: the nonce it was signed
 * with, when it differs from the row's (a row re-issued at a new nonce keeps its older attempts).
 * Re-signing an attempt needs only these fields (attemptTransaction).
 */
export interface RelayAttempt {
  hash: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  sentAtMs: number;
  cancel?: boolean;
  nonce?: number;
  /**
   * The chain's head when it was sent (a replacement), or when the tracker first found it stuck:
   * it is replaced only once a block past this one was mined without it (a chain producing no
   * blocks is not a fee problem).
   */
  sentAtBlock?: number;
  /** A Bitcoin fee bump's child: the fee it pays, sats (what the row costs once this one is mined). */
  feeSats?: string;
}

/**
 * The sponsorship ledger: one row per transaction the relayers send (one nonce of one relayer),
 * with every attempt at it (replacements share the nonce) and, once mined, what it cost.
 *
 * A Solana row (`purpose` solana-transaction) is a user's transaction the service's fee payer
 * co-signed; amounts are lamports and the EVM columns read as: `relayer` the fee payer, `nonce`
 * null (Solana has none; the database requires it on every other purpose), `to` the user's wallet,
 * `data` the fully signed transaction (base64), `txHash` the fee payer's signature (the id; one
 * attempt, never replaced), `gasLimit` the most its fees can be (signatures × base fee + priority
 * fee), `maxFeePerGas` 1 and `maxPriorityFeePerGas` 0 (so the budget's pending cap, gasLimit ×
 * maxFeePerGas + value, is in lamports too), `value` the rent of accounts it may create. Once
 * settled: `gasUsed` the fee charged (getTransaction meta.fee), `effectiveGasPrice` 1, `costWei`
 * what the fee payer's balance lost (fee and rent), `blockNumber` the slot.
 *
 * A Bitcoin row (`purpose` bitcoin-transaction) is a user's transaction one of whose inputs, a UTXO
 * of a service fee wallet, pays the whole miner fee; amounts are sats: `relayer` the fee wallet,
 * `nonce` null, `to` the user's wallet, `data` the fully signed transaction (hex), `txHash` its txid
 * (one attempt, never replaced), `gasLimit` the fee, `maxFeePerGas` 1, `maxPriorityFeePerGas` 0,
 * `value` 0. Once confirmed: `gasUsed` and `costWei` the fee, `effectiveGasPrice` 1.
 *
 * A Cosmos row is in base units of the chain's fee denom (uatom...), `nonce` null: `cosmos-transaction`
 * a user's transaction whose fee the service's fee granter pays (x/feegrant): `relayer` the granter,
 * `to` the user's wallet, `data` the signed TxRaw (base64), `txHash` its hash, `gasLimit` its fee
 * (the whole gas limit at the minimum gas price: the chain charges the fee named, used or not);
 * `cosmos-fee-grant` the granter's own MsgGrantAllowance (and revoke) transaction, `to` the grantee,
 * `gasLimit` its fee. `maxFeePerGas` 1, `value` 0. Once in a block (confirmed, or failed: its fee is
 * charged all the same): `gasUsed` and `costWei` the fee, `effectiveGasPrice` 1.
 *
 * A Bitcoin fee bump row (`purpose` bitcoin-fee-bump) is the fee wallet's child of a stuck
 * bitcoin-transaction row (CPFP), in sats: `relayer` and `to` the fee wallet (it pays itself back),
 * `data` the signed child (hex) of the current attempt, `attempts` the child and each replacement
 * of it (RBF) with its `feeSats`, `txHash` the current one, `gasLimit` the most any attempt may pay
 * (BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE over the package, less the parent's fee: what the budget
 * holds while pending), `maxFeePerGas` 1, `value` 0. Once confirmed: `gasUsed` and `costWei` the
 * mined attempt's fee.
 */
@Entity({ name: 'sponsored_transactions' })
export class SponsoredTransactionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  chain!: string;

  /** Address of the relayer account that sends it. */
  @Column({ type: 'text' })
  relayer!: string;

  /** Null on Solana and Bitcoin rows only. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  nonce!: number | null;

  @Column({ type: 'text' })
  purpose!: LedgerPurpose;

  /** Null on nonce-fill rows only (as are stepIndex and owner). */
  @Column({ name: 'swap_id', type: 'text', nullable: true })
  swapId!: string | null;

  @Column({ name: 'step_index', type: 'int', nullable: true })
  stepIndex!: number | null;

  /** The API key id whose budget pays. */
  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  @Column({ name: 'to', type: 'text' })
  to!: string;

  @Column({ type: 'text' })
  data!: string;

  @Column(weiColumn('value'))
  value!: bigint;

  @Column(weiColumn('gas_limit'))
  gasLimit!: bigint;

  /** The hash of the latest attempt broadcast; once mined, the hash that was mined. */
  @Column({ name: 'tx_hash', type: 'text' })
  txHash!: string;

  /** Every attempt, oldest first, including one whose broadcast may not have happened. */
  @Column({ type: 'jsonb' })
  attempts!: RelayAttempt[];

  /** Fees of the attempt in `txHash`. */
  @Column(weiColumn('max_fee_per_gas'))
  maxFeePerGas!: bigint;

  @Column(weiColumn('max_priority_fee_per_gas'))
  maxPriorityFeePerGas!: bigint;

  @Column({ type: 'text' })
  status!: SponsoredTransactionStatus;

  @Column(weiColumn('gas_used', true))
  gasUsed!: bigint | null;

  @Column(weiColumn('effective_gas_price', true))
  effectiveGasPrice!: bigint | null;

  /** gasUsed × effectiveGasPrice + value moved (value only when it succeeded); 0 when dropped. */
  @Column(weiColumn('cost_wei', true))
  costWei!: bigint | null;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  blockNumber!: number | null;

  /** Timestamp of the block that mined it. */
  @Column(msColumn('mined_at_ms', true))
  minedAtMs!: number | null;

  /**
   * The most `maxFeePerGas` any attempt may carry (RELAYER_FEE_CEILING_*): fee bumps stop below
   * it, a cancel goes at it. Null on Solana and Bitcoin rows (never replaced).
   */
  @Column(weiColumn('max_fee_ceiling', true))
  maxFeeCeiling!: bigint | null;

  /** A stable code (RELAY_DROPPED, RELAY_FEE_CEILING, RELAY_LOST) when dropped, cancelled or lost. */
  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  /** When the latest attempt was sent: the row is stuck RELAYER_STUCK_AFTER_MS after it. */
  @Column(msColumn('last_sent_at_ms'))
  lastSentAtMs!: number;

  /** When the tracker looks at the row again (also its lease while one instance looks). */
  @Column(msColumn('next_check_at_ms', true))
  nextCheckAtMs!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
