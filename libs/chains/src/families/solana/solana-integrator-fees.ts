import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import type { IntegratorFeeTransfer } from '../step-parts';

/** The token a Solana transaction pays its integrator fees in: an SPL mint, or null for native SOL. */
export type SolanaFeeToken = { mint: PublicKey; decimals: number } | null;

/**
 * Where each fee of a Solana transaction is paid: to the recipient wallet itself (native SOL), or to
 * its associated token account of the mint (SPL; off-curve owners, such as a program's vault PDA,
 * are accepted as the ATA program accepts them).
 */
export function solanaFeeAccountsOf(token: SolanaFeeToken, fees: IntegratorFeeTransfer[]): PublicKey[] {
  return fees.map((fee) => {
    const recipient = new PublicKey(fee.recipient);
    return token === null ? recipient : getAssociatedTokenAddressSync(token.mint, recipient, true);
  });
}

/**
 * The instructions that pay a transaction's integrator fees out of `owner`'s input, one per
 * recipient, placed before the transaction's own instructions (the deposit or swap) so the fee is
 * paid in the same transaction or not at all:
 *  - SPL: a TransferChecked of `amount` from the owner's associated token account to the
 *    recipient's, preceded, when that account does not exist yet (`missingAccounts`, read when the
 *    transaction is built), by an idempotent associated-token-account creation funded by
 *    `feePayer` (the wallet on a user-paid step, the service's fee payer on a sponsored one: it
 *    pays the rent, never the wallet's SOL). Idempotent, so an account created meanwhile does not
 *    make the transaction fail.
 *  - native SOL: a System Program transfer of `amount` lamports from the owner to the recipient.
 *    A recipient without an account must receive at least the rent-exempt minimum (890,880
 *    lamports) or the runtime refuses the transfer; the simulation before signing says so.
 * The recipient's balance rises by exactly `amount`: nothing else is taken from it.
 */
export function solanaIntegratorFeeInstructions(input: {
  owner: PublicKey;
  feePayer: PublicKey;
  token: SolanaFeeToken;
  fees: IntegratorFeeTransfer[];
  /** Fee accounts (solanaFeeAccountsOf) that do not exist yet; ignored for native SOL. */
  missingAccounts?: ReadonlySet<string>;
}): TransactionInstruction[] {
  const { owner, feePayer, token, fees } = input;
  const accounts = solanaFeeAccountsOf(token, fees);
  return fees.flatMap((fee, index): TransactionInstruction[] => {
    if (fee.amount <= 0n) return [];
    const to = accounts[index];
    if (token === null)
      return [SystemProgram.transfer({ fromPubkey: owner, toPubkey: to, lamports: fee.amount })];
    const create = input.missingAccounts?.has(to.toBase58())
      ? [
          createAssociatedTokenAccountIdempotentInstruction(
            feePayer,
            to,
            new PublicKey(fee.recipient),
            token.mint,
          ),
        ]
      : [];
    return [
      ...create,
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(token.mint, owner, true),
        token.mint,
        to,
        owner,
        fee.amount,
        token.decimals,
      ),
    ];
  });
}
