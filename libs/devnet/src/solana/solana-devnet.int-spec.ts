import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { memoInstruction } from '@swapgw/chains/solana-bridge';
import { startSolanaDevnet, SolanaDevnetHandle, solanaTestWallet, usdcAccountOf } from './index';

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('local Solana devnet (litesvm behind JSON-RPC)', () => {
  let devnet: SolanaDevnetHandle;
  let connection: Connection;

  beforeAll(async () => {
    devnet = await startSolanaDevnet({ port: 0, slotMs: 100 });
    connection = new Connection(devnet.manifest.rpcUrl, 'confirmed');
  });
  afterAll(async () => devnet?.stop());

  async function sendV0(payer: Keypair, build: (blockhash: string) => VersionedTransaction): Promise<string> {
    const { blockhash } = await connection.getLatestBlockhash();
    return connection.sendRawTransaction(build(blockhash).serialize());
  }

  it('derives the same addresses at every start', async () => {
    const again = await startSolanaDevnet({ port: 0 });
    try {
      expect(again.manifest.tokens.USDC.mint).toBe(devnet.manifest.tokens.USDC.mint);
      expect(again.manifest.accounts).toEqual(devnet.manifest.accounts);
      expect(devnet.manifest.accounts[0].address).toBe(solanaTestWallet(1).publicKey.toBase58());
    } finally {
      await again.stop();
    }
  });

  it('funds the test wallets with SOL and USDC', async () => {
    const wallet = solanaTestWallet(3).publicKey;
    expect(await connection.getBalance(wallet)).toBe(100 * LAMPORTS_PER_SOL);
    const balance = await connection.getTokenAccountBalance(usdcAccountOf(devnet.manifest, wallet));
    expect(balance.value).toMatchObject({ amount: '1000000000000', decimals: 6, uiAmountString: '1000000' });
    const mintInfo = await connection.getAccountInfo(new PublicKey(devnet.manifest.tokens.USDC.mint));
    expect(mintInfo?.owner.toBase58()).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
  });

  it('executes a signed v0 SPL transfer and reports its status and transaction', async () => {
    const from = solanaTestWallet(1);
    const to = solanaTestWallet(2).publicKey;
    const mint = new PublicKey(devnet.manifest.tokens.USDC.mint);
    const signature = await sendV0(from, (blockhash) => {
      const message = new TransactionMessage({
        payerKey: from.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          createTransferInstruction(
            getAssociatedTokenAddressSync(mint, from.publicKey),
            getAssociatedTokenAddressSync(mint, to),
            from.publicKey,
            2_500_000n,
          ),
        ],
      }).compileToV0Message();
      const tx = new VersionedTransaction(message);
      tx.sign([from]);
      return tx;
    });

    const status = await waitFor(async () => {
      const { value } = await connection.getSignatureStatuses([signature]);
      return value[0]?.confirmationStatus === 'confirmed' ? value[0] : undefined;
    }, 'confirmation');
    expect(status.err).toBeNull();

    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(fetched?.meta?.err).toBeNull();
    expect(fetched?.blockTime).toBeGreaterThan(0);
    expect(fetched?.transaction.signatures[0]).toBe(signature);

    const received = await connection.getTokenAccountBalance(usdcAccountOf(devnet.manifest, to));
    expect(received.value.amount).toBe('1000002500000');
  });

  it('rejects a transaction whose signature is not the fee payer', async () => {
    const payer = solanaTestWallet(4);
    const impostor = Keypair.generate();
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: impostor.publicKey, lamports: 1000 }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.signatures[0] = impostor.secretKey.slice(0, 64); // 64 bytes that are not payer's signature
    await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow(
      /simulation failed|SignatureFailure/i,
    );
  });

  it('expires blockhashes after their validity window', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(true);
    for (let i = 0; i < 151; i++) devnet.ledger.produceSlot();
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(false);

    const payer = solanaTestWallet(5);
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000_000,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    await expect(connection.sendRawTransaction(tx.serialize())).rejects.toThrow(/Blockhash not found/);
  });

  it('reports a failed transaction with its error when preflight is skipped', async () => {
    const payer = solanaTestWallet(6);
    const signature = await sendV0(payer, (blockhash) => {
      const message = new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          SystemProgram.transfer({
            fromPubkey: payer.publicKey,
            toPubkey: Keypair.generate().publicKey,
            lamports: 10_000 * LAMPORTS_PER_SOL,
          }),
        ],
      }).compileToV0Message();
      const tx = new VersionedTransaction(message);
      tx.sign([payer]);
      return tx;
    }).catch((error: Error) => error);
    // with preflight the node refuses it outright
    expect(signature).toBeInstanceOf(Error);

    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports: 10_000 * LAMPORTS_PER_SOL,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const sent = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const { value } = await connection.getSignatureStatuses([sent]);
    expect(value[0]?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
  });

  it('answers an unknown signature with null and an unknown method with -32601', async () => {
    const unknown = '5'.repeat(88);
    const { value } = await connection.getSignatureStatuses([unknown]);
    expect(value[0]).toBeNull();
    const res = await fetch(devnet.manifest.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlockProduction', params: [] }),
    });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });

  it('pages an address history with getSignaturesForAddress: newest first, before/until/limit, memos', async () => {
    const payer = solanaTestWallet(7);
    const watched = Keypair.generate().publicKey;
    const sent: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      sent.push(
        await sendV0(payer, (blockhash) => {
          const message = new TransactionMessage({
            payerKey: payer.publicKey,
            recentBlockhash: blockhash,
            instructions: [
              SystemProgram.transfer({
                fromPubkey: payer.publicKey,
                toPubkey: watched,
                lamports: LAMPORTS_PER_SOL,
              }),
              memoInstruction(text, [payer.publicKey]),
            ],
          }).compileToV0Message();
          const tx = new VersionedTransaction(message);
          tx.sign([payer]);
          return tx;
        }),
      );
    }
    // `confirmed` lists a transaction one slot after it executed.
    const all = await waitFor(async () => {
      const page = await connection.getSignaturesForAddress(watched, {}, 'confirmed');
      return page.length === 3 ? page : undefined;
    }, 'three confirmed signatures');
    expect(all.map((s) => s.signature)).toEqual([...sent].reverse());
    expect(all.map((s) => s.memo)).toEqual(['[5] third', '[6] second', '[5] first']);
    expect(all[0]).toMatchObject({ err: null, confirmationStatus: 'confirmed' });
    expect(all[0].blockTime).toBeGreaterThan(0);

    const limited = await connection.getSignaturesForAddress(watched, { limit: 1 }, 'confirmed');
    expect(limited.map((s) => s.signature)).toEqual([sent[2]]);
    const older = await connection.getSignaturesForAddress(watched, { before: sent[2] }, 'confirmed');
    expect(older.map((s) => s.signature)).toEqual([sent[1], sent[0]]);
    const newer = await connection.getSignaturesForAddress(watched, { until: sent[0] }, 'confirmed');
    expect(newer.map((s) => s.signature)).toEqual([sent[2], sent[1]]);
    expect(await connection.getSignaturesForAddress(Keypair.generate().publicKey, {}, 'confirmed')).toEqual(
      [],
    );
  });
});
