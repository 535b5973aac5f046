import type { TransactionStatusResult } from '@swapgw/contracts';
import type { JsonRpcProvider } from 'ethers';
import type { ChainDescriptor } from '../../chain-descriptor';
import { readErc20Allowance, readEvmBalance } from '../../erc20-reads';
import type { BroadcastOutcome, EvmChainClient } from '../chain-family';
import { isRpcUnreachable, shortMessageOf } from './evm-chain-errors';
import { assertEvmTxHash, evmTransactionStatus } from './evm-transaction-status';

/** Node answers meaning "this exact transaction is already in the pool or mined". */
const ALREADY_KNOWN =
  /already known|already imported|known transaction|transaction already exists|AlreadyKnown/i;

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

  isUnreachable(error: unknown): boolean {
    return isRpcUnreachable(error);
  }

  /** A signed EVM transaction has no expiry of its own (the node judges its nonce and fees). */
  async isStillLandable(): Promise<boolean> {
    return true;
  }
}
