import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { msgSendHandler } from './cosmos-bank';
import { runAnte, TxMode } from './cosmos-ante';
import type { CosmosChainSpec } from './cosmos-chain-spec';
import { asCosmosTxError } from './cosmos-errors';
import { msgGrantAllowanceHandler, msgRevokeAllowanceHandler } from './cosmos-feegrant';
import { GasMeter } from './cosmos-gas';
import { CosmosMessageHandler, messageRegistry, MessageRegistry, TxEvent } from './cosmos-messages';
import { Coin, CosmosState, CreditObserver } from './cosmos-state';
import { decodeTx, DecodedTx, txHash } from './cosmos-tx';

/** The modules' messages every devnet Cosmos chain runs: x/bank and x/feegrant. */
export const DEFAULT_MESSAGE_HANDLERS: CosmosMessageHandler[] = [
  msgSendHandler,
  msgGrantAllowanceHandler,
  msgRevokeAllowanceHandler,
];

/** An ABCI result (CheckTx, DeliverTx/ExecTxResult or a simulation). */
export interface TxResult {
  code: number;
  codespace: string;
  log: string;
  /** TxMsgData of the messages' responses (empty when the tx failed). */
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
  events: TxEvent[];
}

/**
 * A block: its height, time and txs. Its hashes are derived on demand from those (and the chain id),
 * so an empty block every second costs a few dozen bytes for as long as the devnet runs.
 */
export class CosmosBlock {
  constructor(
    private readonly chainId: string,
    readonly height: number,
    readonly time: Date,
    readonly txs: Uint8Array[],
    /** The EndBlockers' events (CometBFT 0.38's `finalize_block_events`, read by `block_results`). */
    readonly endBlockEvents: readonly TxEvent[] = [],
  ) {}

  /** Uppercase hex, 32 bytes. */
  get hash(): string {
    return hex(sha256(new TextEncoder().encode(this.digest('block'))));
  }

  get appHash(): string {
    return hex(sha256(new TextEncoder().encode(this.digest('app'))));
  }

  private digest(kind: string): string {
    return `${kind}/${this.chainId}/${this.height}/${this.time.toISOString()}/${this.txs.map(txHash).join(',')}`;
  }
}

export interface IncludedTx {
  hash: string;
  height: number;
  /** Its block's time. */
  time: Date;
  index: number;
  raw: Uint8Array;
  result: TxResult;
  tx: DecodedTx | undefined;
}

/** CometBFT's refusal of a tx already in the mempool or a block (a JSON-RPC error, not a CheckTx code). */
export class TxAlreadyKnownError extends Error {
  constructor() {
    super('tx already exists in cache');
  }
}

/** What a relayer's tx runs against in its block (cosmos-ibc.ts's packet delivery). */
export interface RelayerTxContext {
  state: CosmosState;
  blockTime: Date;
  height: number;
  events: TxEvent[];
}

/** What a module's EndBlocker runs against: the committed state's branch for the block's end. */
export interface EndBlockContext extends RelayerTxContext {
  spec: CosmosChainSpec;
}

/** A module's hooks beyond its messages: its send restriction and its EndBlocker. */
export interface CosmosModuleHooks {
  onCredit?: CreditObserver;
  /** Runs after the block's txs; its writes are kept unless it throws. */
  endBlock?(ctx: EndBlockContext): void;
}

/** Gas a relayer tx reports: IBC core's proof verification and the application callback, fixed. */
export const RELAYER_TX_GAS = 150_000n;

/**
 * One in-process Cosmos SDK chain: the committed state and CheckTx's own state (as baseapp's
 * deliverState/checkState), a mempool, and blocks. A broadcast tx runs the ante handler on the
 * check state (so several txs of one account may be broadcast before a block); `produceBlock`
 * delivers the mempool in order: the ante handler, then each message on a branch, committed only
 * if all succeed (a failed message keeps the fee and the sequence increment, as in the SDK).
 */
export class CosmosChain {
  private readonly state = CosmosState.empty();
  private checkState: CosmosState;
  private readonly endBlockers: NonNullable<CosmosModuleHooks['endBlock']>[] = [];
  private mempool: DecodedTx[] = [];
  private relayerTxs: { raw: Uint8Array; run: (ctx: RelayerTxContext) => void }[] = [];
  private readonly blocks: CosmosBlock[] = [];
  private readonly txs = new Map<string, IncludedTx>();

  constructor(
    readonly spec: CosmosChainSpec,
    readonly registry: MessageRegistry = messageRegistry(DEFAULT_MESSAGE_HANDLERS),
    modules: readonly CosmosModuleHooks[] = [],
  ) {
    for (const module of modules) {
      if (module.onCredit) this.state.observeCredits(module.onCredit);
      if (module.endBlock) this.endBlockers.push(module.endBlock);
    }
    this.checkState = this.state.branch();
  }

  /** Genesis balances: minted before the first block. */
  fund(address: string, coins: Coin[]): void {
    this.state.mint(address, coins);
    this.checkState = this.state.branch();
  }

  /** Genesis writes of a module (pools, …): before the first block. */
  genesis(write: (state: CosmosState) => void): void {
    write(this.state);
    this.checkState = this.state.branch();
  }

  get latestBlock(): CosmosBlock | undefined {
    return this.blocks.at(-1);
  }

  get height(): number {
    return this.blocks.length;
  }

  block(height: number): CosmosBlock | undefined {
    return this.blocks[height - 1];
  }

  /** The committed state, read by queries. */
  get queryState(): CosmosState {
    return this.state;
  }

  /** CheckTx: admits the tx to the mempool or answers the SDK's code. Never throws on bad input. */
  checkTx(raw: Uint8Array): TxResult & { hash: string } {
    const hash = txHash(raw);
    if (this.txs.has(hash) || this.mempool.some((tx) => tx.hash === hash)) throw new TxAlreadyKnownError();
    const branch = this.checkState.branch();
    const result = this.runAnteOnly(branch, raw, 'check');
    if (result.code === 0) {
      this.checkState = branch;
      this.mempool.push(decodeTx(raw, this.registry, this.spec));
    }
    return { ...result, hash };
  }

  /** The Simulate service: the tx run in full on a copy of the check state, signatures unchecked. */
  simulate(raw: Uint8Array): TxResult {
    const { result } = this.runTx(this.checkState.branch(), raw, 'simulate', this.nextBlockTime());
    return result;
  }

  /** The txs in the mempool, in the order they were admitted (CometBFT's `unconfirmed_txs`). */
  mempoolTxs(): readonly Uint8Array[] {
    return this.mempool.map((tx) => tx.raw);
  }

  /** Includes the mempool in a new block; an empty block when there is nothing to include. */
  produceBlock(): CosmosBlock {
    const time = this.nextBlockTime();
    const height = this.blocks.length + 1;
    const included = this.mempool;
    this.mempool = [];
    const raws = included.map((tx) => tx.raw);
    included.forEach((tx, index) => {
      const { result, decoded } = this.runTx(this.state, tx.raw, 'deliver', time);
      this.txs.set(tx.hash, { hash: tx.hash, height, time, index, raw: tx.raw, result, tx: decoded });
    });
    const relayed = this.relayerTxs;
    this.relayerTxs = [];
    relayed.forEach(({ raw, run }, i) => {
      const hash = txHash(raw);
      const result = this.runRelayerTx(run, time, height);
      this.txs.set(hash, { hash, height, time, index: included.length + i, raw, result, tx: undefined });
      raws.push(raw);
    });
    const endBlockEvents = this.runEndBlockers(time, height);
    this.checkState = this.state.branch();
    const block = new CosmosBlock(this.spec.id, height, time, raws, endBlockEvents);
    this.blocks.push(block);
    return block;
  }

  /**
   * A relayer's tx (MsgRecvPacket, MsgAcknowledgement, MsgTimeout), included after the mempool in
   * the next block: `run` writes its effects on a branch kept only if it does not throw. The
   * devnet's relayer is its own trusted process, so no ante handler, fee or signature.
   */
  submitRelayerTx(raw: Uint8Array, run: (ctx: RelayerTxContext) => void): void {
    this.relayerTxs.push({ raw, run });
  }

  private runRelayerTx(run: (ctx: RelayerTxContext) => void, blockTime: Date, height: number): TxResult {
    const branch = this.state.branch();
    const events: TxEvent[] = [];
    try {
      run({ state: branch, blockTime, height, events });
    } catch (error) {
      const refused = asCosmosTxError(error).wrap('failed to execute message; message index: 0');
      return { ...failure(refused, new GasMeter(RELAYER_TX_GAS)), gasUsed: RELAYER_TX_GAS };
    }
    this.state.replaceWith(branch);
    return {
      code: 0,
      codespace: '',
      log: '',
      data: new Uint8Array(),
      gasWanted: RELAYER_TX_GAS,
      gasUsed: RELAYER_TX_GAS,
      events,
    };
  }

  /**
   * The modules' EndBlockers, each on a branch kept only if it does not throw; the events of those
   * kept, in order (the block's `finalize_block_events`).
   */
  private runEndBlockers(blockTime: Date, height: number): TxEvent[] {
    const kept: TxEvent[] = [];
    for (const endBlock of this.endBlockers) {
      const branch = this.state.branch();
      const events: TxEvent[] = [];
      try {
        endBlock({ state: branch, spec: this.spec, blockTime, height, events });
        this.state.replaceWith(branch);
        kept.push(...events);
      } catch {
        // As the SDK logs a failing EndBlocker's module error and carries on with the block.
      }
    }
    return kept;
  }

  includedTx(hash: string): IncludedTx | undefined {
    return this.txs.get(hash.toUpperCase());
  }

  /** Every included tx, in block order (what tx_search filters). */
  includedTxs(): IncludedTx[] {
    return [...this.txs.values()];
  }

  private nextBlockTime(): Date {
    const last = this.latestBlock?.time.getTime() ?? 0;
    return new Date(Math.max(Date.now(), last + 1));
  }

  private runAnteOnly(state: CosmosState, raw: Uint8Array, mode: TxMode): TxResult {
    let gas = new GasMeter(0n);
    try {
      const tx = decodeTx(raw, this.registry, this.spec);
      gas = new GasMeter(tx.gasLimit);
      runAnte(state, tx, this.spec, mode, gas, this.nextBlockTime(), []);
      return {
        code: 0,
        codespace: '',
        log: '',
        data: new Uint8Array(),
        gasWanted: tx.gasLimit,
        gasUsed: gas.consumed,
        events: [],
      };
    } catch (error) {
      return failure(error, gas);
    }
  }

  /**
   * Runs a tx on `state` (written in place): the ante handler on a branch of it, then the messages
   * on a branch of that; each branch kept only if it succeeds.
   */
  private runTx(
    state: CosmosState,
    raw: Uint8Array,
    mode: TxMode,
    blockTime: Date,
  ): { result: TxResult; decoded: DecodedTx | undefined } {
    let gas = new GasMeter(0n);
    let decoded: DecodedTx | undefined;
    const anteState = state.branch();
    const events: TxEvent[] = [];
    try {
      decoded = decodeTx(raw, this.registry, this.spec);
      gas = new GasMeter(mode === 'simulate' ? 0n : decoded.gasLimit);
      runAnte(anteState, decoded, this.spec, mode, gas, blockTime, events);
    } catch (error) {
      return { result: failure(error, gas), decoded };
    }
    state.replaceWith(anteState);
    const msgState = state.branch();
    const responses: { typeUrl: string; value: Uint8Array }[] = [];
    const msgEvents: TxEvent[] = [];
    for (const [index, { handler, msg }] of decoded.messages.entries()) {
      try {
        gas.consume(handler.gas(msg), `message ${handler.typeUrl}`);
        responses.push(
          handler.execute(msg, { state: msgState, gas, spec: this.spec, blockTime, events: msgEvents }),
        );
      } catch (error) {
        const refused = asCosmosTxError(error);
        const wrapped =
          refused.error === 'outOfGas'
            ? refused
            : refused.wrap(`failed to execute message; message index: ${index}`);
        return { result: { ...failure(wrapped, gas), events }, decoded };
      }
    }
    state.replaceWith(msgState);
    return {
      result: {
        code: 0,
        codespace: '',
        log: '',
        data: TxMsgData.encode({ data: [], msgResponses: responses }).finish(),
        gasWanted: decoded.gasLimit,
        gasUsed: gas.consumed,
        events: [...events, ...msgEvents],
      },
      decoded,
    };
  }
}

function failure(error: unknown, gas: GasMeter): TxResult {
  const refused = asCosmosTxError(error);
  return {
    code: refused.code,
    codespace: refused.codespace,
    log: refused.message,
    data: new Uint8Array(),
    gasWanted: gas.limit,
    gasUsed: gas.consumed,
    events: [],
  };
}

function hex(bytes: Uint8Array): string {
  return bytesToHex(bytes).toUpperCase();
}
