import { Inject, Injectable, Logger } from '@nestjs/common';
import { JsonRpcProvider } from 'ethers';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '@swapgw/runtime';
import { SignerChains } from '../../chains/signer-chains';
import { isRpcUnreachable, relayedGasLimit, revertReasonOf, shortMessageOf } from '@swapgw/chains';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { broadcastFailureOf } from './broadcast-errors';
import { callShareOf, Eip1559Fees, feeCeilingOf, feesAsStrings, maxCostOf } from './fee-bump';
import {
  DEFAULT_RECONCILE_POLICY,
  NonceReconciler,
  ReconcilePolicy,
  RelayerUnderLock,
} from './nonce-reconciler';
import { CANCEL_GAS_LIMIT } from '../../sponsorship/relayed-attempts';
import { RelayerAccountsRepository } from '../../sponsorship/relayer-accounts.repository';
import { RelayerPool, isEnough } from './relayer-pool';
import { RELAYING_DATA_SOURCE } from '../../sponsorship/relaying-database';
import {
  chainUnreachable,
  sponsoredCallRefused,
  sponsorshipUnavailable,
} from '../../sponsorship/relaying-errors';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { signTransaction } from './signed-transaction';
import type { SponsoredSend } from '../../sponsorship/gas-sponsor';
import { parseWeiByChain, WeiByChain } from '../../sponsorship/wei-settings';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { relayerVariablesOf } from './relayer-config';
import {
  SPONSORED_PURPOSES,
  SponsoredTransactionEntity,
} from '../../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';

/**
 * A transaction for the relayers to send and pay for: the signing flow's SponsoredSend (`value` is
 * counted in its cost: a gas drop), with an optional gas limit (default: relayedGasLimit of the
 * node's estimate).
 */
export interface RelayedCall extends SponsoredSend {
  gasLimit?: bigint;
  /** The most one transaction may cost under the owner's budget: bounds its fee ceiling. */
  maxCostWei?: bigint;
}

export interface RelayedSend {
  /** The ledger row (sponsored_transactions.id). */
  id: string;
  txHash: string;
  relayer: string;
  nonce: number;
}

/** RELAYER_MAX_FEE_PER_GAS_WEI unset: no absolute cap (the largest uint256). */
const NO_FEE_CAP = 2n ** 256n - 1n;

/** How the relayers size and price what they send, from the validated config. */
@Injectable()
export class RelayersPolicy {
  /** gasLimit = eth_estimateGas × this / 100 + gasLimitExtra (GAS_LIMIT_PERCENT). */
  readonly gasLimitPercent: number;
  /** Gas added after the percentage (RELAYER_GAS_EXTRA): see relayedGasLimit. */
  readonly gasLimitExtra: number;
  /** Sends retried when the nonce or the account turns out to be taken or short of funds. */
  readonly maxAttempts?: number;
  /** RELAYER_FEE_CEILING_PERCENT: a transaction's fee cap never rises above this % of its first. */
  readonly feeCeilingPercent: number;
  /** RELAYER_MAX_FEE_PER_GAS_WEI: a fee cap per chain no transaction's attempts rise above. */
  readonly maxFeePerGas: WeiByChain;
  readonly reconcile?: ReconcilePolicy;

  /** Throws only on a config that did not go through loadConfig (which runs the same parser). */
  constructor(config: SignerSurfaceConfig) {
    const variables = relayerVariablesOf(config);
    this.gasLimitPercent = config.GAS_LIMIT_PERCENT;
    this.gasLimitExtra = variables.RELAYER_GAS_EXTRA;
    this.feeCeilingPercent = variables.RELAYER_FEE_CEILING_PERCENT;
    const maxFeePerGas =
      variables.RELAYER_MAX_FEE_PER_GAS_WEI === undefined
        ? { ok: true as const, value: new WeiByChain(NO_FEE_CAP) }
        : parseWeiByChain(variables.RELAYER_MAX_FEE_PER_GAS_WEI, 'RELAYER_MAX_FEE_PER_GAS_WEI', NO_FEE_CAP);
    if (!maxFeePerGas.ok) throw new Error(maxFeePerGas.problem);
    this.maxFeePerGas = maxFeePerGas.value;
  }
}

/** What re-issuing a transaction whose nonce was taken came to. */
export type ReissueOutcome =
  | { kind: 'reissued'; nonce: number; txHash: string }
  /** Not now (the account is busy, the node unreachable, the nonce raced): the tracker tries again. */
  | { kind: 'later'; why: string }
  /** The node refuses the call itself: it cannot be sent again. */
  | { kind: 'refused'; why: string };

/** Raised inside the send transaction to roll it back and try again with a fresh account or nonce. */
class TryAgain extends Error {}

/** Raised inside the send transaction: the account's ledger and its chain disagree; reconcile, then try again. */
class Diverged extends TryAgain {
  constructor(readonly address: string) {
    super(`the nonce ledger of ${address} differs from the chain`);
  }
}

/**
 * The service's relayer accounts sending transactions on users' behalf. One send is one database
 * transaction: lock one of the chain's relayer rows (FOR UPDATE SKIP LOCKED, so instances use
 * different accounts side by side; when all are taken, wait for one), check its next nonce against
 * the node's pending count, sign, write the ledger row (with its fee ceiling), advance the row,
 * broadcast, commit. A broadcast the node refuses rolls it all back, so no nonce is skipped. When
 * the ledger and the chain disagree (a crash after a broadcast and before its commit, a chain reset,
 * a transaction the node dropped, another sender on the key), the account is reconciled first
 * (NonceReconciler) in a transaction of its own, and the send tried again.
 */
@Injectable()
export class Relayers {
  private readonly logger = new Logger(Relayers.name);
  /** Chains whose relayer rows this process has made sure exist. */
  private readonly accountsReady = new Map<string, Promise<void>>();
  private readonly reconciler: NonceReconciler;

  constructor(
    @Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly accounts: RelayerAccountsRepository,
    private readonly transactions: SponsoredTransactionsRepository,
    private readonly chains: SignerChains,
    private readonly pool: RelayerPool,
    private readonly policy: RelayersPolicy,
    private readonly clock: Clock,
  ) {
    this.reconciler = new NonceReconciler(
      this.accounts,
      this.transactions,
      (manager, relayer, nonce) => this.sendNonceFill(manager, relayer, nonce),
      policy.reconcile ?? DEFAULT_RECONCILE_POLICY,
      clock,
    );
  }

  /**
   * Throws SPONSORSHIP_UNAVAILABLE when no relayer of the chain can pay `costWei` now (none
   * configured, no RPC, all under the minimum balance); balances are read fresh when none passes.
   */
  async assertCanPay(chain: string, costWei: bigint): Promise<void> {
    this.surfaceOf(chain);
    if (this.pool.payers(chain, costWei).length > 0) return;
    await this.pool.refreshBalances([chain]);
    if (this.pool.payers(chain, costWei).length === 0) throw this.noPayer(chain, costWei);
  }

  /** Sends `call` from one of the chain's relayers and records it in the ledger (status pending). */
  async send(call: RelayedCall): Promise<RelayedSend> {
    if (!SPONSORED_PURPOSES.includes(call.purpose)) {
      throw new Error(`unknown sponsored purpose ${String(call.purpose)}`);
    }
    if (call.value < 0n) throw new Error('a sponsored transaction cannot move a negative value');
    const { provider, evmChainId } = this.surfaceOf(call.chain);
    await this.ensureAccounts(call.chain);
    const gasLimit = call.gasLimit ?? (await this.estimateGas(provider, call));
    const fees = await this.suggestedFees(provider, call.chain);
    const costWei = maxCostOf(gasLimit, fees.maxFeePerGas, call.value);

    const attempts = this.policy.maxAttempts ?? 4;
    // Accounts this send reconciled: their ledger is the truth now, even if the node's pending
    // count lags behind it (an RPC behind a load balancer answers from a node that has not seen
    // the latest broadcast).
    const reconciled = new Set<string>();
    for (let attempt = 1; ; attempt++) {
      await this.assertCanPay(call.chain, costWei);
      try {
        return await this.dataSource.transaction((manager) =>
          this.sendUnderLock(manager, provider, evmChainId, call, gasLimit, fees, costWei, reconciled),
        );
      } catch (error) {
        if (!(error instanceof TryAgain)) throw error;
        if (error instanceof Diverged) {
          await this.reconcileAccount(call.chain, error.address, false);
          reconciled.add(error.address);
        }
        if (attempt >= attempts) throw sponsorshipUnavailable(call.chain, error.message);
        this.logger.warn({ msg: 'sponsored send retried', chain: call.chain, attempt, why: error.message });
      }
    }
  }

  private async sendUnderLock(
    manager: EntityManager,
    provider: JsonRpcProvider,
    evmChainId: bigint,
    call: RelayedCall,
    gasLimit: bigint,
    fees: Eip1559Fees,
    costWei: bigint,
    reconciled: ReadonlySet<string>,
  ): Promise<RelayedSend> {
    const account = await this.accounts.lockLeastUsed(
      manager,
      call.chain,
      this.pool.payers(call.chain, costWei),
    );
    if (!account) throw new TryAgain(`no relayer of ${call.chain} can pay ${costWei} wei`);
    const { address } = account;
    const wallet = this.pool.wallet(call.chain, address);
    // It came from the pool's own list of addresses.
    if (!wallet) throw new Error(`locked relayer ${address} of ${call.chain} has no key`);
    const balance = await this.rpc(call.chain, () => provider.getBalance(address));
    this.pool.noteBalance(call.chain, address, balance);
    if (!isEnough(balance, this.pool.minBalanceOf(call.chain), costWei)) {
      throw new TryAgain(`relayer ${address} is under its minimum balance`);
    }

    const pendingNonce = await this.rpc(call.chain, () => provider.getTransactionCount(address, 'pending'));
    const ledgerNonce = Number(account.next_nonce);
    if (ledgerNonce !== pendingNonce && !reconciled.has(address)) throw new Diverged(address);
    const nonce = Math.max(ledgerNonce, pendingNonce);
    const maxFeeCeiling = feeCeilingOf(fees.maxFeePerGas, this.ceilingPolicyOf(call.chain), {
      gasLimit,
      value: call.value,
      maxCostWei: call.maxCostWei,
    });
    const tx = await signTransaction(wallet, {
      type: 2,
      chainId: evmChainId,
      nonce,
      to: call.to,
      data: call.data,
      value: call.value,
      gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const id = randomUUID();
    const sentAtMs = this.clock.nowMs();
    await this.transactions.record(manager, {
      id,
      chain: call.chain,
      relayer: address,
      nonce,
      purpose: call.purpose,
      swapId: call.swapId,
      stepIndex: call.stepIndex,
      owner: call.owner,
      to: call.to,
      data: call.data,
      value: call.value,
      gasLimit,
      txHash: tx.hash,
      attempts: [
        {
          hash: tx.hash,
          maxFeePerGas: fees.maxFeePerGas.toString(),
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          sentAtMs,
        },
      ],
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      maxFeeCeiling,
      status: 'pending',
      lastSentAtMs: sentAtMs,
      nextCheckAtMs: sentAtMs,
    });
    await this.accounts.setNextNonce(manager, call.chain, address, nonce + 1, true);
    await this.broadcast(provider, call.chain, address, nonce, tx.raw);
    RelayingMetrics.sent(call.chain, call.purpose);
    this.logger.log({
      msg: 'sponsored transaction sent',
      id,
      chain: call.chain,
      purpose: call.purpose,
      swapId: call.swapId,
      relayer: address,
      nonce,
      txHash: tx.hash,
    });
    return { id, txHash: tx.hash, relayer: address, nonce };
  }

  /**
   * Reconciles every relayer of every chain with its chain (NonceReconciler), each in a transaction
   * of its own; an account a sender holds is skipped (its sender reconciles it if it must). One
   * relayer's failure (an RPC down) does not stop the others. Answers how many were reconciled.
   */
  async reconcileAll(): Promise<number> {
    let reconciled = 0;
    for (const chain of this.pool.chainIds()) {
      if (!this.chains.families.evm(chain).ok) continue;
      await this.ensureAccounts(chain);
      for (const wallet of this.pool.wallets(chain)) {
        try {
          if (await this.reconcileAccount(chain, wallet.address, true)) reconciled++;
        } catch (error) {
          this.logger.warn({
            msg: 'relayer reconciliation failed; will retry',
            chain,
            relayer: wallet.address,
            error: shortMessageOf(error),
          });
        }
      }
    }
    return reconciled;
  }

  /** One account, under its lock; `skipLocked`: false at once when a sender holds it. */
  async reconcileAccount(chain: string, address: string, skipLocked: boolean): Promise<boolean> {
    const { provider, evmChainId } = this.surfaceOf(chain);
    const wallet = this.pool.wallet(chain, address);
    if (!wallet) return false;
    return this.dataSource.transaction(async (manager) => {
      const account = await this.accounts.lock(manager, chain, address, skipLocked);
      if (!account) return false;
      await this.reconciler.reconcile(manager, { chain, provider, evmChainId, wallet, account });
      return true;
    });
  }

  /** Sends a pending row's current attempt again, as it was signed (the node lost it). */
  resend(
    relayer: Pick<RelayerUnderLock, 'chain' | 'provider' | 'evmChainId' | 'wallet'>,
    row: SponsoredTransactionEntity,
  ): Promise<'sent' | 'known' | 'refused'> {
    return this.reconciler.resend(relayer, row);
  }

  /**
   * A pending row whose nonce another sender took (none of its attempts mined): the same call sent
   * again at the account's next nonce, as the same ledger row (its earlier attempts keep their
   * nonce). Fees: the node's suggestion, under the row's ceiling share (fee-bump.ts).
   */
  async reissue(row: SponsoredTransactionEntity, feeBumpPercent: number): Promise<ReissueOutcome> {
    const { provider, evmChainId } = this.surfaceOf(row.chain);
    const wallet = this.pool.wallet(row.chain, row.relayer);
    if (!wallet) return { kind: 'refused', why: `the key of relayer ${row.relayer} is no longer configured` };
    await this.reconcileAccount(row.chain, row.relayer, false);
    const suggested = await this.suggestedFees(provider, row.chain);
    const ceiling = row.maxFeeCeiling ?? row.maxFeePerGas;
    // Room under the ceiling for a cancel to outbid it, as replacements keep (nextAttemptUnderCeiling).
    const callShare = callShareOf(ceiling, feeBumpPercent);
    const maxFeePerGas = suggested.maxFeePerGas < callShare ? suggested.maxFeePerGas : callShare;
    const fees = {
      maxFeePerGas,
      maxPriorityFeePerGas:
        suggested.maxPriorityFeePerGas < maxFeePerGas ? suggested.maxPriorityFeePerGas : maxFeePerGas,
    };
    try {
      return await this.dataSource.transaction(async (manager): Promise<ReissueOutcome> => {
        const account = await this.accounts.lock(manager, row.chain, row.relayer, false);
        if (!account) return { kind: 'later', why: 'the relayer row is gone' };
        const pendingNonce = await this.rpc(row.chain, () =>
          provider.getTransactionCount(row.relayer, 'pending'),
        );
        const nonce = Number(account.next_nonce);
        if (nonce !== pendingNonce) return { kind: 'later', why: `the nonce ledger of ${row.relayer} moved` };
        const tx = await signTransaction(wallet, {
          type: 2,
          chainId: evmChainId,
          nonce,
          to: row.to,
          data: row.data,
          value: row.value,
          gasLimit: row.gasLimit,
          ...fees,
        });
        const sentAtMs = this.clock.nowMs();
        const attempt = { hash: tx.hash, ...feesAsStrings(fees), sentAtMs, nonce };
        if (!(await this.transactions.reissued(manager, row, nonce, attempt, fees))) {
          return { kind: 'later', why: 'the row changed meanwhile' };
        }
        await this.accounts.setNextNonce(manager, row.chain, row.relayer, nonce + 1, true);
        await this.broadcast(provider, row.chain, row.relayer, nonce, tx.raw);
        return { kind: 'reissued', nonce, txHash: tx.hash };
      });
    } catch (error) {
      if (error instanceof TryAgain) return { kind: 'later', why: error.message };
      if (error instanceof CodedError && error.code === ErrorCodes.TX_REQUEST_INVALID) {
        return { kind: 'refused', why: error.message };
      }
      throw error;
    }
  }

  /**
   * A zero-value self-transfer at `nonce`, recorded as a nonce-fill row of the ledger in the
   * reconciliation's transaction, then broadcast; what the node answers is the tracker's to follow.
   */
  private async sendNonceFill(
    manager: EntityManager,
    relayer: RelayerUnderLock,
    nonce: number,
  ): Promise<void> {
    const { chain, provider, evmChainId, wallet } = relayer;
    const fees = await this.suggestedFees(provider, chain);
    const tx = await signTransaction(wallet, {
      type: 2,
      chainId: evmChainId,
      nonce,
      to: wallet.address,
      data: '0x',
      value: 0n,
      gasLimit: CANCEL_GAS_LIMIT,
      ...fees,
    });
    const sentAtMs = this.clock.nowMs();
    await this.transactions.record(manager, {
      id: randomUUID(),
      chain,
      relayer: wallet.address,
      nonce,
      purpose: 'nonce-fill',
      swapId: null,
      stepIndex: null,
      owner: null,
      to: wallet.address,
      data: '0x',
      value: 0n,
      gasLimit: CANCEL_GAS_LIMIT,
      txHash: tx.hash,
      attempts: [{ hash: tx.hash, ...feesAsStrings(fees), sentAtMs }],
      ...fees,
      maxFeeCeiling: feeCeilingOf(fees.maxFeePerGas, this.ceilingPolicyOf(chain), {
        gasLimit: CANCEL_GAS_LIMIT,
        value: 0n,
      }),
      status: 'pending',
      lastSentAtMs: sentAtMs,
      nextCheckAtMs: sentAtMs,
    });
    try {
      await provider.broadcastTransaction(tx.raw);
    } catch (error) {
      this.logger.warn({
        msg: 'nonce fill not taken',
        chain,
        relayer: wallet.address,
        nonce,
        error: shortMessageOf(error),
      });
    }
    RelayingMetrics.sent(chain, 'nonce-fill');
  }

  private ceilingPolicyOf(chain: string) {
    return {
      percentOfFirst: this.policy.feeCeilingPercent,
      chainMaxFeePerGas: this.policy.maxFeePerGas.of(chain),
    };
  }

  /**
   * Sends the signed transaction. Refused: TryAgain (nonce taken, account short of funds) or
   * TX_REQUEST_INVALID, both rolling the transaction back. No answer: kept (it may have been
   * taken); the tracker replaces it if it never shows up.
   */
  private async broadcast(
    provider: JsonRpcProvider,
    chain: string,
    address: string,
    nonce: number,
    raw: string,
  ): Promise<void> {
    try {
      await provider.broadcastTransaction(raw);
    } catch (error) {
      const failure = broadcastFailureOf(error);
      switch (failure) {
        case 'already-known':
          return;
        case 'unreachable':
          this.logger.warn({
            msg: 'sponsored transaction broadcast unanswered; kept for the tracker',
            chain,
            relayer: address,
            nonce,
            error: shortMessageOf(error),
          });
          return;
        case 'nonce-used':
        case 'underpriced':
          throw new TryAgain(`nonce ${nonce} of ${address} is taken (${shortMessageOf(error)})`);
        case 'insufficient-funds':
          this.pool.noteBalance(chain, address, 0n);
          throw new TryAgain(`relayer ${address} cannot pay (${shortMessageOf(error)})`);
        case 'refused':
          throw sponsoredCallRefused(chain, shortMessageOf(error));
      }
    }
  }

  private async estimateGas(provider: JsonRpcProvider, call: RelayedCall): Promise<bigint> {
    // Any relayer will do as the sender: they are interchangeable to the contracts they call.
    const from = this.pool.wallets(call.chain)[0].address;
    try {
      const estimate = await provider.estimateGas({ from, to: call.to, data: call.data, value: call.value });
      return relayedGasLimit(estimate, {
        percent: this.policy.gasLimitPercent,
        extra: this.policy.gasLimitExtra,
      });
    } catch (error) {
      if (isRpcUnreachable(error)) throw chainUnreachable(call.chain, shortMessageOf(error));
      throw sponsoredCallRefused(call.chain, revertReasonOf(error) ?? shortMessageOf(error));
    }
  }

  private async suggestedFees(provider: JsonRpcProvider, chain: string): Promise<Eip1559Fees> {
    const fees = await this.rpc(chain, () => provider.getFeeData());
    if (fees.maxFeePerGas === null || fees.maxPriorityFeePerGas === null) {
      throw sponsorshipUnavailable(chain, 'the chain does not price gas with EIP-1559');
    }
    return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  }

  /** An RPC read whose silence is the chain's unavailability (503), not a failed send. */
  private async rpc<T>(chain: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (isRpcUnreachable(error)) throw chainUnreachable(chain, shortMessageOf(error));
      throw error;
    }
  }

  private surfaceOf(chain: string): { provider: JsonRpcProvider; evmChainId: bigint } {
    if (this.pool.wallets(chain).length === 0) {
      throw sponsorshipUnavailable(chain, 'no relayer is configured for the chain');
    }
    const lookup = this.chains.families.evm(chain);
    if (!lookup.ok) throw sponsorshipUnavailable(chain, lookup.reason);
    return lookup.client;
  }

  private noPayer(chain: string, costWei: bigint) {
    return sponsorshipUnavailable(
      chain,
      `every relayer is under its minimum balance (${this.pool.minBalanceOf(chain)} wei) or cannot pay ${costWei} wei`,
    );
  }

  /** Inserts the chain's relayer rows that do not exist yet (once per process and chain). */
  private ensureAccounts(chain: string): Promise<void> {
    let ready = this.accountsReady.get(chain);
    if (!ready) {
      const addresses = this.pool.wallets(chain).map((w) => w.address);
      ready = this.accounts.ensureAccounts(chain, addresses);
      void ready.catch(() => this.accountsReady.delete(chain));
      this.accountsReady.set(chain, ready);
    }
    return ready;
  }
}
