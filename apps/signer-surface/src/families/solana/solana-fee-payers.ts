import { Logger } from '@nestjs/common';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { KeyObject, sign } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { sponsorshipUnavailable } from '../../sponsorship/relaying-errors';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { ed25519PrivateKey } from './solana-fee-payer-keys';

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

interface FeePayerAccount {
  address: string;
  key: KeyObject;
}

/**
 * The service's Solana fee payers: accounts named as fee payer of the Solana transactions of
 * sponsored swaps, which pay their fees (and any rent). Unlike EVM relayers they send nothing: the
 * user's wallet signs the transaction, the service adds the fee payer's signature. Solana has no
 * nonce, so any number of transactions may name one fee payer at once; they are taken in turn.
 * Keys are held as KeyObjects (nothing of a key prints). Built at boot: a key for a chain the
 * registry does not know, or for a chain that is not Solana, stops the app there.
 */
export class SolanaFeePayers {
  private readonly logger = new Logger(SolanaFeePayers.name);
  private readonly byChain = new Map<string, FeePayerAccount[]>();
  private readonly keyByAddress = new Map<string, KeyObject>();
  /** Last balance read per `chain:address`, in lamports; absent until first read. */
  private readonly balances = new Map<string, bigint>();
  private turn = 0;

  constructor(
    keys: RelayerKeySet,
    private readonly chains: SignerChains,
    private readonly minBalanceLamports: bigint,
    private readonly ledger: FeeAccountLedger,
  ) {
    const problems: string[] = [];
    for (const chain of keys.chains()) {
      const family = chains.find(chain)?.family;
      if (family !== 'solana') {
        const why = family
          ? `a ${family} chain: fee payers pay Solana transactions only`
          : 'which is not known';
        problems.push(`SOLANA_FEE_PAYER_KEYS names chain ${chain}, ${why}`);
        continue;
      }
      const accounts = keys.keysOf(chain).map((secret) => {
        const bytes = bs58.decode(secret);
        return { address: bs58.encode(bytes.subarray(32)), key: ed25519PrivateKey(bytes) };
      });
      for (const account of accounts) this.keyByAddress.set(account.address, account.key);
      this.byChain.set(chain, accounts);
      if (!chains.families.solana(chain).ok) {
        this.logger.warn({
          msg: 'Solana fee payers configured for a chain without RPC: sponsorship there is unavailable',
          chain,
        });
      }
    }
    if (problems.length > 0)
      throw new Error(`Invalid Solana fee payer configuration: ${problems.join('; ')}`);
  }

  chainIds(): string[] {
    return [...this.byChain.keys()];
  }

  addresses(chain: string): string[] {
    return (this.byChain.get(chain) ?? []).map((a) => a.address);
  }

  /**
   * The fee payer's Ed25519 signature of a transaction message, or null when `feePayer` is none of
   * the service's. A signature names no chain, so any configured fee payer signs.
   */
  sign(feePayer: string, message: Uint8Array): Uint8Array | null {
    const key = this.keyByAddress.get(feePayer);
    return key ? new Uint8Array(sign(null, message, key)) : null;
  }

  /**
   * One of the chain's fee payers able to pay `costLamports` now, taken in turn; balances are read
   * again when none passes on the last ones read. SPONSORSHIP_UNAVAILABLE when none can.
   */
  async pick(chain: string, costLamports: bigint): Promise<string> {
    if (this.addresses(chain).length === 0)
      throw sponsorshipUnavailable(chain, 'no Solana fee payer is configured for the chain');
    let payers = this.payers(chain, costLamports);
    if (payers.length === 0) {
      await this.refreshBalances([chain]);
      payers = this.payers(chain, costLamports);
    }
    if (payers.length === 0) {
      throw sponsorshipUnavailable(
        chain,
        `every fee payer is under its minimum balance (${this.minBalanceLamports} lamports) or cannot pay ${costLamports} lamports`,
      );
    }
    return payers[this.turn++ % payers.length];
  }

  /** Fee payers whose last balance read covers the minimum and the cost (never read: usable). */
  private payers(chain: string, costLamports: bigint): string[] {
    return this.addresses(chain).filter((address) => {
      const balance = this.balances.get(`${chain}:${address}`);
      return balance === undefined || (balance >= this.minBalanceLamports && balance >= costLamports);
    });
  }

  noteBalance(chain: string, address: string, lamports: bigint): void {
    this.balances.set(`${chain}:${address}`, lamports);
    RelayingMetrics.balance(chain, address, lamports, this.minBalanceLamports);
  }

  /** Reads the balance of every fee payer of `chains` (default all); one that fails keeps its last value. */
  async refreshBalances(chains: string[] = this.chainIds()): Promise<void> {
    const reads = chains.flatMap((chain) => {
      const lookup = this.chains.families.solana(chain);
      if (!lookup.ok) return [];
      const { connection } = lookup.client;
      return this.addresses(chain).map(async (address) => {
        try {
          this.noteBalance(
            chain,
            address,
            BigInt(await connection.getBalance(new PublicKey(address), 'confirmed')),
          );
        } catch (error) {
          this.logger.warn({
            msg: 'Solana fee payer balance read failed',
            chain,
            address,
            error: (error as Error).message,
          });
        }
      });
    });
    await Promise.all(reads);
  }

  /** Writes the ledger row of a co-signed transaction (pending) in the caller's transaction. */
  async record(manager: EntityManager, tx: SponsoredSolanaTransaction, nowMs: number): Promise<string> {
    const id = await this.ledger.record(
      manager,
      {
        chain: tx.chain,
        purpose: 'solana-transaction',
        account: tx.feePayer,
        swapId: tx.swapId,
        stepIndex: tx.stepIndex,
        owner: tx.owner,
        to: tx.wallet,
        data: tx.transaction,
        maxFee: tx.maxFeeLamports,
        value: tx.rentLamports,
        txHash: tx.signature,
      },
      nowMs,
    );
    this.logger.log({
      msg: 'Solana transaction co-signed by the fee payer',
      id,
      chain: tx.chain,
      swapId: tx.swapId,
      feePayer: tx.feePayer,
      signature: tx.signature,
    });
    return id;
  }
}
