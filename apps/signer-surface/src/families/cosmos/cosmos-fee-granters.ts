import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  cosmosTxHash,
  encodeMsgRegisterAccount,
  type ForwardingTarget,
  type GranterAccount,
  granterAddressOf,
  MSG_REGISTER_ACCOUNT_TYPE_URL,
  signFeeGrantTx,
  signGranterTx,
  SPONSORED_COSMOS_GAS,
  type CosmosSigningChainClient,
} from '@swapgw/chains/families';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { Clock } from '@swapgw/runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RELAYING_DATA_SOURCE } from '../../sponsorship/relaying-database';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { CosmosFeeGrantMetrics } from './cosmos-fee-grant-metrics';
import { cosmosGranterKeyBytes } from './cosmos-fee-granter-keys';
import { CosmosFeeGranterSettings, CosmosSponsorshipBudget } from './cosmos-fee-granter-settings';

/** Gas of a grant (and a revoke with it) paid by the granter itself. */
const GRANT_GAS_LIMIT = SPONSORED_COSMOS_GAS.feeGrant;
/** Gas of a forwarding account's registration (MsgRegisterAccount) paid by the granter: a grant's bound covers it. */
const REGISTER_FORWARDING_GAS_LIMIT = SPONSORED_COSMOS_GAS.feeGrant;

/** The step a grant or a fee is paid for: whose budget pays it. */
export interface CosmosFeeStep {
  swapId: string;
  stepIndex: number;
  /** The API key id whose budget pays. */
  owner: string;
}

/** A user's Cosmos transaction whose fee the granter pays, as the ledger records it. */
export interface CosmosGrantedTransaction extends CosmosFeeStep {
  chain: string;
  granter: string;
  /** The wallet whose transaction it is. */
  wallet: string;
  /** The signed TxRaw, base64. */
  rawTx: string;
  txHash: string;
  /** Its fee: the whole gas limit at the minimum gas price (charged in full, used or not). */
  fee: bigint;
}
/** How long a grant's transaction is waited for before the step's issue gives up (503). */
const GRANT_LANDS_WITHIN_MS = 30_000;

/**
 * The service's fee granter of each Cosmos chain (COSMOS_FEE_GRANTER_KEYS: the first key of a chain):
 * its address, named as `fee.granter` by every Cosmos step, and the x/feegrant allowance it keeps
 * with each wallet: before a step is issued, a wallet whose allowance cannot pay the step's fee is
 * granted (or topped up to, by a revoke and a grant in one transaction) COSMOS_FEE_GRANT_STEPS times
 * that fee, signed with the granter's key and awaited in its block. One grant at a time per chain
 * (the granter's sequence). No grant: SPONSORSHIP_UNAVAILABLE (503), the service's problem.
 *
 * What the granter pays goes to the sponsorship ledger in the base units of the chain's fee denom:
 * each grant (purpose cosmos-fee-grant, recorded before it is broadcast) and each step's fee
 * (cosmos-transaction, recorded with the accepted submission), both under the step's API key, whose
 * daily budget (SPONSORSHIP_DAILY_BUDGET_COSMOS) admits a step before its grant; the tracker settles
 * them from the chain (CosmosFeeGrantTracking). A granter whose balance is under
 * COSMOS_FEE_GRANTER_MIN_BALANCE is not used (its balance is the relayers' balance gauge).
 */
@Injectable()
export class CosmosFeeGranters {
  private readonly logger = new Logger(CosmosFeeGranters.name);
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Last balance read per chain, in base units of its fee denom; absent until first read. */
  private readonly balances = new Map<string, bigint>();

  constructor(
    private readonly settings: CosmosFeeGranterSettings,
    private readonly chains: SignerChains,
    @Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly ledger: FeeAccountLedger,
    private readonly budget: CosmosSponsorshipBudget,
    private readonly clock: Clock,
  ) {}

  /** The chains the service has a granter on. */
  chainIds(): string[] {
    return this.settings.keys.chains();
  }

  /** The granter's address on `chain`; null when the service has no granter there. */
  granterOf(chain: string): string | null {
    const key = this.keyOf(chain);
    const prefix = this.chains.find(chain)?.cosmos?.bech32Prefix;
    if (!key || !prefix) return null;
    try {
      return granterAddressOf(prefix, key);
    } finally {
      key.fill(0);
    }
  }

  /** What a grant costs the granter on the chain of `client` (its gas limit at the minimum gas price). */
  grantFeeOf(client: CosmosSigningChainClient): bigint {
    return BigInt(client.feeOf(GRANT_GAS_LIMIT).amount);
  }

  /**
   * Admits a step whose fee is `fee` under the key's daily budget on the chain, with a grant's fee on
   * top (the step may need one: an upper bound); SPONSORSHIP_BUDGET_EXHAUSTED (503) when it does not
   * fit. Then the granter must hold its minimum balance and the step's cost: read when never read
   * yet or when the last read says not, SPONSORSHIP_UNAVAILABLE (503) when it still does not.
   */
  async admit(client: CosmosSigningChainClient, granter: string, owner: string, fee: bigint): Promise<void> {
    const chain = client.chain.id;
    const cost = fee + this.grantFeeOf(client);
    await this.budget.check(owner, chain, cost);
    const enough = (balance: bigint | undefined) =>
      balance !== undefined && balance >= this.settings.minBalance && balance >= cost;
    if (enough(this.balances.get(chain))) return;
    await this.readBalance(client, granter);
    const balance = this.balances.get(chain);
    if (!enough(balance))
      throw unavailable(
        chain,
        `the fee granter ${granter} holds ${balance}, under its minimum balance (${this.settings.minBalance}) or the step's ${cost}`,
      );
  }

  /** Makes sure `granter`'s allowance to `grantee` on `chain` can pay `fee` (of `denom`), granting it when not. */
  async ensureAllowance(
    client: CosmosSigningChainClient,
    granter: string,
    grantee: string,
    fee: { denom: string; amount: bigint },
    step: CosmosFeeStep,
  ): Promise<void> {
    const chain = client.chain.id;
    const previous = this.queues.get(chain) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => this.grantWhenShort(client, granter, grantee, fee, step));
    this.queues.set(chain, next);
    await next;
  }

  /**
   * Makes sure Noble's forwarding account of `target` is registered (x/forwarding's
   * MsgRegisterAccount, permissionless: the granter signs and pays it, as Skip's relayers register
   * theirs), so what the bridge mints into it continues over IBC with no signature of the user's.
   * Idempotent: an account already registered is left as it is, and a registration that loses a race
   * to another (`account has already been registered`) counts as done. Answers the account's address.
   * Queued with the granter's grants on the chain (one sequence).
   */
  async ensureForwardingAccount(
    client: CosmosSigningChainClient,
    target: ForwardingTarget,
    step: CosmosFeeStep,
  ): Promise<string> {
    const chain = client.chain.id;
    const previous = this.queues.get(chain) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.registerWhenMissing(client, target, step));
    this.queues.set(chain, next);
    return next;
  }

  /**
   * Writes the ledger row of a step's transaction whose fee the granter pays (pending; the tracker
   * settles it), in the caller's transaction; answers its id.
   */
  record(manager: EntityManager, tx: CosmosGrantedTransaction): Promise<string> {
    return this.ledger.record(
      manager,
      {
        chain: tx.chain,
        purpose: 'cosmos-transaction',
        account: tx.granter,
        swapId: tx.swapId,
        stepIndex: tx.stepIndex,
        owner: tx.owner,
        to: tx.wallet,
        data: tx.rawTx,
        maxFee: tx.fee,
        value: 0n,
        txHash: tx.txHash,
      },
      this.clock.nowMs(),
    );
  }

  /** Reads the balance of every granter (the balance gauge, and whether it is used); one that fails keeps its last value. */
  async refreshBalances(): Promise<void> {
    await Promise.all(
      this.chainIds().map(async (chain) => {
        const lookup = this.chains.families.cosmos(chain);
        const granter = this.granterOf(chain);
        if (!lookup.ok || !granter) return;
        try {
          await this.readBalance(lookup.client, granter);
        } catch (error) {
          this.logger.warn({
            msg: 'Cosmos fee granter balance read failed',
            chain,
            granter,
            error: (error as Error).message,
          });
        }
      }),
    );
  }

  private async readBalance(client: CosmosSigningChainClient, granter: string): Promise<void> {
    const balance = await client.readBalance(granter, null);
    this.balances.set(client.chain.id, balance);
    RelayingMetrics.balance(client.chain.id, granter, balance, this.settings.minBalance);
  }

  private async grantWhenShort(
    client: CosmosSigningChainClient,
    granter: string,
    grantee: string,
    fee: { denom: string; amount: bigint },
    step: CosmosFeeStep,
  ): Promise<void> {
    const chain = client.chain.id;
    const left = await client.allowanceLeft(granter, grantee, fee.denom);
    if (left === 'unlimited' || (left !== null && left >= fee.amount)) return;
    const grantFee = client.feeOf(GRANT_GAS_LIMIT);
    const rawTx = await this.signedByGranter(client, granter, (account, privateKey) =>
      signFeeGrantTx({
        account,
        privateKey,
        grantee,
        spendLimit: [{ denom: fee.denom, amount: (fee.amount * this.settings.grantSteps).toString() }],
        replace: left !== null,
        gasLimit: GRANT_GAS_LIMIT,
        fee: [grantFee],
      }),
    );
    const hash = await this.recordOwnTransaction(client, granter, rawTx, grantFee, grantee, step);
    try {
      await this.sendGrant(client, rawTx, hash, grantee);
    } catch (error) {
      CosmosFeeGrantMetrics.grant(chain, 'failed');
      throw error;
    }
    CosmosFeeGrantMetrics.grant(chain, left === null ? 'granted' : 'topped-up');
    this.logger.log({ msg: 'fee grant', chain, granter, grantee, txHash: hash, fee: grantFee });
  }

  private async registerWhenMissing(
    client: CosmosSigningChainClient,
    target: ForwardingTarget,
    step: CosmosFeeStep,
  ): Promise<string> {
    const chain = client.chain.id;
    const found = await client.forwardingAccountOf(target);
    if (found.exists) return found.address;
    const granter = this.granterOf(chain);
    if (!granter)
      throw unavailable(chain, `no fee granter registers the forwarding account ${found.address}`);
    const fee = client.feeOf(REGISTER_FORWARDING_GAS_LIMIT);
    // Under the step's key's daily budget on Noble, as a grant is.
    await this.budget.check(step.owner, chain, BigInt(fee.amount));
    const rawTx = await this.signedByGranter(client, granter, (account, privateKey) =>
      signGranterTx({
        account,
        privateKey,
        messages: [
          {
            typeUrl: MSG_REGISTER_ACCOUNT_TYPE_URL,
            value: encodeMsgRegisterAccount({ signer: granter, ...target }),
          },
        ],
        gasLimit: REGISTER_FORWARDING_GAS_LIMIT,
        fee: [fee],
      }),
    );
    // Its purpose is the granter's own transactions' (the tracker settles them from its sequence).
    const hash = await this.recordOwnTransaction(client, granter, rawTx, fee, found.address, step);
    try {
      await this.sendGrant(client, rawTx, hash, found.address);
    } catch (error) {
      // Registered meanwhile by someone else: what this step needs is there.
      if (!(await client.forwardingAccountOf(target)).exists) throw error;
    }
    this.logger.log({ msg: 'forwarding account registered', chain, address: found.address, txHash: hash });
    return found.address;
  }

  /** A transaction of the granter's own, signed by `sign` with its account as the chain has it and its key (wiped after). */
  private async signedByGranter(
    client: CosmosSigningChainClient,
    granter: string,
    sign: (account: GranterAccount, privateKey: Uint8Array) => string,
  ): Promise<string> {
    const chain = client.chain.id;
    const account = await client.accountOf(granter);
    const cosmos = this.chains.find(chain)?.cosmos;
    const key = this.keyOf(chain);
    if (!account || !cosmos || !key) throw unavailable(chain, `the fee granter ${granter} has no account`);
    try {
      return sign({ chainId: cosmos.chainId, prefix: cosmos.bech32Prefix, ...account }, key);
    } finally {
      key.fill(0);
    }
  }

  /**
   * The ledger row of a transaction of the granter's own (a grant, a registration: purpose
   * cosmos-fee-grant, `to` whom it is for), written before it can be paid so the tracker settles it
   * from the chain whatever happens next; answers its hash.
   */
  private async recordOwnTransaction(
    client: CosmosSigningChainClient,
    granter: string,
    rawTx: string,
    fee: { amount: string },
    to: string,
    step: CosmosFeeStep,
  ): Promise<string> {
    const txHash = cosmosTxHash(Buffer.from(rawTx, 'base64'));
    await this.dataSource.transaction((manager) =>
      this.ledger.record(
        manager,
        {
          chain: client.chain.id,
          purpose: 'cosmos-fee-grant',
          account: granter,
          ...step,
          to,
          data: rawTx,
          maxFee: BigInt(fee.amount),
          value: 0n,
          txHash,
        },
        this.clock.nowMs(),
      ),
    );
    return txHash;
  }

  /** Broadcasts a signed grant and waits for its block (GRANT_LANDS_WITHIN_MS); SPONSORSHIP_UNAVAILABLE when it fails. */
  private async sendGrant(
    client: CosmosSigningChainClient,
    rawTx: string,
    hash: string,
    grantee: string,
  ): Promise<void> {
    const chain = client.chain.id;
    const sent = await client.broadcast(rawTx, hash);
    if (sent.kind === 'rejected' || sent.kind === 'unreachable')
      throw unavailable(chain, `the fee grant to ${grantee} was not taken: ${sent.message}`);
    const deadline = this.clock.nowMs() + GRANT_LANDS_WITHIN_MS;
    for (;;) {
      const progress = await client.progress(hash, 1);
      if (progress.kind === 'confirmed') return;
      if (progress.kind === 'failed')
        throw unavailable(chain, `the fee grant to ${grantee} failed: ${progress.reason}`);
      if (this.clock.nowMs() > deadline)
        throw unavailable(chain, `the fee grant ${hash} to ${grantee} did not land in time`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private keyOf(chain: string): Uint8Array | null {
    return cosmosGranterKeyBytes(this.settings.keys.keysOf(chain)[0]);
  }
}

function unavailable(chain: string, reason: string): CodedError {
  return new CodedError(
    ErrorCodes.SPONSORSHIP_UNAVAILABLE,
    `The Cosmos fee granter of ${chain} cannot pay: ${reason}`,
    {
      chain,
    },
  );
}
