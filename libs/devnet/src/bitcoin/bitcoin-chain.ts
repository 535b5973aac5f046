import * as btc from '@scure/btc-signer';
import type { BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import { sha256x2 } from '@scure/btc-signer/utils.js';
import {
  BitcoinRejection,
  checkTransactionShape,
  decodeRawTransaction,
  NULL_TXID,
  outpointKey,
  Prevout,
  transactionVsize,
  transactionWeight,
  verifyInputScripts,
} from './bitcoin-transaction-rules';
import { inputSequence, outputAt, spentOutpoint } from './bitcoin-transaction-parts';

/** Where a mined transaction is. */
export interface BlockPlacement {
  height: number;
  hash: string;
  time: number;
}

interface TransactionRecord {
  txid: string;
  tx: btc.Transaction;
  raw: Uint8Array;
  /** What each input spends; null for a coinbase's input. */
  prevouts: (Prevout | null)[];
  fee: bigint;
  vsize: number;
  weight: number;
  size: number;
}

/**
 * A transaction the chain knows: in a block, or in the mempool (`block` undefined). A coinbase is
 * only ever in a block.
 */
export type ChainTransaction = TransactionRecord &
  ({ isCoinbase: false; block?: BlockPlacement } | { isCoinbase: true; block: BlockPlacement });

export interface ChainBlock {
  height: number;
  hash: string;
  previousblockhash: string | null;
  version: number;
  merkleRoot: string;
  /** Seconds since epoch. */
  time: number;
  bits: number;
  nonce: number;
  txids: string[];
  size: number;
  weight: number;
}

/** Where an output went: the spending transaction and its input index. */
export interface Outspend {
  txid: string;
  vin: number;
}

export interface BitcoinChainOptions {
  /**
   * The network whose addresses the chain's API shows (default `regtest`, the devnet's; `mainnet`
   * on the mainnet replica). Blocks keep regtest's proof of work either way: no local miner meets
   * mainnet's difficulty.
   */
  network?: BitcoinNetworkName;
  /** Script the block subsidy and fees are paid to. */
  minerScript: Uint8Array;
  /** Mined transactions' fee rate floor, sat/vB (default 1, the minimum relay fee). */
  minFeeRate?: number;
  now?: () => number;
}

/** Bitcoin Core's minimum relay fee: 1 sat/vB. */
export const MIN_RELAY_SATS_PER_VBYTE = 1;
/** Bitcoin Core's incremental relay fee: what a replacement pays on top, per vbyte of itself. */
const INCREMENTAL_RELAY_SATS_PER_VBYTE = 1n;
const COINBASE_MATURITY = 100;
const MAX_BLOCK_WEIGHT = 4_000_000;
/** Room kept for the coinbase in a block (as Bitcoin Core's block assembler keeps). */
const COINBASE_WEIGHT_RESERVE = 4_000;
/** regtest's proof-of-work limit: about every other header hash meets it. */
const REGTEST_BITS = 0x207fffff;
const BLOCK_VERSION = 0x20000000;
/** regtest halves the subsidy every 150 blocks. */
const SUBSIDY_HALVING_INTERVAL = 150;
const INITIAL_SUBSIDY = 50n * 100_000_000n;
const FINAL_SEQUENCE = 0xffffffff;
/** BIP125: an input with a lower sequence signals that its transaction may be replaced. */
const MAX_BIP125_RBF_SEQUENCE = 0xfffffffd;
const LOCKTIME_THRESHOLD = 500_000_000;

/**
 * An in-memory Bitcoin chain: blocks with Bitcoin headers (regtest proof of work), the UTXO set, a
 * mempool with Bitcoin Core's acceptance rules (inputs, witnesses, fees, dust, BIP125 replacement)
 * and a miner that takes packages (a transaction with its unconfirmed ancestors) paying at least
 * its fee-rate floor, best package fee rate first. No peers, no reorgs.
 */
export class BitcoinChain {
  readonly blocks: ChainBlock[] = [];
  private readonly transactions = new Map<string, ChainTransaction>();
  /** Outputs not yet spent, confirmed or in the mempool (OP_RETURN outputs never are). */
  private readonly unspent = new Set<string>();
  /** Outputs spent, by a block or the mempool. */
  private readonly spentBy = new Map<string, Outspend>();
  /** Mempool txids in arrival order: a child always arrives after its parents. */
  private readonly mempool = new Set<string>();
  /** Txids touching each script (paying it or spending from it), keyed by the script's hex. */
  private readonly byScript = new Map<string, Set<string>>();
  private readonly now: () => number;
  /** Bumped on every mempool change: feeEstimate's projection is kept until then. */
  private mempoolVersion = 0;
  private projection?: { version: number; packages: { entry: ChainTransaction; packageRate: number }[] };
  minFeeRate: number;
  readonly network: BitcoinNetworkName;

  constructor(private readonly options: BitcoinChainOptions) {
    this.network = options.network ?? 'regtest';
    this.minFeeRate = options.minFeeRate ?? MIN_RELAY_SATS_PER_VBYTE;
    this.now = options.now ?? Date.now;
  }

  get tip(): ChainBlock {
    return this.blocks[this.blocks.length - 1];
  }

  transaction(txid: string): ChainTransaction | undefined {
    return this.transactions.get(txid);
  }

  outspend(txid: string, vout: number): Outspend | undefined {
    return this.spentBy.get(outpointKey(txid, vout));
  }

  isUnspent(txid: string, vout: number): boolean {
    return this.unspent.has(outpointKey(txid, vout));
  }

  /** Transactions touching `script`, mempool ones first (newest first), then confirmed, newest first. */
  transactionsOf(script: Uint8Array): ChainTransaction[] {
    const txids = [...(this.byScript.get(Buffer.from(script).toString('hex')) ?? [])];
    const found = txids.map((txid) => this.knownTransaction(txid));
    const mempoolOrder = [...this.mempool];
    return found.sort((a, b) => {
      if (!a.block || !b.block) {
        if (a.block) return 1;
        if (b.block) return -1;
        return mempoolOrder.indexOf(b.txid) - mempoolOrder.indexOf(a.txid);
      }
      return (
        b.block.height - a.block.height ||
        this.blocks[a.block.height].txids.indexOf(b.txid) - this.blocks[a.block.height].txids.indexOf(a.txid)
      );
    });
  }

  mempoolTransactions(): ChainTransaction[] {
    return [...this.mempool].map((txid) => this.knownTransaction(txid));
  }

  /**
   * A transaction the chain itself named (in a block's txids, an outspend, the mempool, a script's
   * index): it holds every one of those, so one it does not hold is a broken invariant.
   */
  knownTransaction(txid: string): ChainTransaction {
    const entry = this.transactions.get(txid);
    if (!entry) throw new Error(`the chain names transaction ${txid} but does not hold it`);
    return entry;
  }

  /**
   * Accepts a raw transaction into the mempool, as bitcoind's sendrawtransaction does; returns the
   * txid (also for a transaction already in the mempool). Throws BitcoinRejection.
   */
  submit(hex: string): string {
    const tx = decodeRawTransaction(hex);
    const txid = tx.id;
    const known = this.transactions.get(txid);
    if (known?.block) throw new BitcoinRejection(-27, 'Transaction already in block chain');
    if (known) return txid;
    checkTransactionShape(tx);

    const conflicts = new Set<string>();
    const prevouts: Prevout[] = [];
    for (let i = 0; i < tx.inputsLength; i++) {
      const spent = spentOutpoint(tx, i);
      const key = outpointKey(spent.txid, spent.vout);
      const parent = this.transactions.get(spent.txid);
      const spender = this.spentBy.get(key);
      if (!parent || (!this.unspent.has(key) && !(spender && this.mempool.has(spender.txid))))
        throw new BitcoinRejection(-25, 'bad-txns-inputs-missingorspent');
      if (spender) conflicts.add(spender.txid);
      if (parent.isCoinbase && this.tip.height + 1 - parent.block.height < COINBASE_MATURITY)
        throw new BitcoinRejection(
          -26,
          `bad-txns-premature-spend-of-coinbase, tried to spend coinbase at depth ${this.tip.height + 1 - parent.block.height}`,
        );
      const output = outputAt(parent.tx, spent.vout);
      prevouts.push({ script: output.script, value: output.amount });
    }
    this.checkFinal(tx);

    const valueIn = prevouts.reduce((sum, p) => sum + p.value, 0n);
    let valueOut = 0n;
    for (let i = 0; i < tx.outputsLength; i++) valueOut += outputAt(tx, i).amount;
    if (valueIn < valueOut) throw new BitcoinRejection(-26, `bad-txns-in-belowout, ${valueIn} < ${valueOut}`);
    verifyInputScripts(tx, prevouts);

    const fee = valueIn - valueOut;
    // Counted from the serialisation: scriptSig bytes (a nested SegWit spend's redeem script) weigh
    // 4 units each, witness bytes 1.
    const vsize = transactionVsize(tx);
    const minFee = BigInt(vsize * MIN_RELAY_SATS_PER_VBYTE);
    if (fee < minFee) throw new BitcoinRejection(-26, `min relay fee not met, ${fee} < ${minFee}`);
    const replaced = this.checkReplacement(txid, tx, fee, vsize, conflicts);

    for (const old of replaced) this.removeFromMempool(old);
    const raw = tx.toBytes(true, true);
    this.add({
      txid,
      tx,
      raw,
      prevouts,
      isCoinbase: false,
      fee,
      vsize,
      weight: transactionWeight(tx),
      size: raw.length,
    });
    this.mempool.add(txid);
    this.mempoolVersion++;
    return txid;
  }

  /**
   * Mines one block: a coinbase paying the subsidy and fees to the miner (and `extraOutputs`, the
   * devnet's funding), then the mempool transactions as Bitcoin Core's block assembler picks them
   * (blockTemplate): by ancestor-package fee rate, at least the floor, parents before children.
   */
  mineBlock(extraOutputs: { script: Uint8Array; amount: bigint }[] = []): ChainBlock {
    const height = this.blocks.length;
    const included = this.blockTemplate(MAX_BLOCK_WEIGHT - COINBASE_WEIGHT_RESERVE, this.minFeeRate).map(
      (p) => p.entry,
    );
    const fees = included.reduce((sum, t) => sum + t.fee, 0n);
    const coinbase = this.coinbase(height, [
      { script: this.options.minerScript, amount: subsidyAt(height) + fees },
      ...extraOutputs,
    ]);
    const txids = [coinbase.txid, ...included.map((t) => t.txid)];
    const previous = this.blocks[height - 1];
    const block = this.sealBlock(height, previous, txids);
    block.size = 80 + coinbase.size + included.reduce((sum, t) => sum + t.size, 0);
    block.weight = 320 + coinbase.weight + included.reduce((sum, t) => sum + t.weight, 0);
    this.blocks.push(block);
    const placement = { height, hash: block.hash, time: block.time };
    this.add({ ...coinbase, isCoinbase: true, block: placement });
    for (const t of included) {
      t.block = placement;
      this.mempool.delete(t.txid);
    }
    this.mempoolVersion++;
    return block;
  }

  /**
   * What a block of `maxWeight` takes from the mempool, in block order, as Bitcoin Core's
   * BlockAssembler (addPackageTxs) does: repeatedly the transaction whose ancestor package (itself
   * and its ancestors not yet taken) pays the highest fee rate (package fees / package vsize), with
   * that package, parents first; it stops when the best package pays under `minRate`. A package
   * too heavy for the room left is passed over. So a child paying enough lifts its parent (CPFP),
   * and a parent paying enough never carries its low-fee child along. Each entry carries the
   * package rate it was taken at.
   */
  blockTemplate(maxWeight: number, minRate: number): { entry: ChainTransaction; packageRate: number }[] {
    const order = [...this.mempool];
    const position = new Map(order.map((txid, i) => [txid, i]));
    const taken = new Set<string>();
    const passedOver = new Set<string>();
    const picked: { entry: ChainTransaction; packageRate: number }[] = [];
    let weight = 0;
    for (;;) {
      let best: { package: ChainTransaction[]; rate: number } | undefined;
      for (const txid of order) {
        if (taken.has(txid) || passedOver.has(txid)) continue;
        const pkg = this.ancestorPackage(txid, taken, position);
        const rate =
          Number(pkg.reduce((sum, t) => sum + t.fee, 0n)) / pkg.reduce((sum, t) => sum + t.vsize, 0);
        if (!best || rate > best.rate) best = { package: pkg, rate };
      }
      if (!best || best.rate < minRate) return picked;
      const candidate = best.package[best.package.length - 1];
      const packageWeight = best.package.reduce((sum, t) => sum + t.weight, 0);
      if (weight + packageWeight > maxWeight) {
        passedOver.add(candidate.txid);
        continue;
      }
      for (const entry of best.package) {
        taken.add(entry.txid);
        picked.push({ entry, packageRate: best.rate });
      }
      weight += packageWeight;
    }
  }

  /**
   * `txid` and its mempool ancestors not in `taken`, in arrival order (parents before children: a
   * child always arrives after its parents, and a replacement evicts the descendants of what it
   * replaces).
   */
  private ancestorPackage(
    txid: string,
    taken: Set<string>,
    position: Map<string, number>,
  ): ChainTransaction[] {
    const found = new Set<string>();
    const visit = (id: string) => {
      if (found.has(id) || taken.has(id) || !this.mempool.has(id)) return;
      found.add(id);
      const entry = this.knownTransaction(id);
      for (let i = 0; i < entry.tx.inputsLength; i++) visit(spentOutpoint(entry.tx, i).txid);
    };
    visit(txid);
    const arrival = (id: string): number => {
      const at = position.get(id);
      if (at === undefined) throw new Error(`mempool transaction ${id} has no arrival position`);
      return at;
    };
    return [...found].sort((a, b) => arrival(a) - arrival(b)).map((id) => this.knownTransaction(id));
  }

  /**
   * Fee rate (sat/vB) that gets a transaction into the next `target` blocks: the mempool as the
   * miner would take it (blockTemplate, by ancestor-package fee rate, no floor) fills projected
   * blocks; when it fills `target` of them, the package rate of the last package in them (a
   * newcomer must outbid it), else the miner's floor. Never under the floor or 1 sat/vB.
   */
  feeEstimate(target: number): number {
    const floor = Math.max(this.minFeeRate, MIN_RELAY_SATS_PER_VBYTE);
    const capacity = (MAX_BLOCK_WEIGHT - COINBASE_WEIGHT_RESERVE) * target;
    // Every target reads the same projection: computed once per mempool state.
    if (!this.projection || this.projection.version !== this.mempoolVersion)
      this.projection = {
        version: this.mempoolVersion,
        packages: this.blockTemplate(Number.POSITIVE_INFINITY, 0),
      };
    let filled = 0;
    for (const { entry, packageRate } of this.projection.packages) {
      filled += entry.weight;
      if (filled >= capacity) return Math.max(floor, packageRate);
    }
    return floor;
  }

  /**
   * Takes `txid` and its descendants out of the mempool, as a node evicting it (restart, memory
   * limit, expiry) does: their inputs are unspent again. Answers the txids evicted.
   */
  evict(txid: string): string[] {
    if (!this.mempool.has(txid)) return [];
    const evicted = this.withDescendants([txid]);
    for (const id of [...evicted].reverse()) this.removeFromMempool(id);
    return evicted;
  }

  private checkFinal(tx: btc.Transaction): void {
    if (tx.lockTime === 0) return;
    let allFinal = true;
    for (let i = 0; i < tx.inputsLength; i++)
      if (tx.getInput(i).sequence !== FINAL_SEQUENCE) allFinal = false;
    if (allFinal) return;
    const nextHeight = this.tip.height + 1;
    const locked =
      tx.lockTime < LOCKTIME_THRESHOLD ? tx.lockTime >= nextHeight : tx.lockTime >= this.medianTimePast();
    if (locked) throw new BitcoinRejection(-26, 'non-final');
  }

  /**
   * BIP125 as Bitcoin Core applies it: every directly conflicting transaction signals replaceability,
   * the replacement spends none of their outputs, pays a higher fee rate than each, at least their
   * fees and those of their descendants, plus the incremental relay fee for its own size. Returns
   * the txids to evict (the conflicts and their descendants).
   */
  private checkReplacement(
    txid: string,
    tx: btc.Transaction,
    fee: bigint,
    vsize: number,
    conflicts: Set<string>,
  ): string[] {
    if (conflicts.size === 0) return [];
    for (const conflict of conflicts) {
      const original = this.knownTransaction(conflict);
      if (!signalsReplaceability(original.tx)) throw new BitcoinRejection(-26, 'txn-mempool-conflict');
      const newRate = Number(fee) / vsize;
      const oldRate = Number(original.fee) / original.vsize;
      if (newRate <= oldRate)
        throw new BitcoinRejection(
          -26,
          `insufficient fee, rejecting replacement ${txid}; new feerate ${btcPerKvb(newRate)} BTC/kvB <= old feerate ${btcPerKvb(oldRate)} BTC/kvB`,
        );
    }
    const evicted = this.withDescendants([...conflicts]);
    for (let i = 0; i < tx.inputsLength; i++) {
      if (evicted.includes(spentOutpoint(tx, i).txid))
        throw new BitcoinRejection(
          -26,
          `bad-txns-spends-conflicting-tx, ${txid} spends conflicting transaction`,
        );
    }
    const evictedFees = evicted.reduce((sum, id) => sum + this.knownTransaction(id).fee, 0n);
    if (fee < evictedFees)
      throw new BitcoinRejection(
        -26,
        `insufficient fee, rejecting replacement ${txid}, less fees than conflicting txs; ${fee} < ${evictedFees}`,
      );
    const required = BigInt(vsize) * INCREMENTAL_RELAY_SATS_PER_VBYTE;
    if (fee - evictedFees < required)
      throw new BitcoinRejection(
        -26,
        `insufficient fee, rejecting replacement ${txid}, not enough additional fees to relay; ${fee - evictedFees} < ${required}`,
      );
    return evicted;
  }

  /** The txids and all their mempool descendants, children after parents. */
  private withDescendants(txids: string[]): string[] {
    const found = new Set(txids);
    for (const candidate of this.mempoolTransactions()) {
      for (let i = 0; i < candidate.tx.inputsLength; i++) {
        if (found.has(spentOutpoint(candidate.tx, i).txid)) found.add(candidate.txid);
      }
    }
    return [...found];
  }

  /** Evicts a mempool transaction (its descendants must be evicted first or with it). */
  private removeFromMempool(txid: string): void {
    const entry = this.knownTransaction(txid);
    for (let i = 0; i < entry.tx.inputsLength; i++) {
      const spent = spentOutpoint(entry.tx, i);
      const key = outpointKey(spent.txid, spent.vout);
      this.spentBy.delete(key);
      if (this.transactions.has(spent.txid)) this.unspent.add(key);
    }
    for (let vout = 0; vout < entry.tx.outputsLength; vout++) this.unspent.delete(outpointKey(txid, vout));
    this.transactions.delete(txid);
    this.mempool.delete(txid);
    this.mempoolVersion++;
    for (const script of this.scriptsOf(entry)) this.byScript.get(script)?.delete(txid);
  }

  private add(entry: ChainTransaction): void {
    this.transactions.set(entry.txid, entry);
    if (!entry.isCoinbase) {
      for (let i = 0; i < entry.tx.inputsLength; i++) {
        const spent = spentOutpoint(entry.tx, i);
        const key = outpointKey(spent.txid, spent.vout);
        this.unspent.delete(key);
        this.spentBy.set(key, { txid: entry.txid, vin: i });
      }
    }
    for (let vout = 0; vout < entry.tx.outputsLength; vout++) {
      if (outputAt(entry.tx, vout).script[0] !== 0x6a) this.unspent.add(outpointKey(entry.txid, vout));
    }
    for (const script of this.scriptsOf(entry)) {
      const touching = this.byScript.get(script) ?? new Set<string>();
      touching.add(entry.txid);
      this.byScript.set(script, touching);
    }
  }

  private scriptsOf(entry: ChainTransaction): Set<string> {
    const scripts = new Set<string>();
    for (const prevout of entry.prevouts)
      if (prevout) scripts.add(Buffer.from(prevout.script).toString('hex'));
    for (let vout = 0; vout < entry.tx.outputsLength; vout++)
      scripts.add(Buffer.from(outputAt(entry.tx, vout).script).toString('hex'));
    return scripts;
  }

  /** A coinbase carrying the height (BIP34), so every coinbase has its own txid. */
  private coinbase(height: number, outputs: { script: Uint8Array; amount: bigint }[]): TransactionRecord {
    const raw = btc.RawTx.encode({
      version: 2,
      segwitFlag: false,
      inputs: [
        {
          txid: Buffer.from(NULL_TXID, 'hex'),
          index: FINAL_SEQUENCE,
          finalScriptSig: btc.Script.encode([btc.ScriptNum().encode(BigInt(height)), btc.OP.OP_0]),
          sequence: FINAL_SEQUENCE,
        },
      ],
      outputs,
      witnesses: [],
      lockTime: 0,
    });
    const tx = btc.Transaction.fromRaw(raw, { allowUnknownInputs: true, allowUnknownOutputs: true });
    return {
      txid: tx.id,
      tx,
      raw,
      prevouts: [null],
      fee: 0n,
      vsize: transactionVsize(tx),
      weight: transactionWeight(tx),
      size: raw.length,
    };
  }

  /** The 80-byte header, its nonce ground until the hash meets regtest's target. */
  private sealBlock(height: number, previous: ChainBlock | undefined, txids: string[]): ChainBlock {
    const time = Math.max(Math.floor(this.now() / 1000), previous ? this.medianTimePast() + 1 : 0);
    const merkleRoot = merkleRootOf(txids);
    const prevHash = previous?.hash ?? NULL_TXID;
    const target = targetOf(REGTEST_BITS);
    const header = Buffer.alloc(80);
    header.writeInt32LE(BLOCK_VERSION, 0);
    Buffer.from(prevHash, 'hex').reverse().copy(header, 4);
    Buffer.from(merkleRoot, 'hex').reverse().copy(header, 36);
    header.writeUInt32LE(time, 68);
    header.writeUInt32LE(REGTEST_BITS, 72);
    for (let nonce = 0; ; nonce++) {
      header.writeUInt32LE(nonce, 76);
      const hash = Buffer.from(sha256x2(header)).reverse().toString('hex');
      if (BigInt(`0x${hash}`) <= target) {
        return {
          height,
          hash,
          previousblockhash: previous?.hash ?? null,
          version: BLOCK_VERSION,
          merkleRoot,
          time,
          bits: REGTEST_BITS,
          nonce,
          txids,
          size: 0,
          weight: 0,
        };
      }
    }
  }

  /** Median of the last 11 blocks' times (BIP113): what time locks and new block times compare with. */
  medianTimePast(): number {
    const times = this.blocks
      .slice(-11)
      .map((b) => b.time)
      .sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)] ?? 0;
  }
}

export function subsidyAt(height: number): bigint {
  const halvings = Math.floor(height / SUBSIDY_HALVING_INTERVAL);
  return halvings >= 64 ? 0n : INITIAL_SUBSIDY >> BigInt(halvings);
}

function signalsReplaceability(tx: btc.Transaction): boolean {
  for (let i = 0; i < tx.inputsLength; i++) if (inputSequence(tx, i) <= MAX_BIP125_RBF_SEQUENCE) return true;
  return false;
}

function btcPerKvb(satsPerVbyte: number): string {
  return (satsPerVbyte / 100_000).toFixed(8);
}

/** Bitcoin's merkle root of txids (display order in, display order out). */
export function merkleRootOf(txids: string[]): string {
  let level: Uint8Array[] = txids.map((id) => Buffer.from(id, 'hex').reverse());
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1] ?? level[i];
      next.push(Buffer.from(sha256x2(Buffer.concat([level[i], right]))));
    }
    level = next;
  }
  return Buffer.from(level[0]).reverse().toString('hex');
}

function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return mantissa * 2n ** BigInt(8 * (exponent - 3));
}
