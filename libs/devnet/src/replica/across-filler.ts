import {
  AbiCoder,
  Contract,
  HDNodeWallet,
  JsonRpcProvider,
  keccak256,
  Log,
  MaxUint256,
  ZeroHash,
} from 'ethers';
import {
  ACROSS_FUNDS_DEPOSITED_TOPIC,
  ACROSS_RELAY_DATA,
  ACROSS_SPOKE_POOL_INTERFACE,
} from '@swapgw/chains/families';
import type { RelayerLogger } from '../bridge/bridge-relayer';

/** V3RelayData: exactly the deposit's fields, plus the origin chain it was made on. */
export interface AcrossRelayData {
  depositor: string;
  recipient: string;
  exclusiveRelayer: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  outputAmount: bigint;
  originChainId: bigint;
  depositId: bigint;
  fillDeadline: number;
  exclusivityDeadline: number;
  message: string;
}

export interface AcrossDeposit {
  relayData: AcrossRelayData;
  destinationChainId: bigint;
  depositTxHash: string;
}

/** One chain the filler watches and fills on. */
export interface AcrossFillerChain {
  id: string;
  chainId: number;
  provider: JsonRpcProvider;
  /** The relayer's wallet on this chain (connected to `provider`). */
  relayer: HDNodeWallet;
  spokePool: string;
}

export interface AcrossFillerOptions {
  pollIntervalMs: number;
  logger: RelayerLogger;
}

/** What the filler did with a deposit; `filled` carries the fill transaction. */
export type AcrossFillOutcome =
  | { status: 'filled'; fillTxHash: string }
  | { status: 'already-filled' }
  | { status: 'expired' }
  | { status: 'exclusive-to-another-relayer' }
  | { status: 'unknown-destination' };

const CONTEXT = 'AcrossFiller';
/** FillStatus.Filled of the SpokePool's fillStatuses. */
const FILL_STATUS_FILLED = 2n;

/**
 * The relayer's part of Across on the mainnet replica, done as Across documents it: watch every
 * chain's SpokePool for FundsDeposited, and on the destination chain call
 * `fillRelay(relayData, repaymentChainId, repaymentAddress)` with the relayer's own funds, relayData
 * exactly the deposit's fields. The SpokePool pays the recipient `outputAmount` of `outputToken`
 * (WETH to an EOA unwrapped to ETH) and calls `handleV3AcrossMessage` on a contract recipient when
 * the message is not empty (with gas for it: fillGasLimit). Repayment is asked for on the destination chain, to the relayer (there
 * is no HubPool on the replica to settle it: the relayer's funds are its own loss).
 *
 * Idempotent per (originChainId, depositId): a deposit leaves the queue once filled, and before
 * filling the filler reads the relay hash's fillStatuses on chain, so a restart never fills twice.
 * A deposit whose fillDeadline has passed on the destination chain is dropped, never filled; one
 * exclusive to another relayer waits until its exclusivityDeadline has passed.
 */
export class AcrossFiller {
  private readonly byChainId = new Map<bigint, AcrossFillerChain>();
  private readonly nextBlock = new Map<string, number>();
  private readonly pending = new Map<string, AcrossDeposit>();
  private readonly outcomes = new Map<string, AcrossFillOutcome>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly chains: AcrossFillerChain[],
    private readonly options: AcrossFillerOptions,
  ) {
    for (const chain of chains) this.byChainId.set(BigInt(chain.chainId), chain);
  }

  /** Watches from each chain's current block; polls once before returning, then on the interval. */
  async start(): Promise<void> {
    for (const chain of this.chains)
      this.nextBlock.set(chain.id, (await chain.provider.getBlockNumber()) + 1);
    await this.pollOnce();
    this.schedule();
  }

  /** Stops polling after the round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** What became of the deposit (originChainId, depositId), once the filler has settled it. */
  outcomeOf(originChainId: number | bigint, depositId: number | bigint): AcrossFillOutcome | undefined {
    return this.outcomes.get(depositKey(BigInt(originChainId), BigInt(depositId)));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pollOnce().finally(() => this.schedule());
    }, this.options.pollIntervalMs);
  }

  /** One round: new deposits from every chain, then each pending deposit, destinations in parallel. */
  async pollOnce(): Promise<void> {
    for (const chain of this.chains) {
      if (this.stopped) return;
      try {
        for (const deposit of await this.depositsOn(chain)) {
          const key = depositKey(deposit.relayData.originChainId, deposit.relayData.depositId);
          if (!this.pending.has(key) && !this.outcomes.has(key)) this.pending.set(key, deposit);
        }
      } catch (error) {
        this.options.logger.warn(
          { msg: 'polling deposits failed', chain: chain.id, error: (error as Error).message },
          CONTEXT,
        );
      }
    }
    // One wallet per destination chain: its fills go one after another, chains side by side.
    const byDestination = new Map<bigint, [string, AcrossDeposit][]>();
    for (const entry of this.pending)
      byDestination.set(entry[1].destinationChainId, [
        ...(byDestination.get(entry[1].destinationChainId) ?? []),
        entry,
      ]);
    await Promise.all(
      [...byDestination.values()].map(async (entries) => {
        for (const [key, deposit] of entries) {
          if (this.stopped) return;
          await this.settle(key, deposit);
        }
      }),
    );
  }

  private async depositsOn(chain: AcrossFillerChain): Promise<AcrossDeposit[]> {
    const from = this.nextBlock.get(chain.id) ?? 0;
    const latest = await chain.provider.getBlockNumber();
    if (latest < from) return [];
    const logs = await chain.provider.getLogs({
      address: chain.spokePool,
      topics: [ACROSS_FUNDS_DEPOSITED_TOPIC],
      fromBlock: from,
      toBlock: latest,
    });
    this.nextBlock.set(chain.id, latest + 1);
    return logs.map((log) => depositOf(log, BigInt(chain.chainId)));
  }

  private async settle(key: string, deposit: AcrossDeposit): Promise<void> {
    const { relayData } = deposit;
    const fields = {
      originChainId: relayData.originChainId.toString(),
      depositId: relayData.depositId.toString(),
      destinationChainId: deposit.destinationChainId.toString(),
      depositTxHash: deposit.depositTxHash,
    };
    const done = (outcome: AcrossFillOutcome, level: 'log' | 'warn' = 'log') => {
      this.pending.delete(key);
      this.outcomes.set(key, outcome);
      this.options.logger[level]({ msg: `across deposit ${outcome.status}`, ...fields, ...outcome }, CONTEXT);
    };
    const destination = this.byChainId.get(deposit.destinationChainId);
    if (!destination) return done({ status: 'unknown-destination' }, 'warn');
    try {
      const pool = new Contract(destination.spokePool, ACROSS_SPOKE_POOL_INTERFACE, destination.relayer);
      const relayHash = acrossRelayHash(relayData, deposit.destinationChainId);
      if (((await pool.fillStatuses(relayHash)) as bigint) === FILL_STATUS_FILLED)
        return done({ status: 'already-filled' });
      const now = (await destination.provider.getBlock('latest'))?.timestamp ?? 0;
      // fillRelay reverts once fillDeadline < block.timestamp; the next block is at least `now`.
      if (relayData.fillDeadline <= now) return done({ status: 'expired' }, 'warn');
      const relayer = toBytes32(destination.relayer.address);
      const exclusive = relayData.exclusivityDeadline >= now && relayData.exclusiveRelayer !== ZeroHash;
      if (exclusive && relayData.exclusiveRelayer.toLowerCase() !== relayer.toLowerCase()) return; // wait
      const args = [relayTuple(relayData), deposit.destinationChainId, relayer] as const;
      const gasLimit = fillGasLimit(await pool.fillRelay.estimateGas(...args), relayData.message);
      const tx = (await pool.fillRelay(...args, { gasLimit })) as {
        wait(): Promise<{ status: number | null; hash: string } | null>;
      };
      const receipt = await tx.wait();
      if (!receipt || receipt.status !== 1) throw new Error('fillRelay reverted');
      done({ status: 'filled', fillTxHash: receipt.hash });
    } catch (error) {
      this.options.logger.warn(
        { msg: 'fill failed; will retry', ...fields, error: (error as Error).message },
        CONTEXT,
      );
    }
  }
}

/**
 * The gas a fill is sent with: the node's estimate, and for a fill with a message (the SpokePool then
 * calls the recipient's handleV3AcrossMessage) a fifth more plus FILL_MESSAGE_GAS_EXTRA. The estimate
 * already covers the handler's swap (our router's handler reverts rather than skip the swap for want
 * of gas, so the estimate cannot settle for less); the margin absorbs what the mined block costs more
 * than the pending one (a pool's first write in a block, 63/64 of the gas forwarded per call).
 */
export function fillGasLimit(estimate: bigint, message: string): bigint {
  if (message === '0x' || message === '') return estimate;
  return estimate + estimate / 5n + FILL_MESSAGE_GAS_EXTRA;
}

const FILL_MESSAGE_GAS_EXTRA = 50_000n;

/** The relayer approves each chain's SpokePool once per output token: fills pull with transferFrom. */
export async function approveSpokePool(
  relayer: HDNodeWallet,
  spokePool: string,
  tokens: string[],
): Promise<void> {
  for (const token of tokens) {
    const erc20 = new Contract(token, ['function approve(address,uint256) returns (bool)'], relayer);
    const receipt = await (
      (await erc20.approve(spokePool, MaxUint256)) as { wait(): Promise<{ status: number | null } | null> }
    ).wait();
    if (!receipt || receipt.status !== 1) throw new Error(`approving ${spokePool} for ${token} reverted`);
  }
}

/** A FundsDeposited log as the relay data a fill must carry (the origin is the log's chain). */
export function depositOf(log: Log, originChainId: bigint): AcrossDeposit {
  const event = ACROSS_SPOKE_POOL_INTERFACE.parseLog(log);
  if (!event) throw new Error(`log ${log.transactionHash}:${log.index} is not FundsDeposited`);
  const a = event.args;
  return {
    relayData: {
      depositor: a.depositor as string,
      recipient: a.recipient as string,
      exclusiveRelayer: a.exclusiveRelayer as string,
      inputToken: a.inputToken as string,
      outputToken: a.outputToken as string,
      inputAmount: a.inputAmount as bigint,
      outputAmount: a.outputAmount as bigint,
      originChainId,
      depositId: a.depositId as bigint,
      fillDeadline: Number(a.fillDeadline),
      exclusivityDeadline: Number(a.exclusivityDeadline),
      message: a.message as string,
    },
    destinationChainId: a.destinationChainId as bigint,
    depositTxHash: log.transactionHash,
  };
}

/** SpokePool.getV3RelayHash: keccak256(abi.encode(relayData, chainId())) on the destination. */
export function acrossRelayHash(relayData: AcrossRelayData, destinationChainId: bigint): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      [ACROSS_RELAY_DATA, 'uint256'],
      [relayTuple(relayData), destinationChainId],
    ),
  );
}

function relayTuple(r: AcrossRelayData): unknown[] {
  return [
    r.depositor,
    r.recipient,
    r.exclusiveRelayer,
    r.inputToken,
    r.outputToken,
    r.inputAmount,
    r.outputAmount,
    r.originChainId,
    r.depositId,
    r.fillDeadline,
    r.exclusivityDeadline,
    r.message,
  ];
}

const depositKey = (originChainId: bigint, depositId: bigint) => `${originChainId}:${depositId}`;
const toBytes32 = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
