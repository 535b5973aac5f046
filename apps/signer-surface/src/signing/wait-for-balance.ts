import { readEvmBalance } from '@swapgw/chains';
import { SignerChains } from '../chains/signer-chains';
import { isRpcUnreachable } from './evm/evm-chain-errors';
import { isSolanaRpcUnreachable, readSolanaBalance } from './solana/solana-step-payload';
import type { SigningRequestEntity } from './signing-request.entity';

export type WaitForBalance = { ok: true; balance: bigint; minBalance: bigint } | { ok: false; reason: string };

/**
 * The balance a waiting step needs, read on its chain: ERC-20 / native on EVM, the holder's
 * associated token account of the mint (or lamports) on Solana. RPC errors are thrown.
 */
export async function readWaitForBalance(chains: SignerChains, row: SigningRequestEntity): Promise<WaitForBalance> {
  if (!row.waitFor) return { ok: false, reason: 'waiting request without a condition' };
  const minBalance = BigInt(row.waitFor.minBalance);
  if (chains.familyOf(row.chain) === 'solana') {
    const surface = chains.solanaSurface(row.chain);
    if (!surface.ok) return surface;
    return { ok: true, balance: await readSolanaBalance(surface.connection, row.waitFor.token, row.waitFor.holder), minBalance };
  }
  const surface = chains.evmSurface(row.chain);
  if (!surface.ok) return surface;
  return { ok: true, balance: await readEvmBalance(surface.provider, row.waitFor.token, row.waitFor.holder), minBalance };
}

/** The chain's node could not be reached (either family). */
export const isChainUnreachable = (error: unknown): boolean => isRpcUnreachable(error) || isSolanaRpcUnreachable(error);
