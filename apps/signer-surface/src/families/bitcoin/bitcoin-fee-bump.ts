import { Clock } from '@swapgw/runtime';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { hex } from '@scure/base';
import {
  BITCOIN_TX_OPTIONS,
  type BitcoinChainClient,
  dustThreshold,
  estimateBitcoinWeight,
  feeRateFor,
  RBF_SEQUENCE,
} from '@swapgw/chains/families';
import { DataSource } from 'typeorm';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { bitcoinFeeWalletVariablesOf } from './bitcoin-fee-wallet-config';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { RELAYING_DATA_SOURCE } from '../../sponsorship/relaying-database';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import {
  SponsoredTransactionEntity,
  type SponsoredTransactionStatus,
} from '../../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';

/** BITCOIN_STUCK_AFTER_MS, BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE, BITCOIN_FEE_BUMP_MARGIN_PERCENT. */
/** When and how far a stuck Bitcoin transaction is fee-bumped, from the validated config. */
@Injectable()
export class BitcoinFeeBumpPolicy {
  readonly stuckAfterMs: number;
  /** Sat/vB: the most the package (transaction and child) ever pays. */
  readonly maxFeeRate: number;
  readonly marginPercent: number;

  constructor(config: SignerSurfaceConfig) {
    const variables = bitcoinFeeWalletVariablesOf(config);
    this.stuckAfterMs = variables.BITCOIN_STUCK_AFTER_MS;
    this.maxFeeRate = variables.BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE;
    this.marginPercent = variables.BITCOIN_FEE_BUMP_MARGIN_PERCENT;
  }
}

/** The fee estimate a bump aims at: the next block. */
export const FEE_BUMP_TARGET_BLOCKS = 1;
/** Bitcoin Core's minimum relay fee and incremental relay fee (what a replacement adds), sat/vB. */
const MIN_RELAY_SATS_PER_VBYTE = 1;
const INCREMENTAL_RELAY_SATS_PER_VBYTE = 1;

/** What the arithmetic needs of a stuck transaction and the child that would pay for it. */
export interface CpfpFeeInput {
  parentFeeSats: bigint;
  parentVsize: number;
  /** The child's vsize once signed (an upper bound: estimateBitcoinWeight). */
  childVsize: number;
  /** The fee wallet's change in the parent: what the child spends. */
  changeSats: bigint;
  /** Below this the child's output would be dust (never relayed). */
  dustSats: bigint;
  /** The next-block fee estimate now, sat/vB. */
  estimate: number;
  policy: Pick<BitcoinFeeBumpPolicy, 'maxFeeRate' | 'marginPercent'>;
  /** The fee of the child in the mempool, when this would replace it. */
  currentChildFeeSats?: bigint;
}

export type CpfpFeeDecision =
  /** The package already pays the estimate: what holds it is not its fee. */
  | { kind: 'not-needed'; packageRate: number }
  | { kind: 'bump'; childFeeSats: bigint; packageRate: number; ceilingFeeSats: bigint }
  | { kind: 'held'; reason: string };

const ceilSats = (rate: number, vsize: number): bigint => BigInt(Math.ceil(rate * vsize));

/**
 * The fee of a CPFP child (or of its replacement). The package (parent and child) is aimed at
 * `estimate × (100 + marginPercent) / 100` sat/vB, capped at `maxFeeRate`: the child pays
 * `ceil(rate × (parentVsize + childVsize)) − parentFee`, and at least 1 sat/vB of its own size (the
 * minimum relay fee). A replacement pays at least the child it replaces plus 1 sat/vB of its size
 * (BIP125's incremental relay fee). Held when that passes the ceiling's fee, or when the change
 * less the fee would be dust; not needed when the package already pays the estimate.
 */
export function cpfpChildFee(input: CpfpFeeInput): CpfpFeeDecision {
  const { parentFeeSats, parentVsize, childVsize, currentChildFeeSats: current } = input;
  const paid = parentFeeSats + (current ?? 0n);
  const currentRate = Number(paid) / (parentVsize + (current === undefined ? 0 : childVsize));
  if (currentRate >= input.estimate) return { kind: 'not-needed', packageRate: currentRate };
  const packageVsize = parentVsize + childVsize;
  const aimed = Math.min(input.estimate * (1 + input.policy.marginPercent / 100), input.policy.maxFeeRate);
  const ceilingFeeSats = ceilSats(input.policy.maxFeeRate, packageVsize) - parentFeeSats;
  let childFeeSats = ceilSats(aimed, packageVsize) - parentFeeSats;
  const floor =
    current === undefined
      ? ceilSats(MIN_RELAY_SATS_PER_VBYTE, childVsize)
      : current + ceilSats(INCREMENTAL_RELAY_SATS_PER_VBYTE, childVsize);
  if (childFeeSats < floor) childFeeSats = floor;
  if (childFeeSats > ceilingFeeSats)
    return {
      kind: 'held',
      reason: `at its ceiling: a child paying ${childFeeSats} sats would take the package past ${input.policy.maxFeeRate} sat/vB`,
    };
  if (input.changeSats - childFeeSats < input.dustSats)
    return {
      kind: 'held',
      reason: `the fee wallet's change of ${input.changeSats} sats cannot pay a child fee of ${childFeeSats} sats above dust`,
    };
  return {
    kind: 'bump',
    childFeeSats,
    packageRate: Number(parentFeeSats + childFeeSats) / packageVsize,
    ceilingFeeSats,
  };
}

/** An input of a transaction spent by another: it can never be mined. */
export interface ConflictingSpend {
  outpoint: string;
  spender: string;
}

/**
 * The first input of `rawTxHex` that a transaction other than `txid` spends, null when none is (or
 * the transaction does not decode, or the API does not know an input's transaction: nothing proves
 * a conflict then). An unreachable API throws, for the caller to retry.
 */
export async function conflictingSpendOf(
  client: BitcoinChainClient,
  rawTxHex: string,
  txid: string,
): Promise<ConflictingSpend | null> {
  let tx: btc.Transaction;
  try {
    tx = btc.Transaction.fromRaw(hex.decode(rawTxHex), BITCOIN_TX_OPTIONS);
  } catch {
    return null;
  }
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    if (!input.txid || input.index === undefined) continue;
    const previous = hex.encode(input.txid);
    let spender: string | null;
    try {
      spender = await client.spenderOf(previous, input.index);
    } catch (error) {
      if (client.isUnreachable(error)) throw error;
      continue;
    }
    if (spender !== null && spender !== txid) return { outpoint: `${previous}:${input.index}`, spender };
  }
  return null;
}

/** How a bump row ends, for the tracker to write (settle). */
export type FeeBumpSettlement = {
  status: Exclude<SponsoredTransactionStatus, 'pending'>;
  outcome: Partial<SponsoredTransactionEntity> & { costWei: bigint };
};

/**
 * Fee bumps of stuck sponsored Bitcoin transactions. The user signed the step's transaction with
 * SIGHASH_ALL, so the service cannot re-sign it with a higher fee; but its last output is the fee
 * wallet's change, which the fee wallet may spend at once: a child paying enough lifts the package
 * (child pays for parent, CPFP) past the next-block estimate (cpfpChildFee). The child pays the fee
 * wallet back, signals BIP125, and is replaced by one paying more while the parent is still stuck,
 * up to BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE. It is the ledger's `bitcoin-fee-bump` row of the
 * step (its owner's budget counts it), written before each broadcast so a child that may be mined
 * is always one the ledger knows; the relayed-transaction tracker follows it (follow).
 */
@Injectable()
export class BitcoinFeeBumps {
  private readonly logger = new Logger(BitcoinFeeBumps.name);
  /** When a held parent was last reported, by txid: once per stuck interval, not every poll. */
  private readonly heldReportedAtMs = new Map<string, number>();
  constructor(
    @Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly ledger: SponsoredTransactionsRepository,
    private readonly feeAccounts: FeeAccountLedger,
    private readonly feeWallets: BitcoinFeeWallets,
    readonly policy: BitcoinFeeBumpPolicy,
    private readonly clock: Clock,
  ) {}

  /** Whether a `bitcoin-transaction` row still in the mempool has waited long enough to be bumped. */
  isStuck(parent: SponsoredTransactionEntity): boolean {
    return this.clock.nowMs() - parent.lastSentAtMs >= this.policy.stuckAfterMs;
  }

  /**
   * A stuck `bitcoin-transaction` row, in the mempool: its first child, or a replacement of the
   * child once that has waited BITCOIN_STUCK_AFTER_MS too, when the package pays under the
   * next-block estimate. Nothing when its last output is not its fee wallet's (nothing of the
   * service's to spend), or the fee wallet's key is gone.
   */
  async bumpIfStuck(parent: SponsoredTransactionEntity): Promise<void> {
    const client = this.feeWallets.clientOf(parent.chain);
    if (!client) return;
    const parentTx = btc.Transaction.fromRaw(hex.decode(parent.data), BITCOIN_TX_OPTIONS);
    const vout = parentTx.outputsLength - 1;
    const { script: changeScript, amount: changeSats } = parentTx.getOutput(vout);
    const feeWalletScript = this.feeWalletScriptOf(parent.chain, parent.relayer);
    if (
      !feeWalletScript ||
      !changeScript ||
      changeSats === undefined ||
      hex.encode(changeScript) !== hex.encode(feeWalletScript)
    ) {
      this.reportHeld(parent, 'its last output is not the change of one of the service fee wallets');
      return;
    }
    const step = stepOf(parent);
    const child = await this.pendingChildOf(parent, step);
    if (child && this.clock.nowMs() - child.lastSentAtMs < this.policy.stuckAfterMs) return;
    const current = child ? currentFeeOf(child) : undefined;
    const childVsize = Math.ceil(estimateBitcoinWeight(['p2wpkh'], [feeWalletScript]) / 4);
    const estimate = feeRateFor(await client.feeRates(), FEE_BUMP_TARGET_BLOCKS);
    const decision = cpfpChildFee({
      parentFeeSats: parent.gasLimit,
      parentVsize: parentTx.vsize,
      childVsize,
      changeSats,
      dustSats: dustThreshold(feeWalletScript),
      estimate,
      policy: this.policy,
      currentChildFeeSats: current,
    });
    if (decision.kind === 'not-needed') return;
    if (decision.kind === 'held') return this.reportHeld(parent, decision.reason);

    const signed = this.feeWallets.withKey(parent.relayer, (key) => {
      const tx = new btc.Transaction({ version: 2 });
      tx.addInput({
        txid: parentTx.id,
        index: vout,
        witnessUtxo: { script: feeWalletScript, amount: changeSats },
        sequence: RBF_SEQUENCE,
      });
      tx.addOutput({ script: feeWalletScript, amount: changeSats - decision.childFeeSats });
      tx.signIdx(key, 0, [btc.SigHash.ALL]);
      tx.finalize();
      return { txid: tx.id, rawTxHex: hex.encode(tx.extract()) };
    });
    if (!signed)
      return this.reportHeld(parent, `the key of fee wallet ${parent.relayer} is no longer configured`);

    if (child) await this.recordReplacement(child, signed, decision.childFeeSats);
    else
      await this.dataSource.transaction((manager) =>
        this.feeAccounts.record(
          manager,
          {
            chain: parent.chain,
            purpose: 'bitcoin-fee-bump',
            account: parent.relayer,
            ...step,
            to: parent.relayer,
            data: signed.rawTxHex,
            maxFee: decision.ceilingFeeSats,
            value: 0n,
            txHash: signed.txid,
            attemptFee: decision.childFeeSats,
          },
          this.clock.nowMs(),
        ),
      );
    RelayingMetrics.bitcoinFeeBump(parent.chain, child ? 'replaced' : 'child');
    const outcome = await client.broadcast(signed.rawTxHex);
    this.logger[outcome.kind === 'sent' || outcome.kind === 'already-known' ? 'log' : 'warn']({
      msg: child ? 'Bitcoin fee bump child replaced (RBF)' : 'Bitcoin fee bump child sent (CPFP)',
      chain: parent.chain,
      swapId: parent.swapId,
      stepIndex: parent.stepIndex,
      parentTxid: parent.txHash,
      childTxid: signed.txid,
      childFeeSats: decision.childFeeSats.toString(),
      packageSatsPerVbyte: decision.packageRate.toFixed(2),
      estimateSatsPerVbyte: estimate,
      broadcast: outcome.kind,
      ...('message' in outcome ? { error: outcome.message } : {}),
    });
  }

  /**
   * Where a `bitcoin-fee-bump` row stands: settled confirmed at the fee of its attempt in a block;
   * dropped (nothing paid) when another transaction spent the change it spends, or when its parent
   * is gone and the parent's row no longer pending; sent again when the node lost every attempt while
   * its parent is still there. Null: still pending.
   */
  async follow(row: SponsoredTransactionEntity): Promise<FeeBumpSettlement | null> {
    const client = this.feeWallets.clientOf(row.chain);
    if (!client) return null;
    for (const attempt of [...row.attempts].reverse()) {
      const progress = await client.progress(attempt.hash, 1);
      if (progress.kind === 'confirmed' || progress.kind === 'included') {
        const fee = BigInt(attempt.feeSats ?? row.gasLimit.toString());
        return {
          status: 'confirmed',
          outcome: {
            txHash: attempt.hash,
            gasUsed: fee,
            effectiveGasPrice: 1n,
            costWei: fee,
            blockNumber: progress.blockNumber,
            minedAtMs: (progress.kind === 'confirmed' ? progress.blockTimeMs : null) ?? this.clock.nowMs(),
          },
        };
      }
      if (progress.kind === 'in-pool') return null;
    }
    const change = parentChangeOf(row.data);
    const parentTxid = change.txid;
    const parentProgress = await client.progress(parentTxid, 1);
    if (parentProgress.kind === 'unknown') {
      const parent = await this.ledger.bitcoinTransactionOf(row.chain, parentTxid);
      if (parent && parent.status === 'pending') return null;
      return dropped(
        `the transaction it paid for, ${parentTxid}, is gone (${parent?.status ?? 'not in the ledger'})`,
      );
    }
    const spender = await client.spenderOf(parentTxid, change.vout);
    if (spender !== null && !row.attempts.some((a) => a.hash === spender))
      return dropped(`the change ${parentTxid}:${change.vout} it spends was spent by transaction ${spender}`);
    if (spender === null) {
      const outcome = await client.broadcast(row.data);
      RelayingMetrics.healed(row.chain, 'resent');
      this.logger.warn({
        msg: 'Bitcoin fee bump child lost by the node; sent again',
        chain: row.chain,
        txid: row.txHash,
        broadcast: outcome.kind,
      });
    }
    return null;
  }

  /** The pending fee-bump row of `parent`'s step whose child spends `parent`'s change, if any. */
  private async pendingChildOf(
    parent: SponsoredTransactionEntity,
    step: SponsoredStep,
  ): Promise<SponsoredTransactionEntity | null> {
    const rows = await this.ledger.pendingFeeBumpsOf(parent.chain, step.swapId, step.stepIndex);
    return rows.find((row) => parentChangeOf(row.data).txid === parent.txHash) ?? null;
  }

  /** The replacement as the row's new current attempt, written before it is broadcast. */
  private async recordReplacement(
    child: SponsoredTransactionEntity,
    signed: { txid: string; rawTxHex: string },
    feeSats: bigint,
  ): Promise<void> {
    const nowMs = this.clock.nowMs();
    await this.ledger.update(child.id, {
      data: signed.rawTxHex,
      txHash: signed.txid,
      attempts: [
        ...child.attempts,
        {
          hash: signed.txid,
          maxFeePerGas: '1',
          maxPriorityFeePerGas: '0',
          sentAtMs: nowMs,
          feeSats: feeSats.toString(),
        },
      ],
      lastSentAtMs: nowMs,
      nextCheckAtMs: nowMs,
    });
  }

  private feeWalletScriptOf(chain: string, address: string): Uint8Array | null {
    if (!this.feeWallets.addresses(chain).includes(address)) return null;
    return this.feeWallets.withKey(address, (key) => btc.p2wpkh(secp256k1.getPublicKey(key, true)).script);
  }

  private reportHeld(parent: SponsoredTransactionEntity, reason: string): void {
    const last = this.heldReportedAtMs.get(parent.txHash);
    if (last !== undefined && this.clock.nowMs() - last < this.policy.stuckAfterMs) return;
    this.heldReportedAtMs.set(parent.txHash, this.clock.nowMs());
    RelayingMetrics.bitcoinFeeBump(parent.chain, 'held');
    this.logger.warn({
      msg: 'stuck sponsored Bitcoin transaction not bumped',
      chain: parent.chain,
      swapId: parent.swapId,
      stepIndex: parent.stepIndex,
      txid: parent.txHash,
      feeWallet: parent.relayer,
      reason,
    });
  }
}

/** Who a `bitcoin-transaction` row is for: the swap step and its owner (only nonce-fill rows have none). */
type SponsoredStep = { swapId: string; stepIndex: number; owner: string };

function stepOf(row: SponsoredTransactionEntity): SponsoredStep {
  if (row.swapId === null || row.stepIndex === null || row.owner === null)
    throw new Error(`sponsored transaction ${row.id} (${row.purpose}) names no swap step`);
  return { swapId: row.swapId, stepIndex: row.stepIndex, owner: row.owner };
}

/** The outpoint a fee-bump child spends, from its signed transaction: its parent's change (its only input). */
function parentChangeOf(childRawTxHex: string): { txid: string; vout: number } {
  const input = btc.Transaction.fromRaw(hex.decode(childRawTxHex), BITCOIN_TX_OPTIONS).getInput(0);
  if (!input.txid || input.index === undefined) throw new Error('the fee bump child has no outpoint');
  return { txid: hex.encode(input.txid), vout: input.index };
}

function currentFeeOf(child: SponsoredTransactionEntity): bigint {
  const current = child.attempts[child.attempts.length - 1];
  return BigInt(current?.feeSats ?? child.gasLimit.toString());
}

function dropped(reason: string): FeeBumpSettlement {
  return { status: 'dropped', outcome: { costWei: 0n, failureCode: 'RELAY_DROPPED', failureReason: reason } };
}
