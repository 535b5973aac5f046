import { Contract, EventLog, JsonRpcProvider, Wallet, HDNodeWallet, getAddress, isAddress } from 'ethers';
import { bytes32ToSolanaAddress } from '@swapgw/chains/solana-bridge';
import { bytes32ToBitcoinAddress } from '@swapgw/chains/bitcoin-bridge';
import { cosmosAccountOfBytes32 } from '@swapgw/chains/families';
import { DEVNET_BRIDGE_ABI } from '../contracts/abis';
import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';
import { RelayerLogger } from './bridge-relayer';

export interface EvmBridgeEndpointOptions {
  chain: string;
  chainId: number;
  bridgeAddress: string;
  provider: JsonRpcProvider;
  /** The relayer key: the only signer the bridge accepts for `release`. */
  relayer: Wallet | HDNodeWallet;
  /** A deposit counts once its block has this many confirmations (1 = its own block). */
  confirmations?: number;
  /** Bridge chain ids of Solana endpoints: a `depositTo` recipient for them is rendered base58. */
  solanaBridgeChainIds?: bigint[];
  /**
   * Bridge chain ids of Bitcoin endpoints: a `depositTo` recipient for them is a witness program
   * (bytes32ToBitcoinAddress), rendered as a regtest address.
   */
  bitcoinBridgeChainIds?: bigint[];
  /**
   * Bridge chain ids of Noble (Cosmos) endpoints: a `depositTo` recipient for them is a 20-byte
   * account left-padded to 32 bytes (as a CCTP mint_recipient), rendered `noble1…`.
   */
  nobleBridgeChainIds?: bigint[];
  /** Where deposits that can never be paid are reported (they are dropped, not retried). */
  logger?: RelayerLogger;
}

const CONTEXT = 'EvmBridgeEndpoint';
/** Extra gas over the node's estimate for a release whose recipient's handler runs (a swap). */
const RELEASE_WITH_MESSAGE_GAS_MARGIN_PERCENT = 25n;

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
    this.bridge = new Contract(
      options.bridgeAddress,
      DEVNET_BRIDGE_ABI,
      options.relayer.connect(options.provider),
    );
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    const confirmedTip = (await this.options.provider.getBlockNumber()) - (this.confirmations - 1);
    if (confirmedTip < this.nextBlock) return [];
    const [deposits, depositsTo, depositsWithMessage] = await Promise.all([
      this.bridge.queryFilter(this.bridge.filters.Deposit(), this.nextBlock, confirmedTip),
      this.bridge.queryFilter(this.bridge.filters.DepositTo(), this.nextBlock, confirmedTip),
      this.bridge.queryFilter(this.bridge.filters.DepositWithMessage(), this.nextBlock, confirmedTip),
    ]);
    this.nextBlock = confirmedTip + 1;
    const transfers: BridgeTransfer[] = [];
    // The events share the nonce sequence; ordered by position so releases follow deposit order.
    const events = [...deposits, ...depositsTo, ...depositsWithMessage]
      .filter((e): e is EventLog => e instanceof EventLog)
      .sort((x, y) => x.blockNumber - y.blockNumber || x.index - y.index);
    for (const e of events) {
      const destinationBridgeChainId = e.args.destinationChainId as bigint;
      const recipient = this.recipientFor(e, destinationBridgeChainId);
      if (recipient === undefined) continue;
      transfers.push({
        sourceChain: this.chain,
        sourceBridgeChainId: this.bridgeChainId,
        nonce: e.args.nonce as bigint,
        destinationBridgeChainId,
        recipient,
        amount: e.args.amountAfterFee as bigint,
        depositTxHash: e.transactionHash,
        ...(e.eventName === 'DepositWithMessage' ? { message: e.args.message as string } : {}),
      });
    }
    return transfers;
  }

  /**
   * The recipient in the destination's format, or undefined (logged) when the deposit names one the
   * destination cannot pay: an EVM address for Solana, or 32 bytes that are not an address for EVM.
   */
  private recipientFor(e: EventLog, destination: bigint): string | undefined {
    const toSolana = this.options.solanaBridgeChainIds?.includes(destination) ?? false;
    const toBitcoin = this.options.bitcoinBridgeChainIds?.includes(destination) ?? false;
    const toNoble = this.options.nobleBridgeChainIds?.includes(destination) ?? false;
    const fields = {
      chain: this.chain,
      nonce: (e.args.nonce as bigint).toString(),
      depositTxHash: e.transactionHash,
      destinationChainId: destination.toString(),
    };
    if (e.eventName === 'Deposit' || e.eventName === 'DepositWithMessage') {
      if (!toSolana && !toBitcoin && !toNoble) return e.args.recipient as string;
      const why =
        e.eventName === 'Deposit'
          ? 'names an EVM recipient; use depositTo'
          : 'carries a message, which only EVM contracts take';
      this.options.logger?.error(
        {
          msg: `deposit to ${toSolana ? 'Solana' : toNoble ? 'Noble' : 'Bitcoin'} ${why}. Not relayed`,
          ...fields,
        },
        CONTEXT,
      );
      return undefined;
    }
    const raw = e.args.recipient as string;
    if (toSolana) return bytes32ToSolanaAddress(raw);
    if (toNoble) {
      const account = cosmosAccountOfBytes32('noble', raw);
      if (account === undefined)
        this.options.logger?.error(
          { msg: 'depositTo Noble with a recipient that is no 20-byte account; not relayed', ...fields },
          CONTEXT,
        );
      return account;
    }
    if (toBitcoin) {
      try {
        return bytes32ToBitcoinAddress(raw, 'regtest');
      } catch (error) {
        this.options.logger?.error(
          {
            msg: 'depositTo Bitcoin with a recipient that is no witness program; not relayed',
            ...fields,
            recipient: raw,
            error: (error as Error).message,
          },
          CONTEXT,
        );
        return undefined;
      }
    }
    const asAddress = `0x${raw.slice(-40)}`;
    if (/^0x0{24}/.test(raw) && isAddress(asAddress)) return getAddress(asAddress);
    this.options.logger?.error(
      {
        msg: 'depositTo an EVM chain with a recipient that is not an address; not relayed',
        ...fields,
        recipient: raw,
      },
      CONTEXT,
    );
    return undefined;
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    // Checked first so a retry after an unknown outcome costs no gas; the contract is the guard.
    if ((await this.bridge.released(transfer.sourceBridgeChainId, transfer.nonce)) as boolean) {
      return { status: 'already-released' };
    }
    const tx = (await (transfer.message === undefined
      ? this.bridge.release(transfer.sourceBridgeChainId, transfer.nonce, transfer.recipient, transfer.amount)
      : this.releaseWithMessage(transfer, transfer.message))) as {
      hash: string;
      wait(): Promise<{ status: number | null } | null>;
    };
    const receipt = await tx.wait();
    if (!receipt || receipt.status !== 1) throw new Error(`release transaction ${tx.hash} reverted`);
    return { status: 'released', txHash: tx.hash };
  }

  /**
   * The release that also calls the recipient's handler. Its gas limit is the node's estimate plus
   * a margin: the handler may try a swap that must not run short of gas (the SwapGatewayRouter
   * reverts rather than settle a swap it lacked the gas for, so the estimate covers the swap). A
   * handler that refuses the message reverts the estimate: the transfer stays pending and is
   * retried, like a release the destination cannot pay yet; no gas is spent on it.
   */
  private async releaseWithMessage(transfer: BridgeTransfer, message: string): Promise<unknown> {
    const args = [
      transfer.sourceBridgeChainId,
      transfer.nonce,
      transfer.recipient,
      transfer.amount,
      message,
    ] as const;
    const estimate = (await this.bridge.releaseWithMessage.estimateGas(...args)) as bigint;
    return this.bridge.releaseWithMessage(...args, {
      gasLimit: (estimate * (100n + RELEASE_WITH_MESSAGE_GAS_MARGIN_PERCENT)) / 100n,
    });
  }

  async close(): Promise<void> {
    this.options.provider.destroy();
  }
}
