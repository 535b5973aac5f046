import { Inject, Injectable, Logger } from '@nestjs/common';
import { schemaOf } from '@swapgw/messaging';
import { JsonRpcProvider } from 'ethers';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { CLOCK, type Clock } from '../clock';
import { SignerChains } from '../chains/signer-chains';
import { isRpcUnreachable, relayedGasLimit, revertReasonOf, shortMessageOf } from '@swapgw/chains';
import { broadcastFailureOf } from './broadcast-errors';
import { Eip1559Fees, maxCostOf } from './fee-bump';
import { RelayerPool, isEnough } from './relayer-pool';
import { RELAYING_DATA_SOURCE } from './relaying-database';
import { chainUnreachable, sponsoredCallRefused, sponsorshipUnavailable } from './relaying-errors';
import { RelayingMetrics } from './relaying-metrics';
import { signTransaction } from './signed-transaction';
import type { SponsoredSend } from '../signing/sponsored/gas-sponsor';
import { SPONSORED_PURPOSES, SponsoredTransactionEntity } from './sponsored-transaction.entity';

/**
 * A transaction for the relayers to send and pay for: the signing flow's SponsoredSend (`value` is
 * counted in its cost: a gas drop), with an optional gas limit (default: relayedGasLimit of the
 * node's estimate).
 */
export interface RelayedCall extends SponsoredSend {
  gasLimit?: bigint;
}

export interface RelayedSend {
  /** The ledger row (sponsored_transactions.id). */
  id: string;
  txHash: string;
  relayer: string;
  nonce: number;
}

export interface RelayersPolicy {
  /** gasLimit = eth_estimateGas × this / 100 + gasLimitExtra (GAS_LIMIT_PERCENT). */
  gasLimitPercent: number;
  /** Gas added after the percentage (RELAYER_GAS_EXTRA): see relayedGasLimit. */
  gasLimitExtra: number;
  /** Sends retried when the nonce or the account turns out to be taken or short of funds. */
  maxAttempts?: number;
}

export const RELAYERS_POLICY = Symbol('RelayersPolicy');

/** Raised inside the send transaction to roll it back and try again with a fresh account or nonce. */
class TryAgain extends Error {}

interface LockedAccount {
  address: string;
  next_nonce: string;
}

/**
 * The service's relayer accounts sending transactions on users' behalf. One send is one database
 * transaction: lock one of the chain's relayer rows (FOR UPDATE SKIP LOCKED, so instances use
 * different accounts side by side; when all are taken, wait for one), nonce = max(the row's next
 * nonce, the node's pending nonce), sign, write the ledger row, advance the row, broadcast, commit.
 * A broadcast the node refuses rolls it all back, so no nonce is skipped; a crash after the
 * broadcast and before the commit leaves the row behind the chain, and the pending-nonce rule skips
 * past the nonce that transaction took, so none is used twice.
 */
@Injectable()
export class Relayers {
  private readonly logger = new Logger(Relayers.name);
  /** Chains whose relayer rows this process has made sure exist. */
  private readonly accountsReady = new Map<string, Promise<void>>();

  constructor(
    @Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly pool: RelayerPool,
    @Inject(RELAYERS_POLICY) private readonly policy: RelayersPolicy,
    @Inject(CLOCK) private readonly now: Clock = Date.now,
  ) {}

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
    for (let attempt = 1; ; attempt++) {
      await this.assertCanPay(call.chain, costWei);
      try {
        return await this.dataSource.transaction((manager) =>
          this.sendUnderLock(manager, provider, evmChainId, call, gasLimit, fees, costWei),
        );
      } catch (error) {
        if (!(error instanceof TryAgain)) throw error;
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
  ): Promise<RelayedSend> {
    const account = await this.lockAccount(manager, call.chain, this.pool.payers(call.chain, costWei));
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
    const nonce = Math.max(Number(account.next_nonce), pendingNonce);
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
    const sentAtMs = this.now();
    await manager.insert(SponsoredTransactionEntity, {
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
      status: 'pending',
      lastSentAtMs: sentAtMs,
      nextCheckAtMs: sentAtMs,
    });
    await manager.query(
      `UPDATE "${schemaOf(this.dataSource)}"."relayer_accounts" SET "next_nonce" = $3, "last_used_at" = now(), "updated_at" = now()
        WHERE "chain" = $1 AND "address" = $2`,
      [call.chain, address, nonce + 1],
    );
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
   * The least recently used free account among `addresses`; when every one is locked by another
   * sender, waits for one of them (chosen at random, so waiters spread over the accounts).
   */
  private async lockAccount(
    manager: EntityManager,
    chain: string,
    addresses: string[],
  ): Promise<LockedAccount | undefined> {
    if (addresses.length === 0) return undefined;
    const table = `"${schemaOf(this.dataSource)}"."relayer_accounts"`;
    const free = (await manager.query(
      `SELECT "address", "next_nonce" FROM ${table} WHERE "chain" = $1 AND "address" = ANY($2::text[])
        ORDER BY "last_used_at" ASC NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [chain, addresses],
    )) as LockedAccount[];
    if (free.length > 0) return free[0];
    const waited = (await manager.query(
      `SELECT "address", "next_nonce" FROM ${table} WHERE "chain" = $1 AND "address" = ANY($2::text[]) ORDER BY random() LIMIT 1 FOR UPDATE`,
      [chain, addresses],
    )) as LockedAccount[];
    return waited[0];
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
      ready = this.dataSource
        .query(
          `INSERT INTO "${schemaOf(this.dataSource)}"."relayer_accounts" ("chain", "address", "next_nonce")
           SELECT $1, unnest($2::text[]), 0 ON CONFLICT DO NOTHING`,
          [chain, addresses],
        )
        .then(() => undefined);
      void ready.catch(() => this.accountsReady.delete(chain));
      this.accountsReady.set(chain, ready);
    }
    return ready;
  }
}
