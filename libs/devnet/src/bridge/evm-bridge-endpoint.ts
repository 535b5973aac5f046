import { Contract, EventLog, JsonRpcProvider, Wallet, HDNodeWallet } from 'ethers';
import { DEVNET_BRIDGE_ABI } from '../contracts/abis';
import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';

export interface EvmBridgeEndpointOptions {
  chain: string;
  chainId: number;
  bridgeAddress: string;
  provider: JsonRpcProvider;
  /** The relayer key: the only signer the bridge accepts for `release`. */
  relayer: Wallet | HDNodeWallet;
  /** A deposit counts once its block has this many confirmations (1 = its own block). */
  confirmations?: number;
}

/** The DevnetBridge contract on an EVM chain. */
export class EvmBridgeEndpoint implements BridgeEndpoint {
  readonly chain: string;
  readonly bridgeChainId: bigint;
  private readonly bridge: Contract;
  private readonly confirmations: number;
  private nextBlock = 0;

  constructor(private readonly options: EvmBridgeEndpointOptions) {
    this.chain = options.chain;
    this.bridgeChainId = BigInt(options.chainId);
    this.confirmations = options.confirmations ?? 1;
    this.bridge = new Contract(options.bridgeAddress, DEVNET_BRIDGE_ABI, options.relayer.connect(options.provider));
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    const confirmedTip = (await this.options.provider.getBlockNumber()) - (this.confirmations - 1);
    if (confirmedTip < this.nextBlock) return [];
    const events = await this.bridge.queryFilter(this.bridge.filters.Deposit(), this.nextBlock, confirmedTip);
    this.nextBlock = confirmedTip + 1;
    return events
      .filter((e): e is EventLog => e instanceof EventLog)
      .map((e) => ({
        sourceChain: this.chain,
        sourceBridgeChainId: this.bridgeChainId,
        nonce: e.args.nonce as bigint,
        destinationBridgeChainId: e.args.destinationChainId as bigint,
        recipient: e.args.recipient as string,
        amount: e.args.amountAfterFee as bigint,
        depositTxHash: e.transactionHash,
      }));
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    // Checked first so a retry after an unknown outcome costs no gas; the contract is the guard.
    if ((await this.bridge.released(transfer.sourceBridgeChainId, transfer.nonce)) as boolean) {
      return { status: 'already-released' };
    }
    const tx = (await this.bridge.release(transfer.sourceBridgeChainId, transfer.nonce, transfer.recipient, transfer.amount)) as {
      hash: string;
      wait(): Promise<{ status: number | null } | null>;
    };
    const receipt = await tx.wait();
    if (!receipt || receipt.status !== 1) throw new Error(`release transaction ${tx.hash} reverted`);
    return { status: 'released', txHash: tx.hash };
  }

  async close(): Promise<void> {
    this.options.provider.destroy();
  }
}
