import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { createTransferCheckedInstruction } from '@solana/spl-token';
import { CodedError } from '@swapgw/contracts';
import { maxFeeLamportsOf } from './solana-sponsored-transaction';
import {
  buildSolanaPayload,
  decodeSignedSolanaTransaction,
  verifySignedSolanaTransaction,
  withFeePayerSignature,
} from './solana-transaction';

const feePayer = Keypair.fromSeed(new Uint8Array(32).fill(3));
const user = Keypair.fromSeed(new Uint8Array(32).fill(7));
const mint = new PublicKey('So11111111111111111111111111111111111111112');
const from = new PublicKey('11111111111111111111111111111112');
const to = new PublicKey('11111111111111111111111111111113');
const blockhash = 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi';
const transfer = createTransferCheckedInstruction(from, mint, to, user.publicKey, 1_000n, 6);

/** A sponsored payload: the service's fee payer pays, the user authorizes the transfer. */
const sponsoredPayload = () =>
  buildSolanaPayload({ feePayer: feePayer.publicKey, recentBlockhash: blockhash, instructions: [transfer] });
const decode = (base64: string) => VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));

function refusal(fn: () => void): { code: string; mismatches: unknown } | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof CodedError) return { code: error.code, mismatches: error.details?.mismatches };
    throw error;
  }
  return undefined;
}

describe('sponsored Solana transactions', () => {
  it('count the base fee of every signature, plus the priority fee a ComputeBudget price asks for', () => {
    expect(maxFeeLamportsOf(decode(sponsoredPayload().transaction).message)).toBe(10_000n);
    const priced = new TransactionMessage({
      payerKey: feePayer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_001 }),
        transfer,
      ],
    }).compileToV0Message();
    // 2 × 5,000 + ceil(300,000 × 1,000,001 / 1,000,000) = 10,000 + 300,001
    expect(maxFeeLamportsOf(priced)).toBe(310_001n);
    const noLimit = new TransactionMessage({
      payerKey: feePayer.publicKey,
      recentBlockhash: blockhash,
      instructions: [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10 }), transfer, transfer],
    }).compileToV0Message();
    // Without a limit: 200,000 units per other instruction → ceil(400,000 × 10 / 1e6) = 4
    expect(maxFeeLamportsOf(noLimit)).toBe(10_004n);
  });

  it('verify the user’s signature only, the fee payer’s slot left to the service; then carry its signature as their id', () => {
    const payload = sponsoredPayload();
    const signed = decode(payload.transaction);
    signed.sign([user]);
    const decoded = decodeSignedSolanaTransaction(Buffer.from(signed.serialize()).toString('base64'));
    expect(
      refusal(() => verifySignedSolanaTransaction(decoded, payload, { feePayerSignsLater: true })),
    ).toBeUndefined();
    // Without the option the fee payer's empty slot is what is missing.
    expect(refusal(() => verifySignedSolanaTransaction(decoded, payload))).toEqual({
      code: 'TX_REQUEST_MISMATCH',
      mismatches: [{ field: 'signature', expected: feePayer.publicKey.toBase58(), actual: 'missing' }],
    });

    const unsigned = decodeSignedSolanaTransaction(payload.transaction);
    expect(
      refusal(() => verifySignedSolanaTransaction(unsigned, payload, { feePayerSignsLater: true })),
    ).toEqual({
      code: 'TX_REQUEST_MISMATCH',
      mismatches: [{ field: 'signature', expected: user.publicKey.toBase58(), actual: 'missing' }],
    });
    const forged = decode(payload.transaction);
    forged.signatures[1] = Keypair.generate().secretKey.slice(0, 64);
    const forgedDecoded = decodeSignedSolanaTransaction(Buffer.from(forged.serialize()).toString('base64'));
    expect(
      refusal(() => verifySignedSolanaTransaction(forgedDecoded, payload, { feePayerSignsLater: true }))
        ?.mismatches,
    ).toEqual([{ field: 'signature', expected: user.publicKey.toBase58(), actual: 'invalid' }]);

    const coSigned = decode(payload.transaction);
    coSigned.sign([feePayer, user]);
    const withService = withFeePayerSignature(decoded, coSigned.signatures[0]);
    expect(withService.serialized.equals(Buffer.from(coSigned.serialize()))).toBe(true);
    expect(refusal(() => verifySignedSolanaTransaction(withService, payload))).toBeUndefined(); // now fully signed
    expect(withService.signature).toBe(
      decodeSignedSolanaTransaction(Buffer.from(coSigned.serialize()).toString('base64')).signature,
    );
  });
});
