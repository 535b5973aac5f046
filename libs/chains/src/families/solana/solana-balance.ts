import { Connection, PublicKey } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';

/**
 * Balance on Solana: lamports when `mint` is null, else the base units in `holder`'s associated
 * token account of `mint` (0 while that account does not exist: a wallet that never held the token).
 */
export async function readSolanaBalance(
  connection: Connection,
  mint: string | null,
  holder: string,
): Promise<bigint> {
  const owner = new PublicKey(holder);
  if (mint === null) return BigInt(await connection.getBalance(owner, 'confirmed'));
  const account = getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);
  if (!(await connection.getAccountInfo(account, 'confirmed'))) return 0n;
  return BigInt((await connection.getTokenAccountBalance(account, 'confirmed')).value.amount);
}
