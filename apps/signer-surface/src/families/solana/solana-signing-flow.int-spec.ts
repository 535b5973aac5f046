import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { createTransferCheckedInstruction } from '@solana/spl-token';
import bs58 from 'bs58';
import { ChainRegistry } from '@swapgw/chains';
import { CodedError, SigningSubmitResult, SolanaSigningPayload } from '@swapgw/contracts';
import { SolanaDevnetHandle, solanaTestWallet, startSolanaDevnet, usdcAccountOf } from '@swapgw/devnet';
import { waitFor } from '@swapgw/testing';
import { randomUUID } from 'node:crypto';
import { ReceivedEvent, SignerTestService, startSignerTestService } from '../../../test/signer-test-service';
import { boundedSolanaConnection } from '@swapgw/chains';

// The signer's Solana path against a real local Solana chain (litesvm + JSON-RPC) whose slots
// advance only when the test says so, with real PostgreSQL and Kafka: signing.prepare → payload,
// the wallet signs with web3.js, signing.submit verifies and broadcasts, the tracker confirms.

const CHAIN = 'solana-devnet';
const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let devnet: SolanaDevnetHandle;
let service: SignerTestService;
let connection: Connection;

beforeAll(async () => {
  devnet = await startSolanaDevnet({ port: 0, slotMs: 60_000 });
  connection = boundedSolanaConnection(devnet.manifest.rpcUrl);
  const registry = new ChainRegistry({
    manifest: {
      generatedAtMs: Date.now(),
      chains: [],
      bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 3, relayer: '' },
      accounts: [],
      solana: { ...devnet.manifest, bridge: { ...devnet.manifest.bridge, estimatedDurationSeconds: 3 } },
    },
  });
  service = await startSignerTestService(registry);
}, 90_000);

afterAll(async () => {
  await service?.close();
  await devnet?.stop();
});

const eventsOf = (swapId: string, type: string): ReceivedEvent[] =>
  service.events.filter((e) => e.aggregateId === swapId && e.type === type);
const nextEvent = (swapId: string, type: string, after = 0) =>
  waitFor(() => eventsOf(swapId, type)[after], {
    timeoutMs: 30_000,
    description: `${type} #${after + 1} for ${swapId}`,
  });

const usdcOf = async (owner: PublicKey): Promise<bigint> =>
  BigInt((await connection.getTokenAccountBalance(usdcAccountOf(devnet.manifest, owner))).value.amount);

function depositCommand(
  swapId: string,
  wallet: Keypair,
  amount: bigint,
  extra: Record<string, unknown> = {},
) {
  return {
    swapId,
    stepId: `${swapId}:1`,
    stepIndex: 1,
    stepCount: 3,
    kind: 'bridge',
    chain: CHAIN,
    from: wallet.publicKey.toBase58(),
    solana: {
      kind: 'bridge-deposit',
      mint: devnet.manifest.tokens.USDC.mint,
      vault: devnet.manifest.bridge.vault,
      amount: amount.toString(),
      destinationChainId: 31337,
      recipient: EVM_RECIPIENT,
    },
    ...extra,
  };
}

const signed = (payload: SolanaSigningPayload, wallet: Keypair): string => {
  const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
  tx.sign([wallet]);
  return Buffer.from(tx.serialize()).toString('base64');
};

const submit = (swapId: string, rawTx: string) =>
  service.request<SigningSubmitResult>('signing.submit', swapId, { swapId, rawTx });

async function submitError(swapId: string, rawTx: string): Promise<CodedError> {
  try {
    await submit(swapId, rawTx);
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error('expected signing.submit to fail');
}

describe('signer-surface on Solana', () => {
  it('builds the bridge deposit, accepts the wallet-signed transaction once, and confirms it one slot later', async () => {
    const wallet = solanaTestWallet(3);
    const swapId = `swp-${randomUUID()}`;
    const vault = new PublicKey(devnet.manifest.bridge.vault);
    const [userBefore, vaultBefore] = [
      await usdcOf(wallet.publicKey),
      BigInt((await connection.getTokenAccountBalance(vault)).value.amount),
    ];
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 12_500_000n));

    const ready = await nextEvent(swapId, 'signing.payload-ready');
    const payload = ready.payload.payload as SolanaSigningPayload;
    expect(payload.type).toBe('solana-versioned-transaction');
    const unsigned = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    expect(unsigned.version).toBe(0);
    expect(unsigned.message.staticAccountKeys[0].toBase58()).toBe(wallet.publicKey.toBase58()); // the wallet pays the fee
    expect(ready.payload).toMatchObject({
      kind: 'bridge',
      clientHints: { recommendedWallet: 'Phantom', network: 'Solana Devnet (local)', action: 'bridge' },
      executionHints: {
        feePayer: wallet.publicKey.toBase58(),
        recentBlockhash: unsigned.message.recentBlockhash,
        estimatedFeeLamports: '5000',
      }, // one signature: the user's
    });
    // 150 slots of 60 s are far beyond the TTL: the TTL (120 s) bounds the expiry.
    expect(ready.payload.expiresAtMs as number).toBeGreaterThan(Date.now() + 100_000);
    expect(ready.payload.expiresAtMs as number).toBeLessThanOrEqual(Date.now() + 120_000);

    const rawTx = signed(payload, wallet);
    const result = await submit(swapId, rawTx);
    const signature = bs58.encode(
      VersionedTransaction.deserialize(Buffer.from(rawTx, 'base64')).signatures[0],
    );
    expect(result).toEqual({ swapId, stepIndex: 1, txHash: signature, status: 'submitted' });
    expect(await submit(swapId, rawTx)).toEqual(result); // same rawTx: same answer, no second broadcast
    expect((await nextEvent(swapId, 'signing.submitted')).payload).toMatchObject({ txHash: signature });

    devnet.ledger.produceSlot(); // confirmed one slot after it executed
    const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
    expect(confirmed.payload).toMatchObject({ swapId, stepIndex: 1, txHash: signature, confirmations: 1 });
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);
    expect(userBefore - (await usdcOf(wallet.publicKey))).toBe(12_500_000n);
    expect(BigInt((await connection.getTokenAccountBalance(vault)).value.amount) - vaultBefore).toBe(
      12_500_000n,
    );
    expect(
      await service.request('status.transaction', signature, { chain: CHAIN, txHash: signature }),
    ).toMatchObject({ status: 'confirmed' });
  });

  it('refuses a tampered transaction with 409 TX_REQUEST_MISMATCH, an unsigned one, and bytes that are no transaction', async () => {
    const wallet = solanaTestWallet(4);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 1_000_000n));
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload
      .payload as SolanaSigningPayload;
    const issued = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));

    // Same accounts and blockhash, but the transfer redirected to the attacker's own USDC account.
    const attacker = Keypair.generate();
    const mint = new PublicKey(devnet.manifest.tokens.USDC.mint);
    const redirected = new TransactionMessage({
      payerKey: wallet.publicKey,
      recentBlockhash: issued.message.recentBlockhash,
      instructions: [
        createTransferCheckedInstruction(
          usdcAccountOf(devnet.manifest, wallet.publicKey),
          mint,
          usdcAccountOf(devnet.manifest, attacker.publicKey),
          wallet.publicKey,
          1_000_000n,
          6,
        ),
      ],
    }).compileToV0Message();
    const tampered = new VersionedTransaction(redirected);
    tampered.sign([wallet]);
    const mismatch = await submitError(swapId, Buffer.from(tampered.serialize()).toString('base64'));
    expect(mismatch.code).toBe('TX_REQUEST_MISMATCH');
    expect(mismatch.details?.mismatches).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'accountKeys' })]),
    );

    const unsignedError = await submitError(swapId, payload.transaction);
    expect(unsignedError.code).toBe('TX_REQUEST_MISMATCH');
    expect(unsignedError.details?.mismatches).toEqual([
      expect.objectContaining({ field: 'signature', actual: 'missing' }),
    ]);
    // Signed by another key over the same message: the fee payer's signature does not verify.
    const forged = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    forged.signatures[0] = Keypair.generate().secretKey.slice(0, 64);
    expect(
      (await submitError(swapId, Buffer.from(forged.serialize()).toString('base64'))).details?.mismatches,
    ).toEqual([expect.objectContaining({ field: 'signature', actual: 'invalid' })]);
    expect((await submitError(swapId, 'bm90IGEgdHJhbnNhY3Rpb24=')).code).toBe('INVALID_SIGNED_TX');
    expect((await submitError(swapId, 'not base64!')).code).toBe('INVALID_SIGNED_TX');
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(0);
  });

  it('answers tx_request_expired once the blockhash aged out and issues a fresh payload that goes through', async () => {
    const wallet = solanaTestWallet(5);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 2_000_000n));
    const first = await nextEvent(swapId, 'signing.payload-ready');
    const stale = first.payload.payload as SolanaSigningPayload;

    for (let i = 0; i < 152; i++) devnet.ledger.produceSlot(); // past the blockhash's 150 slots
    const expired = await submitError(swapId, signed(stale, wallet));
    expect(expired.code).toBe('tx_request_expired');

    const fresh = await nextEvent(swapId, 'signing.payload-ready', 1);
    expect(fresh.payload.signingRequestId).not.toBe(first.payload.signingRequestId);
    const freshPayload = fresh.payload.payload as SolanaSigningPayload;
    const blockhashOf = (p: SolanaSigningPayload) =>
      VersionedTransaction.deserialize(Buffer.from(p.transaction, 'base64')).message.recentBlockhash;
    expect(blockhashOf(freshPayload)).not.toBe(blockhashOf(stale));

    const result = await submit(swapId, signed(freshPayload, wallet));
    devnet.ledger.produceSlot();
    expect((await nextEvent(swapId, 'signing.step-confirmed')).payload).toMatchObject({
      txHash: result.txHash,
    });
  });

  it('a refresh of a Solana step issues a new blockhash', async () => {
    const wallet = solanaTestWallet(6);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 1_000_000n));
    const first = await nextEvent(swapId, 'signing.payload-ready');
    devnet.ledger.produceSlot();
    await service.sendCommand('signing.refresh', swapId, { swapId, stepId: `${swapId}:1` });
    const second = await nextEvent(swapId, 'signing.payload-ready', 1);
    expect(second.payload.signingRequestId).not.toBe(first.payload.signingRequestId);
    expect((second.payload.executionHints as { recentBlockhash: string }).recentBlockhash).not.toBe(
      (first.payload.executionHints as { recentBlockhash: string }).recentBlockhash,
    );
  });

  it('fails a deposit the wallet cannot pay before anything is signed (simulation)', async () => {
    const wallet = solanaTestWallet(7);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 5_000_000_000_000n)); // 5M USDC > 1M held
    const failed = await nextEvent(swapId, 'signing.step-failed');
    expect(failed.payload).toMatchObject({
      code: 'TX_REQUEST_INVALID',
      reason: expect.stringContaining('simulation failed'),
    });
  });

  it('holds a step until the USDC arrived in the holder’s token account (waitFor), then issues it', async () => {
    const holder = solanaTestWallet(8);
    const payer = solanaTestWallet(9);
    const swapId = `swp-${randomUUID()}`;
    const before = await usdcOf(holder.publicKey);
    await service.sendCommand(
      'signing.prepare',
      swapId,
      depositCommand(swapId, holder, 1_000_000n, {
        stepIndex: 2,
        waitFor: {
          token: devnet.manifest.tokens.USDC.mint,
          holder: holder.publicKey.toBase58(),
          minBalance: String(before + 3_000_000n),
        },
      }),
    );
    expect((await nextEvent(swapId, 'signing.waiting')).payload).toMatchObject({ stepIndex: 2 });

    const mint = new PublicKey(devnet.manifest.tokens.USDC.mint);
    const { blockhash } = await connection.getLatestBlockhash();
    const transfer = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          createTransferCheckedInstruction(
            usdcAccountOf(devnet.manifest, payer.publicKey),
            mint,
            usdcAccountOf(devnet.manifest, holder.publicKey),
            payer.publicKey,
            3_000_000n,
            6,
          ),
        ],
      }).compileToV0Message(),
    );
    transfer.sign([payer]);
    await connection.sendRawTransaction(transfer.serialize());
    devnet.ledger.produceSlot(); // the balance is read at `confirmed`

    const ready = await nextEvent(swapId, 'signing.payload-ready');
    expect(ready.payload).toMatchObject({ stepIndex: 2, kind: 'bridge' });
  });

  it('hands out a prebuilt (aggregator) transaction as it is, and confirms it once signed', async () => {
    const wallet = solanaTestWallet(2);
    const swapId = `swp-${randomUUID()}`;
    const latest = await connection.getLatestBlockhash();
    const prebuilt = new VersionedTransaction(
      new TransactionMessage({
        payerKey: wallet.publicKey,
        recentBlockhash: latest.blockhash,
        instructions: [
          SystemProgram.transfer({
            fromPubkey: wallet.publicKey,
            toPubkey: Keypair.generate().publicKey,
            lamports: 2_000_000,
          }),
        ],
      }).compileToV0Message(),
    );
    const serializedTransaction = Buffer.from(prebuilt.serialize()).toString('base64');
    await service.sendCommand('signing.prepare', swapId, {
      swapId,
      stepId: `${swapId}:1`,
      stepIndex: 1,
      stepCount: 1,
      kind: 'swap',
      chain: CHAIN,
      from: wallet.publicKey.toBase58(),
      solana: {
        kind: 'prebuilt-transaction',
        serializedTransaction,
        lastValidBlockHeight: latest.lastValidBlockHeight,
      },
    });
    const ready = await nextEvent(swapId, 'signing.payload-ready');
    expect(ready.payload.payload).toEqual({
      type: 'solana-versioned-transaction',
      transaction: serializedTransaction,
    });
    expect(ready.payload.clientHints).toMatchObject({ action: 'swap', recommendedWallet: 'Phantom' });

    const result = await submit(swapId, signed(ready.payload.payload as SolanaSigningPayload, wallet));
    devnet.ledger.produceSlot();
    expect((await nextEvent(swapId, 'signing.step-confirmed')).payload).toMatchObject({
      txHash: result.txHash,
    });
  });
});
