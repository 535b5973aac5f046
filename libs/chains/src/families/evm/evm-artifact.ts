import type { EvmSigningPayload } from '@swapgw/contracts';
import { keccak256 } from 'ethers';
import type { SignedArtifactCodec } from '../signed-artifact-codec';
import {
  assertNoMismatch,
  compareWithPayload,
  decodeSignedEvmTransaction,
  type DecodedEvmTransaction,
} from './evm-signed-transaction';

/** A typed-data signature as `rawTx`: 0x + 65 bytes (r, s, v) or 64 bytes (EIP-2098). */
export const TYPED_DATA_SIGNATURE = /^0x([0-9a-fA-F]{130}|[0-9a-fA-F]{128})$/;

export const isTypedDataSignature = (rawTx: string): boolean => TYPED_DATA_SIGNATURE.test(rawTx.trim());

/** A signed EVM transaction. */
export type EvmTransactionArtifact = {
  family: 'evm';
  hash: string;
  tx: DecodedEvmTransaction;
  rawTx: string;
};

/** A signature of typed data (a sponsored step; `hash` is its keccak256, an id only), which a relayer carries. */
export type EvmSignatureArtifact = {
  family: 'evm-signature';
  hash: string;
  signature: string;
  rawTx: string;
};

/**
 * EVM's artifacts: a 0x 65- (or 64-) byte signature of typed data, or any other 0x-hex as a signed
 * transaction.
 */
export const evmArtifacts: SignedArtifactCodec<EvmTransactionArtifact | EvmSignatureArtifact> = {
  claims: (rawTx) => /^0x/i.test(rawTx.trim()),
  decode: (rawTx) => {
    if (isTypedDataSignature(rawTx)) {
      const signature = rawTx.trim().toLowerCase();
      return { family: 'evm-signature', hash: keccak256(signature), signature, rawTx: signature };
    }
    const tx = decodeSignedEvmTransaction(rawTx);
    return { family: 'evm', hash: tx.hash, tx, rawTx: tx.serialized };
  },
  formOf: (payload) => (payload?.type === 'evm-typed-data' ? 'evm-signature' : 'evm'),
  needed: {
    evm: 'a signed EVM transaction (0x-hex)',
    'evm-signature': 'the 0x signature (65 bytes) of the issued typed data',
  },
  verify: (artifact, payload) => {
    if (artifact.family !== 'evm') throw new Error('a typed-data signature is not a signed transaction');
    assertNoMismatch(compareWithPayload(artifact.tx, (payload as EvmSigningPayload).transaction));
  },
};

declare module '../signed-artifact-codec' {
  /** The evm family's codec, in the union of the signed artifacts' types. */
  interface SignedArtifactCodecs {
    evm: typeof evmArtifacts;
  }
}
