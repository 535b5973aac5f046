import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from '@solana/spl-token';
import bs58 from 'bs58';
import { ChainRegistry } from '@swapgw/chains';
import { CodedError, SigningSubmitResult, SolanaSigningPayload } from '@swapgw/contracts';
import {
  devnetSolanaFeePayerKeys,
  SOLANA_FEE_PAYER_COUNT,
  SolanaDevnetHandle,
  solanaFeePayer,
  solanaTestWallet,
  startSolanaDevnet,
  usdcAccountOf,
} from '@swapgw/devnet';
import { MEMO_PROGRAM_ID, parseSolanaBridgeDepositMemo } from '@swapgw/chains/solana-bridge';
import { waitFor } from '@swapgw/testing';
import { randomUUID, sign } from 'node:crypto';
import { ReceivedEvent, SignerTestService, startSignerTestService } from '../../../test/signer-test-service';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { ed25519PrivateKey } from './solana-fee-payer-keys';
import { SigningRequestEntity } from '../../signing/signing-request.entity';
import { boundedSolanaConnection } from '@swapgw/chains';
import { verifyEd25519 } from '@swapgw/chains/families';

// Sponsored Solana steps against a real local Solana chain (litesvm + JSON-RPC, slots advanced by
// the test) with real PostgreSQL and Kafka: the transaction names the service's fee payer, a wallet
// holding USDC and not one lamport signs it, signing.submit verifies the user's signature, adds the
// fee payer's, broadcasts it; the ledger records what the fee payer paid.

const CHAIN = 'solana-devnet';
const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SPONSORED = { mode: 'solana-fee-payer' } as const;
let devnet: SolanaDevnetHandle;
let service: SignerTestService;
let connection: Connection;
let mint: PublicKey;
const feePayers = Array.from({ length: SOLANA_FEE_PAYER_COUNT }, (_, i) => solanaFeePayer(i + 1));

beforeAll(async () => {
  devnet = await startSolanaDevnet({ port: 0, slotMs: 60_000 });
  connection = boundedSolanaConnection(devnet.manifest.rpcUrl);
  mint = new PublicKey(devnet.manifest.tokens.USDC.mint);
  const registry = new ChainRegistry({
    manifest: {
      generatedAtMs: Date.now(),
      chains: [],
      bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 3, relayer: '' },
      accounts: [],
      solana: { ...devnet.manifest, bridge: { ...devnet.manifest.bridge, estimatedDurationSeconds: 3 } },
    },
  });
  service = await startSignerTestService(registry, {
    SOLANA_FEE_PAYER_KEYS: JSON.stringify(devnetSolanaFeePayerKeys(CHAIN)),
    SPONSORSHIP_BUDGET_OVERRIDES: JSON.stringify({ broke: '1' }),
  });
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

const lamportsOf = async (owner: PublicKey): Promise<bigint> =>
  BigInt(await connection.getBalance(owner, 'confirmed'));
const usdcOf = async (owner: PublicKey): Promise<bigint> =>
  BigInt((await connection.getTokenAccountBalance(usdcAccountOf(devnet.manifest, owner))).value.amount);

/** A new wallet holding `amount` USDC in its token account and no SOL at all (the funder paid the account's rent). */
async function walletWithUsdcOnly(amount: bigint): Promise<Keypair> {
  const wallet = Keypair.generate();
  const funder = solanaTestWallet(1);
  const { blockhash } = await connection.getLatestBlockhash();
  const funding = new VersionedTransaction(
    new TransactionMessage({
      payerKey: funder.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(
          funder.publicKey,
          usdcAccountOf(devnet.manifest, wallet.publicKey),
          wallet.publicKey,
          mint,
        ),
        createTransferCheckedInstruction(
          usdcAccountOf(devnet.manifest, funder.publicKey),
          mint,
          usdcAccountOf(devnet.manifest, wallet.publicKey),
          funder.publicKey,
          amount,
          6,
        ),
      ],
    }).compileToV0Message(),
  );
  funding.sign([funder]);
  await connection.sendRawTransaction(funding.serialize());
  devnet.ledger.produceSlot();
  return wallet;
}

function depositCommand(swapId: string, wallet: Keypair, amount: bigint, owner = 'sponsored-it') {
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
    sponsored: SPONSORED,
    owner,
  };
}

const decode = (base64: string) => VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
const encode = (tx: VersionedTransaction) => Buffer.from(tx.serialize()).toString('base64');

/** What a wallet does with the payload: signs its own slot, leaves the fee payer's empty. */
const signedByWallet = (payload: SolanaSigningPayload, wallet: Keypair): string => {
  const tx = decode(payload.transaction);
  tx.sign([wallet]);
  return encode(tx);
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

describe('sponsored Solana steps: the service is the fee payer', () => {
  it('a wallet with USDC and 0 lamports deposits; the service co-signs, the deposit lands, the wallet keeps 0 lamports, the ledger has the fee', async () => {
    const wallet = await walletWithUsdcOnly(7_000_000n);
    const swapId = `swp-${randomUUID()}`;
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    const vault = new PublicKey(devnet.manifest.bridge.vault);
    const vaultBefore = BigInt((await connection.getTokenAccountBalance(vault)).value.amount);
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 7_000_000n));

    const ready = await nextEvent(swapId, 'signing.payload-ready');
    const payload = ready.payload.payload as SolanaSigningPayload;
    const unsigned = decode(payload.transaction);
    const feePayer = feePayers.find((k) => k.publicKey.equals(unsigned.message.staticAccountKeys[0]));
    expect(feePayer).toBeDefined(); // one of the service's fee payers pays, not the wallet
    expect(unsigned.message.header.numRequiredSignatures).toBe(2); // the fee payer's and the wallet's
    expect(unsigned.message.staticAccountKeys[1].toBase58()).toBe(wallet.publicKey.toBase58());
    expect(ready.payload.executionHints).toMatchObject({
      feePayer: feePayer!.publicKey.toBase58(),
      gasPaidBy: 'service',
      userPaysLamports: '0',
      estimatedFeeLamports: '10000',
      recentBlockhash: unsigned.message.recentBlockhash,
    });
    const feePayerBefore = await lamportsOf(feePayer!.publicKey);

    const rawTx = signedByWallet(payload, wallet);
    // The id is the fee payer's signature, which the service adds: Ed25519 makes it the same every time.
    const expected = decode(rawTx);
    expected.sign([feePayer!]);
    const txHash = bs58.encode(expected.signatures[0]);
    const result = await submit(swapId, rawTx);
    expect(result).toEqual({ swapId, stepIndex: 1, txHash, status: 'submitted' });
    expect(await submit(swapId, rawTx)).toEqual(result); // the same bytes again: the same id, no second broadcast
    expect((await nextEvent(swapId, 'signing.submitted')).payload).toMatchObject({ txHash });

    devnet.ledger.produceSlot();
    expect((await nextEvent(swapId, 'signing.step-confirmed')).payload).toMatchObject({
      swapId,
      stepIndex: 1,
      txHash,
    });
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);

    // Landed as co-signed: both signatures on chain, the fee payer charged, the wallet not one lamport.
    const landed = await connection.getTransaction(txHash, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta).toMatchObject({ err: null, fee: 10_000 });
    expect(landed!.transaction.message.staticAccountKeys[0].toBase58()).toBe(feePayer!.publicKey.toBase58());
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    expect(await lamportsOf(feePayer!.publicKey)).toBe(feePayerBefore - 10_000n);
    expect(await usdcOf(wallet.publicKey)).toBe(0n);
    expect(BigInt((await connection.getTokenAccountBalance(vault)).value.amount) - vaultBefore).toBe(
      7_000_000n,
    );

    // The step's rawTx is the fully signed transaction (the tracker resends exactly that).
    const row = await service.dataSource.manager.findOneByOrFail(SigningRequestEntity, { txHash });
    const stored = decode(row.rawTx!);
    const message = stored.message.serialize();
    expect(verifyEd25519(feePayer!.publicKey, message, stored.signatures[0])).toBe(true);
    expect(verifyEd25519(wallet.publicKey, message, stored.signatures[1])).toBe(true);

    // The ledger: one Solana row, settled with the fee the node charged.
    const ledger = await waitFor(
      async () => {
        const entry = await service.dataSource.manager.findOneBy(SponsoredTransactionEntity, { txHash });
        return entry?.status === 'confirmed' ? entry : undefined;
      },
      { timeoutMs: 20_000, description: 'the ledger row settled' },
    );
    expect(ledger).toMatchObject({
      id: row.sponsoredTxId,
      chain: CHAIN,
      purpose: 'solana-transaction',
      relayer: feePayer!.publicKey.toBase58(),
      nonce: null,
      swapId,
      stepIndex: 1,
      owner: 'sponsored-it',
      to: wallet.publicKey.toBase58(),
      gasLimit: 10_000n,
      gasUsed: 10_000n,
      costWei: 10_000n,
      value: 0n,
    });
    expect(ledger.blockNumber).toBe(landed!.slot);
  });

  it('refuses a tampered message, a signature by another key and a missing one with 409 TX_REQUEST_MISMATCH, before paying anything', async () => {
    const wallet = await walletWithUsdcOnly(2_000_000n);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 2_000_000n));
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload
      .payload as SolanaSigningPayload;
    const issued = decode(payload.transaction);
    const feePayer = issued.message.staticAccountKeys[0];

    // The same fee payer and blockhash, the USDC sent to the attacker's own account instead.
    const attacker = Keypair.generate();
    const redirected = new VersionedTransaction(
      new TransactionMessage({
        payerKey: feePayer,
        recentBlockhash: issued.message.recentBlockhash,
        instructions: [
          createTransferCheckedInstruction(
            usdcAccountOf(devnet.manifest, wallet.publicKey),
            mint,
            usdcAccountOf(devnet.manifest, attacker.publicKey),
            wallet.publicKey,
            2_000_000n,
            6,
          ),
        ],
      }).compileToV0Message(),
    );
    redirected.sign([wallet]);
    const tampered = await submitError(swapId, encode(redirected));
    expect(tampered.code).toBe('TX_REQUEST_MISMATCH');
    expect(tampered.details?.mismatches).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'accountKeys' })]),
    );

    // The issued message, signed in the wallet's slot by another key.
    const forged = decode(payload.transaction);
    forged.signatures[1] = new Uint8Array(
      sign(null, forged.message.serialize(), ed25519PrivateKey(attacker.secretKey)),
    );
    const impostor = await submitError(swapId, encode(forged));
    expect(impostor.code).toBe('TX_REQUEST_MISMATCH');
    expect(impostor.details).toMatchObject({
      stepIndex: 1,
      stepCount: 3,
      mismatches: [{ field: 'signature', expected: wallet.publicKey.toBase58(), actual: 'invalid' }],
    });

    const unsigned = await submitError(swapId, payload.transaction);
    expect(unsigned.details?.mismatches).toEqual([
      { field: 'signature', expected: wallet.publicKey.toBase58(), actual: 'missing' },
    ]);

    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(0);
    expect(await service.dataSource.manager.countBy(SponsoredTransactionEntity, { swapId })).toBe(0);

    // Accepted once right; the same message with the wallet's signature forged afterwards still is refused.
    const result = await submit(swapId, signedByWallet(payload, wallet));
    const again = await submitError(swapId, encode(forged));
    expect(again.code).toBe('TX_REQUEST_MISMATCH');
    devnet.ledger.produceSlot();
    expect((await nextEvent(swapId, 'signing.step-confirmed')).payload).toMatchObject({
      txHash: result.txHash,
    });
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
  });

  it('a key whose daily budget (lamports) is spent gets the step unavailable with SPONSORSHIP_BUDGET_EXHAUSTED, never a payload', async () => {
    const wallet = await walletWithUsdcOnly(1_000_000n);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 1_000_000n, 'broke'));
    const unavailable = await nextEvent(swapId, 'signing.unavailable');
    expect(unavailable.payload).toMatchObject({ code: 'SPONSORSHIP_BUDGET_EXHAUSTED' });
    expect(eventsOf(swapId, 'signing.payload-ready')).toHaveLength(0);
  });

  it('re-addresses an aggregator transaction to the fee payer, which also pays the token account it creates', async () => {
    const wallet = await walletWithUsdcOnly(3_000_000n);
    const recipient = Keypair.generate().publicKey; // no USDC account yet: the transaction creates it
    const swapId = `swp-${randomUUID()}`;
    const latest = await connection.getLatestBlockhash();
    // As an aggregator builds it: the wallet pays the fees and the new account's rent.
    const aggregator = new VersionedTransaction(
      new TransactionMessage({
        payerKey: wallet.publicKey,
        recentBlockhash: latest.blockhash,
        instructions: [
          createAssociatedTokenAccountIdempotentInstruction(
            wallet.publicKey,
            usdcAccountOf(devnet.manifest, recipient),
            recipient,
            mint,
          ),
          createTransferCheckedInstruction(
            usdcAccountOf(devnet.manifest, wallet.publicKey),
            mint,
            usdcAccountOf(devnet.manifest, recipient),
            wallet.publicKey,
            3_000_000n,
            6,
          ),
        ],
      }).compileToV0Message(),
    );
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
        serializedTransaction: encode(aggregator),
        lastValidBlockHeight: latest.lastValidBlockHeight,
      },
      sponsored: SPONSORED,
      owner: 'sponsored-it',
    });
    const ready = await nextEvent(swapId, 'signing.payload-ready');
    const payload = ready.payload.payload as SolanaSigningPayload;
    const readdressed = decode(payload.transaction);
    const feePayer = readdressed.message.staticAccountKeys[0];
    expect(feePayers.map((k) => k.publicKey.toBase58())).toContain(feePayer.toBase58());
    expect(readdressed.message.recentBlockhash).toBe(latest.blockhash);
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(165));
    expect(ready.payload.executionHints).toMatchObject({
      gasPaidBy: 'service',
      userPaysLamports: '0',
      rentPaidByServiceLamports: String(rent),
    });
    const feePayerBefore = await lamportsOf(feePayer);

    const { txHash } = await submit(swapId, signedByWallet(payload, wallet));
    devnet.ledger.produceSlot();
    await nextEvent(swapId, 'signing.step-confirmed');
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    expect(await usdcOf(recipient)).toBe(3_000_000n);
    expect(await lamportsOf(feePayer)).toBe(feePayerBefore - 10_000n - rent);
    const ledger = await waitFor(
      async () => {
        const entry = await service.dataSource.manager.findOneBy(SponsoredTransactionEntity, { txHash });
        return entry?.status === 'confirmed' ? entry : undefined;
      },
      { timeoutMs: 20_000, description: 'the ledger row settled' },
    );
    expect(ledger).toMatchObject({ value: rent, gasUsed: 10_000n, costWei: 10_000n + rent });
  });

  it('fails an aggregator transaction that takes SOL from the wallet itself: it cannot be sponsored', async () => {
    const wallet = solanaTestWallet(3);
    const swapId = `swp-${randomUUID()}`;
    const latest = await connection.getLatestBlockhash();
    const takesSol = new VersionedTransaction(
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
        serializedTransaction: encode(takesSol),
        lastValidBlockHeight: latest.lastValidBlockHeight,
      },
      sponsored: SPONSORED,
      owner: 'sponsored-it',
    });
    const failed = await nextEvent(swapId, 'signing.step-failed');
    expect(failed.payload).toMatchObject({
      code: 'TX_REQUEST_INVALID',
      reason: expect.stringContaining('takes SOL from the wallet'),
    });
  });

  it('a deposit with a swap message: the memo the wallet signs carries it for the destination router; a message the router would refuse fails the step', async () => {
    const wallet = await walletWithUsdcOnly(2_000_000n);
    const router = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
    const message = {
      venue: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
      path: ['0x5FbDB2315678afecb367f032d93F642f64180aa3', '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'],
      amountOutMin: '650000000000000',
      recipient: EVM_RECIPIENT,
      unwrapNative: true,
      deadline: 1_900_000_000,
    };
    const command = (swapId: string, m: typeof message) => {
      const base = depositCommand(swapId, wallet, 2_000_000n);
      return { ...base, solana: { ...base.solana, recipient: router, message: m } };
    };
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, command(swapId, message));
    const unsigned = decode(
      ((await nextEvent(swapId, 'signing.payload-ready')).payload.payload as SolanaSigningPayload)
        .transaction,
    );
    const keys = unsigned.message.staticAccountKeys;
    const memos = unsigned.message.compiledInstructions
      .filter((ix) => keys[ix.programIdIndex].equals(MEMO_PROGRAM_ID))
      .map((ix) => Buffer.from(ix.data).toString('utf8'));
    expect(memos.map(parseSolanaBridgeDepositMemo)).toEqual([
      {
        destinationChainId: 31337n,
        recipient: router,
        message: { ...message, amountOutMin: 650_000_000_000_000n, deadline: 1_900_000_000n },
      },
    ]);
    // Signed by the wallet (the memo's signer) and paid by the fee payer, like a plain deposit.
    const result = await submit(
      swapId,
      signedByWallet({ type: 'solana-versioned-transaction', transaction: encode(unsigned) }, wallet),
    );
    expect(result.status).toBe('submitted');
    devnet.ledger.produceSlot();
    await nextEvent(swapId, 'signing.step-confirmed');
    expect(await lamportsOf(wallet.publicKey)).toBe(0n);

    const refused = `swp-${randomUUID()}`;
    await service.sendCommand(
      'signing.prepare',
      refused,
      command(refused, { ...message, recipient: router }),
    );
    expect((await nextEvent(refused, 'signing.step-failed')).payload).toMatchObject({
      code: 'TX_REQUEST_INVALID',
      reason: expect.stringContaining("cannot be zero or the deposit's recipient"),
    });
  });

  it("a fee payer drained between issue and submit: 503 SPONSORSHIP_UNAVAILABLE and the step failed FEE_PAYER_UNAVAILABLE naming it, never the user's TX_REQUEST_INVALID", async () => {
    const wallet = await walletWithUsdcOnly(1_500_000n);
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, depositCommand(swapId, wallet, 1_500_000n));
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload
      .payload as SolanaSigningPayload;
    const named = decode(payload.transaction).message.staticAccountKeys[0];
    const feePayer = feePayers.find((k) => k.publicKey.equals(named))!;
    const rawTx = signedByWallet(payload, wallet);

    // Everything it holds leaves it (it pays the transfer's fee itself): the account is gone.
    const held = await lamportsOf(feePayer.publicKey);
    const sink = Keypair.generate().publicKey;
    const { blockhash } = await connection.getLatestBlockhash();
    const drain = new VersionedTransaction(
      new TransactionMessage({
        payerKey: feePayer.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          SystemProgram.transfer({
            fromPubkey: feePayer.publicKey,
            toPubkey: sink,
            lamports: held - 5_000n,
          }),
        ],
      }).compileToV0Message(),
    );
    drain.sign([feePayer]);
    await connection.sendRawTransaction(drain.serialize());
    devnet.ledger.produceSlot();
    expect(await lamportsOf(feePayer.publicKey)).toBe(0n);
    try {
      const refused = await submitError(swapId, rawTx);
      expect(refused.code).toBe('SPONSORSHIP_UNAVAILABLE');
      expect(refused.message).toContain(feePayer.publicKey.toBase58());
      expect(refused.details).toMatchObject({ chain: CHAIN, feePayer: feePayer.publicKey.toBase58() });

      const failed = await nextEvent(swapId, 'signing.step-failed');
      expect(failed.payload).toMatchObject({
        swapId,
        code: 'FEE_PAYER_UNAVAILABLE',
        reason: expect.stringContaining(
          `the service's fee payer ${feePayer.publicKey.toBase58()} cannot pay the transaction's 10000 lamports of fees and rent (0 lamports left)`,
        ),
      });
      const row = await service.dataSource.manager.findOneByOrFail(SigningRequestEntity, { swapId });
      expect(row).toMatchObject({ status: 'failed', failureCode: 'FEE_PAYER_UNAVAILABLE' });
      // The same bytes again: the same answer, nothing sent.
      expect((await submitError(swapId, rawTx)).code).toBe('SPONSORSHIP_UNAVAILABLE');
      expect(await connection.getSignatureStatus(row.txHash!)).toMatchObject({ value: null });
      expect(await lamportsOf(wallet.publicKey)).toBe(0n);
    } finally {
      // Back to what it held, for the steps that follow.
      devnet.ledger.airdrop(feePayer.publicKey, Number(held));
      devnet.ledger.produceSlot();
    }
  });

  it('a user-paid step on the same chain is unchanged: the wallet is the fee payer', async () => {
    const wallet = solanaTestWallet(2);
    const swapId = `swp-${randomUUID()}`;
    const { sponsored: _sponsored, ...command } = depositCommand(swapId, wallet, 1_000_000n);
    await service.sendCommand('signing.prepare', swapId, command);
    const ready = await nextEvent(swapId, 'signing.payload-ready');
    const unsigned = decode((ready.payload.payload as SolanaSigningPayload).transaction);
    expect(unsigned.message.staticAccountKeys[0].toBase58()).toBe(wallet.publicKey.toBase58());
    expect(ready.payload.executionHints).not.toHaveProperty('gasPaidBy');
    const result = await submit(
      swapId,
      signedByWallet(ready.payload.payload as SolanaSigningPayload, wallet),
    );
    expect(result.txHash).toBe(
      bs58.encode(
        decode(signedByWallet(ready.payload.payload as SolanaSigningPayload, wallet)).signatures[0],
      ),
    );
  });
});
