import { isRpcUnreachable } from './evm/evm-chain-errors';
import { isSolanaRpcUnreachable } from './solana/solana-rpc-errors';

/** True when `error` means a chain's node could not be reached, whatever its family. */
export function isChainUnreachable(error: unknown): boolean {
  return isRpcUnreachable(error) || isSolanaRpcUnreachable(error);
}
