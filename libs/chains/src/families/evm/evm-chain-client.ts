import type { TransactionStatusResult } from '@swapgw/contracts';
import type { JsonRpcProvider } from 'ethers';
import type { ChainDescriptor } from '../../chain-descriptor';
import { readErc20Allowance, readEvmBalance } from '../../erc20-reads';
import type { SponsoredFeeRates } from '../../sponsored-gas';
import type {
  BroadcastOutcome,
  PayloadBuild,
  PayloadPolicy,
  ResendOutcome,
  SigningChainClientBase,
  StepPayloadRequest,
  TransactionProgress,
} from '../chain-family';
import { readPayloadChainState } from './evm-chain-state';
import { isRpcUnreachable, revertReasonOf, shortMessageOf } from './evm-chain-errors';
import { buildEvmSigningPayload } from './evm-payload';
import { type DecodedEvmTransaction, sentEvmTransactionOf } from './evm-signed-transaction';
import { replayRevertReason } from './evm-revert-replay';
import { assertEvmTxHash, evmTransactionStatus } from './evm-transaction-status';

/** Node answers meaning "this exact transaction is already in the pool or mined". */
const ALREADY_KNOWN =
  /already known|already imported|known transaction|transaction already exists|AlreadyKnown/i;

/** The EVM family's signing client (a SigningChainClient): its chain id and provider besides. */
export interface EvmChainClient extends SigningChainClientBase {
  readonly family: 'evm';
  readonly evmChainId: bigint;
  readonly provider: JsonRpcProvider;
  /** A transaction the wallet sent itself, decoded as a signed rawTx; null while the node does not know it. */
  sentTransaction(txHash: string): Promise<DecodedEvmTransaction | null>;
}

/** An EVM chain over one bounded JSON-RPC provider (boundedEvmProvider). */
export class EvmChainClientImpl implements EvmChainClient {
  readonly family = 'evm' as const;
  readonly evmChainId: bigint;

  constructor(
    readonly chain: ChainDescriptor,
    readonly provider: JsonRpcProvider,
  ) {
    this.evmChainId = BigInt(chain.evmChainId as number);
  }

  assertTxHash(txHash: string): void {
    assertEvmTxHash(this.chain.id, txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return evmTransactionStatus(this.provider, this.chain.id, txHash);
  }

  readBalance(holder: string, token: string | null): Promise<bigint> {
    return readEvmBalance(this.provider, token, holder);
  }

  readAllowance(token: string, owner: string, spender: string): Promise<bigint> {
    return readErc20Allowance(this.provider, token, owner, spender);
  }

  /** eth_sendRawTransaction; "already known" or "nonce too low" for this very hash is not a refusal. */
  async broadcast(rawTx: string, txHash: string): Promise<BroadcastOutcome> {
    try {
      await this.provider.broadcastTransaction(rawTx);
      return { kind: 'sent' };
    } catch (error) {
      const message = shortMessageOf(error);
      if (isRpcUnreachable(error)) return { kind: 'unreachable', message };
      if (ALREADY_KNOWN.test(message) || (await this.provider.getTransaction(txHash).catch(() => null))) {
        return { kind: 'already-known', message };
      }
      return { kind: 'rejected', message };
    }
  }

  /**
   * eth_getTransactionByHash of a transaction the wallet sent itself, pending or mined, decoded as a
   * signed rawTx would be (sentEvmTransactionOf); null while the node does not know it.
   */
  async sentTransaction(txHash: string): Promise<DecodedEvmTransaction | null> {
    const response = await this.provider.getTransaction(txHash);
    return response ? sentEvmTransactionOf(response, txHash) : null;
  }

  isUnreachable(error: unknown): boolean {
    return isRpcUnreachable(error);
  }

  /** A signed EVM transaction has no expiry of its own (the node judges its nonce and fees). */
  async isStillLandable(): Promise<boolean> {
    return true;
  }

  /**
   * A type-2 transaction from fresh chain state (pending nonce, fees, gas estimate). A call the node
   * estimates as failing (allowance, balance, slippage, deadline, gas funds) is `invalid` with the
   * revert reason; an unreachable node is thrown.
   */
  async buildPayload(
    request: StepPayloadRequest,
    policy: PayloadPolicy,
    nowMs: number,
  ): Promise<PayloadBuild> {
    if (!request.call) return { kind: 'invalid', reason: 'an EVM step without a call' };
    if (request.feePayer !== undefined && request.feePayer.toLowerCase() !== request.from.toLowerCase()) {
      return {
        kind: 'invalid',
        reason: 'an EVM transaction is paid by its sender: it cannot name another fee payer',
      };
    }
    try {
      const state = await readPayloadChainState(
        this.provider,
        this.evmChainId,
        request.from,
        request.call,
        nowMs,
      );
      const built = buildEvmSigningPayload(request.from, request.call, state, policy);
      return {
        kind: 'ready',
        payload: built.payload,
        executionHints: { ...built.executionHints },
        expiresAtMs: nowMs + policy.ttlMs,
        cost: {
          maxFee: BigInt(built.executionHints.estimatedFeeWei),
          rent: 0n,
          feePerUnit: state.maxFeePerGas,
        },
        recommendedWallet: 'MetaMask',
      };
    } catch (error) {
      if (isRpcUnreachable(error)) throw error;
      return { kind: 'would-revert', reason: revertReasonOf(error) ?? shortMessageOf(error) };
    }
  }

  /** The receipt, with its confirmations; without one, whether the node still holds it in its pool. */
  async progress(txHash: string, confirmationsRequired: number): Promise<TransactionProgress> {
    const receipt = await this.provider.getTransactionReceipt(txHash);
    if (!receipt)
      return (await this.provider.getTransaction(txHash)) ? { kind: 'in-pool' } : { kind: 'unknown' };
    const confirmations = await receipt.confirmations();
    const { blockNumber } = receipt;
    if (receipt.status === 0) {
      return {
        kind: 'failed',
        blockNumber,
        confirmations,
        reason: await replayRevertReason(this.provider, receipt),
      };
    }
    if (confirmations < confirmationsRequired) {
      return { kind: 'included', blockNumber, confirmations, required: confirmationsRequired };
    }
    const block = await this.provider.getBlock(blockNumber);
    return {
      kind: 'confirmed',
      blockNumber,
      confirmations,
      required: confirmationsRequired,
      blockTimeMs: block ? block.timestamp * 1000 : null,
    };
  }

  /** eth_sendRawTransaction again: an EVM transaction does not age, the node judges its nonce. */
  async resend(rawTx: string): Promise<ResendOutcome> {
    try {
      await this.provider.broadcastTransaction(rawTx);
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'send-failed', message: shortMessageOf(error) };
    }
  }

  /** eth_gasPrice, in wei per gas; EVM has no rent. */
  async fees(): Promise<SponsoredFeeRates> {
    return {
      feePerGas: BigInt((await this.provider.send('eth_gasPrice', [])) as string),
      tokenAccountRent: 0n,
    };
  }
}
