import { Transaction, TransactionLike, Wallet } from 'ethers';

export interface SignedTransaction {
  hash: string;
  /** What eth_sendRawTransaction takes. */
  raw: string;
}

/** Signs locally (the wallet has no provider) and keeps the hash the chain will know it by. */
export async function signTransaction(wallet: Wallet, tx: TransactionLike): Promise<SignedTransaction> {
  const raw = await wallet.signTransaction(tx);
  const { hash } = Transaction.from(raw);
  if (!hash) throw new Error('a signed transaction has a hash');
  return { hash, raw };
}
