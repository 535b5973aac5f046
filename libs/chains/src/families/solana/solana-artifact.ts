import type { SolanaSigningPayload } from '@swapgw/contracts';
import type { SignedArtifactCodec } from '../signed-artifact-codec';
import {
  decodeSignedSolanaTransaction,
  type DecodedSolanaTransaction,
  verifySignedSolanaTransaction,
  withFeePayerSignature,
} from './solana-transaction';

/**
 * A Solana transaction as the client signed it (`tx`), and, when its fee payer is one of the
 * service's (a sponsored step), the same transaction with the fee payer's signature added
 * (`coSigned`). Its id (`hash`) is the first signature: the fee payer's, so on a sponsored step it
 * exists only once the service co-signs; Ed25519 signatures being deterministic, the same message
 * always gets the same one, which makes a resubmission find the same id.
 */
export type SolanaArtifact = {
  family: 'solana';
  hash: string;
  tx: DecodedSolanaTransaction;
  coSigned: DecodedSolanaTransaction | null;
  rawTx: string;
};

/** Solana's artifacts: base64 of a signed transaction, whatever no other family claims. */
export const solanaArtifacts: SignedArtifactCodec<SolanaArtifact> = {
  claims: () => true,
  takesTheRest: true,
  decode: (rawTx, signAsFeePayer) => {
    const tx = decodeSignedSolanaTransaction(rawTx);
    // Co-signed here only to know the id; nothing signed leaves unless the message is the issued one.
    const feePayerSignature = signAsFeePayer?.(tx.feePayer, tx.messageBytes);
    const coSigned = feePayerSignature ? withFeePayerSignature(tx, feePayerSignature) : null;
    return {
      family: 'solana',
      hash: coSigned?.signature ?? tx.signature,
      tx,
      coSigned,
      rawTx: tx.serialized.toString('base64'),
    };
  },
  formOf: () => 'solana',
  needed: { solana: 'a signed Solana transaction (base64)' },
  verify: (artifact, payload, options) =>
    verifySignedSolanaTransaction(artifact.tx, payload as SolanaSigningPayload, options),
};

declare module '../signed-artifact-codec' {
  /** The solana family's codec, in the union of the signed artifacts' types. */
  interface SignedArtifactCodecs {
    solana: typeof solanaArtifacts;
  }
}
