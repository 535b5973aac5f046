import { Connection, Keypair, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { waitFor } from './wait-for';

/** The associated token account of `owner` for `mint`. */
export const tokenAccountOf = (mint: PublicKey, owner: PublicKey): PublicKey =>
  getAssociatedTokenAddressSync(mint, owner, true);

/** The balance of `owner`'s associated token account for `mint` (0 when it does not exist). */
export async function splBalanceOf(solana: Connection, mint: PublicKey, owner: PublicKey): Promise<bigint> {
  const account = tokenAccountOf(mint, owner);
  if (!(await solana.getAccountInfo(account, 'confirmed'))) return 0n;
  return BigInt((await solana.getTokenAccountBalance(account, 'confirmed')).value.amount);
}

/**
 * A new Solana wallet holding `amount` of `mint` (6 decimals, the devnet's USDC) and not one
 * lamport: `funder` pays its token account's rent and the transfer, confirmed before it returns.
 */
export async function freshSolanaWalletWith(
  solana: Connection,
  mint: PublicKey,
  funder: Keypair,
  amount: bigint,
): Promise<Keypair> {
  const wallet = Keypair.generate();
  const { blockhash } = await solana.getLatestBlockhash('confirmed');
  const funding = new VersionedTransaction(
    new TransactionMessage({
      payerKey: funder.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(
          funder.publicKey,
          tokenAccountOf(mint, wallet.publicKey),
          wallet.publicKey,
          mint,
        ),
        createTransferCheckedInstruction(
          tokenAccountOf(mint, funder.publicKey),
          mint,
          tokenAccountOf(mint, wallet.publicKey),
          funder.publicKey,
          amount,
          6,
        ),
      ],
    }).compileToV0Message(),
  );
  funding.sign([funder]);
  const signature = await solana.sendRawTransaction(funding.serialize());
  await waitFor(
    async () => {
      const status = (await solana.getSignatureStatuses([signature])).value[0];
      return status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized'
        ? true
        : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 100, description: 'the token funding confirmed' },
  );
  return wallet;
}
