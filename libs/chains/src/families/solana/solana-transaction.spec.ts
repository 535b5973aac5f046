import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { CodedError } from '@swapgw/contracts';
import {
  buildSolanaPayload,
  decodeSignedSolanaTransaction,
  verifySignedSolanaTransaction,
} from './solana-transaction';

const user = Keypair.fromSeed(new Uint8Array(32).fill(7));
const recipient = new PublicKey('11111111111111111111111111111112');
const blockhash = 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi';

function payload(lamports = 1000) {
  return buildSolanaPayload({
    feePayer: user.publicKey,
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: recipient, lamports })],
  });
}

/** What a wallet does with the payload: deserialize, sign, serialize, base64. */
function walletSigns(transaction: string, signer = user): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
  tx.sign([signer]);
  return Buffer.from(tx.serialize()).toString('base64');
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof CodedError ? error.code : 'not a CodedError';
  }
  return undefined;
}

describe('Solana signing payloads', () => {
  it('is an unsigned v0 transaction paid by the user', () => {
    const p = payload();
    expect(p.type).toBe('solana-versioned-transaction');
    const tx = VersionedTransaction.deserialize(Buffer.from(p.transaction, 'base64'));
    expect(tx.version).toBe(0);
    expect(tx.message.staticAccountKeys[0].equals(user.publicKey)).toBe(true);
    expect(tx.message.recentBlockhash).toBe(blockhash);
    expect(tx.signatures.every((s) => s.every((b) => b === 0))).toBe(true);
  });

  it('accepts what a wallet signed as it was issued', () => {
    const p = payload();
    const decoded = decodeSignedSolanaTransaction(walletSigns(p.transaction));
    expect(() => verifySignedSolanaTransaction(decoded, p)).not.toThrow();
    expect(decoded.feePayer).toBe(user.publicKey.toBase58());
    expect(decoded.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
  });

  it('rejects what is not a transaction with INVALID_SIGNED_TX', () => {
    expect(codeOf(() => decodeSignedSolanaTransaction('not base64 at all!'))).toBe('INVALID_SIGNED_TX');
    expect(codeOf(() => decodeSignedSolanaTransaction(Buffer.from('short').toString('base64')))).toBe(
      'INVALID_SIGNED_TX',
    );
  });

  it('rejects a changed message with TX_REQUEST_MISMATCH naming the difference', () => {
    const issued = payload(1000);
    const tampered = walletSigns(payload(999_999).transaction);
    let details: unknown;
    try {
      verifySignedSolanaTransaction(decodeSignedSolanaTransaction(tampered), issued);
    } catch (error) {
      expect((error as CodedError).code).toBe('TX_REQUEST_MISMATCH');
      details = (error as CodedError).details;
    }
    expect(JSON.stringify(details)).toContain('instructions');
  });

  it('rejects a missing or foreign signature with TX_REQUEST_MISMATCH', () => {
    const p = payload();
    const unsigned = decodeSignedSolanaTransaction(p.transaction);
    expect(codeOf(() => verifySignedSolanaTransaction(unsigned, p))).toBe('TX_REQUEST_MISMATCH');

    const tx = VersionedTransaction.deserialize(Buffer.from(p.transaction, 'base64'));
    tx.signatures[0] = Keypair.generate().secretKey.slice(0, 64);
    const forged = decodeSignedSolanaTransaction(Buffer.from(tx.serialize()).toString('base64'));
    expect(codeOf(() => verifySignedSolanaTransaction(forged, p))).toBe('TX_REQUEST_MISMATCH');
  });
});
