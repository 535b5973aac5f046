import { SignerChains } from '../chains/signer-chains';
import type { SigningRequestEntity } from './signing-request.entity';

export type WaitForBalance =
  { ok: true; balance: bigint; minBalance: bigint } | { ok: false; reason: string };

/**
 * The balance a waiting step needs, read on its chain through its family's client: ERC-20 / native
 * on EVM, the holder's associated token account of the mint (or lamports) on Solana. RPC errors are
 * thrown.
 */
export async function readWaitForBalance(
  chains: SignerChains,
  row: SigningRequestEntity,
): Promise<WaitForBalance> {
  const { waitFor } = row.spec;
  if (!waitFor) return { ok: false, reason: 'waiting request without a condition' };
  const minBalance = BigInt(waitFor.minBalance);
  const lookup = chains.signing(row.chain);
  if (!lookup.ok) return lookup;
  return {
    ok: true,
    balance: await lookup.client.readBalance(waitFor.holder, waitFor.token),
    minBalance,
  };
}
