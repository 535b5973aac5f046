// @swapgw/sdk/solana: the Solana signer adapter, apart because it needs @solana/web3.js at run time
// (an optional peer dependency: import this entry point only when you sign on Solana).
import { type Keypair, VersionedTransaction } from '@solana/web3.js';
import { type SwapSigner } from './signers';
import { base64ToBytes, bytesToBase64 } from './base64';

/** A wallet adapter's signTransaction (Phantom, @solana/wallet-adapter), or your own. */
export type SignVersionedTransaction = (tx: VersionedTransaction) => Promise<VersionedTransaction>;

/**
 * solana-versioned-transaction: deserializes the payload's v0 transaction, has it signed by the
 * Keypair (its slot only: on sponsored steps the fee payer is the service's) or by
 * `signTransaction`, and submits the base64 of the signed transaction.
 */
export function solanaSigner(signer: Keypair | SignVersionedTransaction): SwapSigner {
  const sign: SignVersionedTransaction =
    // Duck-typed: the caller's copy of @solana/web3.js may not be this module's.
    typeof signer !== 'function'
      ? async (tx) => {
          tx.sign([signer]);
          return tx;
        }
      : signer;
  return {
    handles: ['solana-versioned-transaction'],
    async sign(payload) {
      if (payload.type !== 'solana-versioned-transaction')
        throw new Error(`the Solana signer cannot sign a ${payload.type} payload`);
      const tx = VersionedTransaction.deserialize(base64ToBytes(payload.transaction));
      const signed = await sign(tx);
      return { rawTx: bytesToBase64(signed.serialize()) };
    },
  };
}
