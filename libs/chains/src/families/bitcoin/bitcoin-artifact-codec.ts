import type { BitcoinPsbtSigningPayload } from '@swapgw/contracts';
import type { SignedArtifactCodec } from '../signed-artifact-codec';
import { bitcoinArtifactTxid, looksLikeBitcoinArtifact } from './bitcoin-artifact';
import { verifySignedBitcoinStep } from './bitcoin-step-verification';

/**
 * What a Bitcoin wallet returned for a step: its signed PSBT (base64 or hex) or the finalized
 * transaction (hex). Its id (`hash`) is the transaction's txid, fixed before any signature (a
 * SegWit id does not cover witnesses), so a resubmission finds the same id.
 */
export type BitcoinArtifact = { family: 'bitcoin'; hash: string; rawTx: string };

/** Bitcoin's artifacts: a PSBT (base64 or hex) or hex without 0x. */
export const bitcoinArtifacts: SignedArtifactCodec<BitcoinArtifact> = {
  claims: (rawTx) => looksLikeBitcoinArtifact(rawTx),
  decode: (rawTx) => {
    const text = rawTx.trim();
    return { family: 'bitcoin', hash: bitcoinArtifactTxid(text), rawTx: text };
  },
  formOf: () => 'bitcoin',
  needed: { bitcoin: 'the signed PSBT (base64 or hex) or the signed transaction (hex)' },
  verify: (artifact, payload) =>
    verifySignedBitcoinStep((payload as BitcoinPsbtSigningPayload).psbt, artifact.rawTx),
};

declare module '../signed-artifact-codec' {
  /** The bitcoin family's codec, in the union of the signed artifacts' types. */
  interface SignedArtifactCodecs {
    bitcoin: typeof bitcoinArtifacts;
  }
}
