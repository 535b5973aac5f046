import type { CosmosSignDirectPayload } from '@swapgw/contracts';
import type { SignedArtifactCodec } from '../signed-artifact-codec';
import { decodeCosmosTxRaw, looksLikeCosmosTxRaw, verifySignedCosmosTx } from './cosmos-signed-tx';

/**
 * A signed Cosmos transaction: the base64 TxRaw a wallet's signature completes. Its id (`hash`) is
 * the uppercase hex SHA-256 of the TxRaw's bytes, as CometBFT names it.
 */
export type CosmosArtifact = { family: 'cosmos'; hash: string; rawTx: string };

/**
 * Cosmos's artifacts: base64 of a protobuf TxRaw (its first byte field 1's tag, 0x0a, and body and
 * auth info that decode).
 */
export const cosmosArtifacts: SignedArtifactCodec<CosmosArtifact> = {
  claims: (rawTx) => looksLikeCosmosTxRaw(rawTx),
  decode: (rawTx) => {
    const tx = decodeCosmosTxRaw(rawTx);
    return { family: 'cosmos', hash: tx.hash, rawTx: Buffer.from(tx.raw).toString('base64') };
  },
  formOf: () => 'cosmos',
  needed: { cosmos: 'the signed Cosmos transaction (base64 TxRaw)' },
  verify: (artifact, payload) => verifySignedCosmosTx(payload as CosmosSignDirectPayload, artifact.rawTx),
};

declare module '../signed-artifact-codec' {
  /** The cosmos family's codec, in the union of the signed artifacts' types. */
  interface SignedArtifactCodecs {
    cosmos: typeof cosmosArtifacts;
  }
}
