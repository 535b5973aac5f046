import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { transactionErrorJson, RpcTransactionError } from './solana-errors';

// litesvm's N-API binding takes serialized transactions as bytes; its public wrapper wants @solana/kit
// objects, so the ledger talks to the binding directly.
const { LiteSvm, Clock, Account } =
  require('litesvm/dist/internal') as typeof import('litesvm/dist/internal');
type LiteSvmInstance = import('litesvm/dist/internal').LiteSvm;
type ExecutionResult =
  | import('litesvm/dist/internal').TransactionMetadata
  | import('litesvm/dist/internal').FailedTransactionMetadata;

/** Lamports charged per signature, as on Solana mainnet and in litesvm's default fee structure. */
export const LAMPORTS_PER_SIGNATURE = 5000;
/** A blockhash is valid for 150 slots after it was produced (Solana's MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY_SLOTS = 150;
/** Slots after which a transaction counts as finalized (Solana's MAX_LOCKOUT_HISTORY + 1). */
export const FINALITY_SLOTS = 32;

export interface StoredTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  err: RpcTransactionError | null;
  logs: string[];
  fee: number;
  preBalances: number[];
  postBalances: number[];
  computeUnitsConsumed: number;
  raw: Uint8Array | null;
}

export class LedgerRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface SolanaLedgerOptions {
  /** Wall-clock length of a slot; the ledger advances slots on a timer. */
  slotMs?: number;
}

/**
 * A Solana ledger on litesvm (the real runtime and SPL programs) with what litesvm leaves to a
 * validator: slots that advance with time, a window of valid blockhashes, a signature history with
 * slots and errors, and confirmation levels derived from slot depth.
 */
export class SolanaLedger {
  private readonly svm: LiteSvmInstance;
  private slot = 1;
  private readonly blockhashes = new Map<string, number>(); // blockhash → last valid block height
  private readonly history = new Map<string, StoredTransaction>();
  /** Signatures per account key, oldest first: what getSignaturesForAddress pages through. */
  private readonly signaturesByAddress = new Map<string, string[]>();
  private ticker: NodeJS.Timeout | undefined;
  private readonly slotMs: number;

  constructor(options: SolanaLedgerOptions = {}) {
    this.slotMs = options.slotMs ?? 400;
    this.svm = new LiteSvm();
    // The ledger checks blockhash age itself (see assertBlockhashValid), with Solana's window.
    this.svm.setBlockhashCheck(false);
    this.svm.setSigverify(true);
    this.produceSlot();
  }

  start(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => this.produceSlot(), this.slotMs);
    this.ticker.unref();
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  get currentSlot(): number {
    return this.slot;
  }

  /** Moves to the next slot: new clock, new blockhash, old blockhashes age out. */
  produceSlot(): void {
    this.slot += 1;
    this.svm.warpToSlot(BigInt(this.slot));
    const clock = this.svm.getClock();
    this.svm.setClock(
      new Clock(
        BigInt(this.slot),
        clock.epochStartTimestamp,
        clock.epoch,
        clock.leaderScheduleEpoch,
        BigInt(Math.floor(Date.now() / 1000)),
      ),
    );
    this.svm.expireBlockhash();
    this.blockhashes.set(this.svm.latestBlockhash(), this.slot + BLOCKHASH_VALIDITY_SLOTS);
    for (const [hash, lastValid] of this.blockhashes)
      if (lastValid < this.slot) this.blockhashes.delete(hash);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const blockhash = this.svm.latestBlockhash();
    return {
      blockhash,
      lastValidBlockHeight: this.blockhashes.get(blockhash) ?? this.slot + BLOCKHASH_VALIDITY_SLOTS,
    };
  }

  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.blockhashes.get(blockhash);
    return lastValid !== undefined && lastValid >= this.slot;
  }

  /** Executes a serialized (legacy or v0) transaction and records it; returns its signature. */
  sendTransaction(bytes: Uint8Array, options: { skipPreflight?: boolean } = {}): string {
    const tx = this.decode(bytes);
    const signature = bs58.encode(tx.signatures[0]);
    const known = this.history.get(signature);
    if (known) return signature;
    this.assertBlockhashValid(tx);
    if (!options.skipPreflight) {
      const simulation = this.simulateTransaction(bytes, { sigVerify: true });
      if (simulation.err) {
        throw new LedgerRpcError(-32002, `Transaction simulation failed: ${JSON.stringify(simulation.err)}`, {
          err: simulation.err,
          logs: simulation.logs,
          accounts: null,
          unitsConsumed: simulation.unitsConsumed,
          returnData: null,
        });
      }
    }
    const keys = tx.message.staticAccountKeys;
    const preBalances = keys.map((k) => this.balanceOf(k));
    const result = this.execute(tx, bytes);
    const failed = this.isFailure(result);
    const meta = failed
      ? (result as import('litesvm/dist/internal').FailedTransactionMetadata).meta()
      : (result as import('litesvm/dist/internal').TransactionMetadata);
    const err = failed
      ? transactionErrorJson((result as import('litesvm/dist/internal').FailedTransactionMetadata).err())
      : null;
    this.history.set(signature, {
      signature,
      slot: this.slot,
      blockTime: Math.floor(Date.now() / 1000),
      err,
      logs: meta.logs(),
      fee: LAMPORTS_PER_SIGNATURE * tx.message.header.numRequiredSignatures,
      preBalances,
      postBalances: keys.map((k) => this.balanceOf(k)),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      raw: bytes,
    });
    this.indexSignature(signature, keys);
    return signature;
  }

  simulateTransaction(
    bytes: Uint8Array,
    options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean } = {},
  ): { err: RpcTransactionError | null; logs: string[]; unitsConsumed: number } {
    const tx = this.decode(bytes);
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(tx.message.recentBlockhash)) {
      return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 };
    }
    const previous = this.svm.getSigverify();
    this.svm.setSigverify(options.sigVerify ?? false);
    try {
      const result =
        tx.version === 'legacy'
          ? this.svm.simulateLegacyTransaction(bytes)
          : this.svm.simulateVersionedTransaction(bytes);
      if ('err' in result && typeof (result as { err?: unknown }).err === 'function') {
        const failed = result as import('litesvm/dist/internal').FailedTransactionMetadata;
        return {
          err: transactionErrorJson(failed.err()),
          logs: failed.meta().logs(),
          unitsConsumed: Number(failed.meta().computeUnitsConsumed()),
        };
      }
      const meta = (result as import('litesvm/dist/internal').SimulatedTransactionInfo).meta();
      return { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) };
    } finally {
      this.svm.setSigverify(previous);
    }
  }

  /**
   * Signatures that touched `address`, newest first, as getSignaturesForAddress pages them:
   * strictly older than `before`, strictly newer than `until`, at most `limit`, and only those at
   * least `minDepth` slots deep (1 = confirmed, FINALITY_SLOTS = finalized).
   */
  signaturesForAddress(
    address: PublicKey,
    options: { limit?: number; before?: string; until?: string; minDepth?: number } = {},
  ): StoredTransaction[] {
    const all = this.signaturesByAddress.get(address.toBase58()) ?? [];
    const limit = options.limit ?? 1000;
    const minDepth = options.minDepth ?? 0;
    const found: StoredTransaction[] = [];
    let started = options.before === undefined;
    for (let i = all.length - 1; i >= 0 && found.length < limit; i--) {
      const signature = all[i];
      if (!started) {
        started = signature === options.before;
        continue;
      }
      if (signature === options.until) break;
      const tx = this.history.get(signature);
      if (tx && this.slot - tx.slot >= minDepth) found.push(tx);
    }
    return found;
  }

  getTransaction(signature: string): StoredTransaction | undefined {
    return this.history.get(signature);
  }

  /** Confirmation view of a signature, as getSignatureStatuses reports it. */
  signatureStatus(signature: string): {
    slot: number;
    confirmations: number | null;
    err: RpcTransactionError | null;
    confirmationStatus: 'processed' | 'confirmed' | 'finalized';
  } | null {
    const tx = this.history.get(signature);
    if (!tx) return null;
    const depth = this.slot - tx.slot;
    const confirmationStatus = depth >= FINALITY_SLOTS ? 'finalized' : depth >= 1 ? 'confirmed' : 'processed';
    return {
      slot: tx.slot,
      confirmations: confirmationStatus === 'finalized' ? null : depth,
      err: tx.err,
      confirmationStatus,
    };
  }

  balanceOf(address: PublicKey): number {
    return Number(this.svm.getBalance(address.toBytes()) ?? 0n);
  }

  getAccount(
    address: PublicKey,
  ): { lamports: number; data: Uint8Array; owner: PublicKey; executable: boolean; rentEpoch: number } | null {
    const account = this.svm.getAccount(address.toBytes());
    if (!account || (account.lamports() === 0n && account.data().length === 0)) return null;
    return {
      lamports: Number(account.lamports()),
      data: account.data(),
      owner: new PublicKey(account.owner()),
      executable: account.executable(),
      rentEpoch: Number(account.rentEpoch() > BigInt(Number.MAX_SAFE_INTEGER) ? 0n : account.rentEpoch()),
    };
  }

  /**
   * Writes an account as it is, without a transaction (what a validator's genesis or
   * `--account` does): how the mainnet replica puts the USDC mint at its canonical address.
   */
  setAccount(address: PublicKey, account: { lamports: number; data: Uint8Array; owner: PublicKey }): void {
    this.svm.setAccount(
      address.toBytes(),
      new Account(BigInt(account.lamports), account.data, account.owner.toBytes(), false, 0n),
    );
  }

  minimumBalanceForRentExemption(dataLength: number): number {
    return Number(this.svm.minimumBalanceForRentExemption(BigInt(dataLength)));
  }

  /** Funds an account with lamports and records the airdrop as a transaction. */
  airdrop(address: PublicKey, lamports: number): string {
    const pre = this.balanceOf(address);
    const result = this.svm.airdrop(address.toBytes(), BigInt(lamports));
    if (!result || this.isFailure(result))
      throw new LedgerRpcError(-32603, `airdrop to ${address.toBase58()} failed`);
    const meta = result as import('litesvm/dist/internal').TransactionMetadata;
    const signature = bs58.encode(meta.signature());
    this.history.set(signature, {
      signature,
      slot: this.slot,
      blockTime: Math.floor(Date.now() / 1000),
      err: null,
      logs: meta.logs(),
      fee: LAMPORTS_PER_SIGNATURE,
      preBalances: [pre],
      postBalances: [this.balanceOf(address)],
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      raw: null,
    });
    this.indexSignature(signature, [address]);
    return signature;
  }

  private indexSignature(signature: string, keys: PublicKey[]): void {
    for (const key of new Set(keys.map((k) => k.toBase58()))) {
      const list = this.signaturesByAddress.get(key);
      if (list) list.push(signature);
      else this.signaturesByAddress.set(key, [signature]);
    }
  }

  private decode(bytes: Uint8Array): VersionedTransaction {
    try {
      return VersionedTransaction.deserialize(bytes);
    } catch (error) {
      throw new LedgerRpcError(-32602, `failed to deserialize transaction: ${(error as Error).message}`);
    }
  }

  private assertBlockhashValid(tx: VersionedTransaction): void {
    if (!this.isBlockhashValid(tx.message.recentBlockhash)) {
      throw new LedgerRpcError(-32002, 'Transaction simulation failed: Blockhash not found', {
        err: 'BlockhashNotFound',
        logs: [],
        accounts: null,
        unitsConsumed: 0,
      });
    }
  }

  private execute(tx: VersionedTransaction, bytes: Uint8Array): ExecutionResult {
    return tx.version === 'legacy'
      ? this.svm.sendLegacyTransaction(bytes)
      : this.svm.sendVersionedTransaction(bytes);
  }

  private isFailure(result: ExecutionResult): boolean {
    return typeof (result as { err?: unknown }).err === 'function';
  }
}
