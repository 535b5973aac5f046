import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS } from './bitcoin/bitcoin-networks';
import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { TransactionRequest, Wallet } from 'ethers';
import {
  decodeSignedArtifact,
  feePayerOf,
  isCoSigned,
  isSignedTransaction,
  recordedSubmissionOf,
} from './signed-artifact';
import { buildSolanaPayload } from './solana/solana-transaction';

const wallet = Wallet.fromPhrase('test test test test test test test test test test test junk');
const user = Keypair.fromSeed(new Uint8Array(32).fill(7));
const feePayer = Keypair.fromSeed(new Uint8Array(32).fill(9));
const blockhash = 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi';

async function signedEvmTransaction(): Promise<string> {
  return wallet.signTransaction({
    chainId: 31337n,
    to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    data: '0x',
    value: 0n,
    nonce: 0,
    gasLimit: 21_000n,
    maxFeePerGas: 2n,
    maxPriorityFeePerGas: 1n,
  } as TransactionRequest);
}

/** A transfer by `user` paid by `payer`, signed by the user only (the fee payer signs later). */
function userSignedSolanaTransaction(payer: Keypair): string {
  const { transaction } = buildSolanaPayload({
    feePayer: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [
      SystemProgram.transfer({
        fromPubkey: user.publicKey,
        toPubkey: new PublicKey('11111111111111111111111111111112'),
        lamports: 1,
      }),
    ],
  });
  const tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
  tx.sign([user]);
  return Buffer.from(tx.serialize()).toString('base64');
}

describe('signed artifacts, whatever their family', () => {
  const signature = `0x${'ab'.repeat(65)}`;

  it('tells a signed transaction from a signature a relayer carries', async () => {
    const relayed = decodeSignedArtifact(signature);
    const evm = decodeSignedArtifact(await signedEvmTransaction());
    const solana = decodeSignedArtifact(userSignedSolanaTransaction(user));
    expect([isSignedTransaction(relayed), isSignedTransaction(evm), isSignedTransaction(solana)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('finds an earlier submission of a transaction by its id, of a signature by itself within its swap', async () => {
    const evm = decodeSignedArtifact(await signedEvmTransaction());
    expect(recordedSubmissionOf(evm, 'swap-1')).toEqual({ txHash: evm.hash });
    expect(recordedSubmissionOf(decodeSignedArtifact(signature), 'swap-1')).toEqual({
      swapId: 'swap-1',
      rawTx: signature,
    });
  });

  it('names who pays the fees: the EVM sender, the Solana fee payer', async () => {
    const evm = decodeSignedArtifact(await signedEvmTransaction());
    const solana = decodeSignedArtifact(userSignedSolanaTransaction(feePayer));
    expect(evm.family === 'evm' && feePayerOf(evm)).toBe(wallet.address);
    expect(solana.family === 'solana' && feePayerOf(solana)).toBe(feePayer.publicKey.toBase58());
  });

  it('reads a Bitcoin PSBT (base64 or hex) or transaction (hex) as Bitcoin, its id the txid fixed before signatures', () => {
    const tx = new btc.Transaction({ version: 2 });
    tx.addInput({ txid: '11'.repeat(32), index: 0, sequence: 0xfffffffd });
    tx.addOutputAddress('bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x', 10_000n, BITCOIN_NETWORKS.regtest);
    const psbt = tx.toPSBT();
    const fromBase64 = decodeSignedArtifact(Buffer.from(psbt).toString('base64'));
    const fromHex = decodeSignedArtifact(Buffer.from(psbt).toString('hex'));
    const unsignedHex = Buffer.from(tx.unsignedTx).toString('hex');
    expect(fromBase64).toMatchObject({ family: 'bitcoin', hash: tx.id });
    expect(fromHex).toMatchObject({ family: 'bitcoin', hash: tx.id });
    expect(decodeSignedArtifact(unsignedHex)).toMatchObject({ family: 'bitcoin', hash: tx.id });
    expect(recordedSubmissionOf(fromBase64, 'swap-1')).toEqual({ txHash: tx.id });
    expect(() => decodeSignedArtifact('cHNidP8Bgarbage')).toThrow(
      expect.objectContaining({ code: 'INVALID_SIGNED_TX' }),
    );
  });

  it("is co-signed only when the fee payer is the service's and signed it", async () => {
    const rawTx = userSignedSolanaTransaction(feePayer);
    const byService = (payer: string) =>
      payer === feePayer.publicKey.toBase58() ? feePayerSignatureOf(rawTx) : null;
    const coSigned = decodeSignedArtifact(rawTx, byService);
    expect(isCoSigned(coSigned)).toBe(true);
    expect(isCoSigned(decodeSignedArtifact(rawTx, () => null))).toBe(false);
    expect(isCoSigned(decodeSignedArtifact(await signedEvmTransaction(), byService))).toBe(false);
  });
});

/** The fee payer's signature of the transaction's message, as the service adds it. */
function feePayerSignatureOf(rawTx: string): Uint8Array {
  const tx = VersionedTransaction.deserialize(Buffer.from(rawTx, 'base64'));
  tx.sign([feePayer]);
  return tx.signatures[0];
}
