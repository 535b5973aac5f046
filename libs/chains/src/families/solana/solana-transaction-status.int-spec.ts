import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { CodedError } from '@swapgw/contracts';
import { SolanaDevnetHandle, solanaTestWallet, startSolanaDevnet } from '@swapgw/devnet';
import { boundedSolanaConnection } from '../bounded-rpc';
import { solanaTransactionStatus } from './solana-transaction-status';

describe('Solana transaction status on the local Solana devnet', () => {
  let devnet: SolanaDevnetHandle;
  let connection: Connection;

  beforeAll(async () => {
    devnet = await startSolanaDevnet({ port: 0, slotMs: 60_000 }); // slots advance only when the test says so
    connection = boundedSolanaConnection(devnet.manifest.rpcUrl);
  });
  afterAll(async () => devnet?.stop());

  async function transfer(lamports: number, skipPreflight = false): Promise<string> {
    const payer = solanaTestWallet(7);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: Keypair.generate().publicKey,
          lamports,
        }),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    return connection.sendRawTransaction(tx.serialize(), { skipPreflight });
  }

  async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
    try {
      await promise;
      return undefined;
    } catch (error) {
      return (error as CodedError).code;
    }
  }

  it('is pending while processed and confirmed one slot later, with the block time', async () => {
    const signature = await transfer(1_000_000);
    expect((await solanaTransactionStatus(connection, 'solana-devnet', signature)).status).toBe('pending');
    devnet.ledger.produceSlot();
    const confirmed = await solanaTransactionStatus(connection, 'solana-devnet', signature);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.confirmedAtMs).toBeGreaterThan(Date.now() - 120_000);
  });

  it('reports a failed transaction with its error', async () => {
    const signature = await transfer(1_000_000 * LAMPORTS_PER_SOL, true);
    const failed = await solanaTransactionStatus(connection, 'solana-devnet', signature);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('InstructionError') });
  });

  it('answers TRANSACTION_NOT_FOUND for an unknown signature and INVALID_TX_HASH for a non-signature', async () => {
    expect(await codeOf(solanaTransactionStatus(connection, 'solana-devnet', '5'.repeat(88)))).toBe(
      'TRANSACTION_NOT_FOUND',
    );
    expect(await codeOf(solanaTransactionStatus(connection, 'solana-devnet', '0xdeadbeef'))).toBe(
      'INVALID_TX_HASH',
    );
  });

  it('answers STATUS_UPSTREAM_ERROR when the RPC is unreachable', async () => {
    const unreachable = boundedSolanaConnection('http://127.0.0.1:1', 2000);
    expect(await codeOf(solanaTransactionStatus(unreachable, 'solana-devnet', '5'.repeat(88)))).toBe(
      'STATUS_UPSTREAM_ERROR',
    );
  });
});
