import { IncomingMessage, ServerResponse } from 'node:http';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { LocalHttpServer } from '../local-http-server';
import { FINALITY_SLOTS, LedgerRpcError, SolanaLedger, StoredTransaction } from './solana-ledger';

interface JsonRpcRequest {
  jsonrpc?: string;
  id?: string | number | null;
  method?: unknown;
  params?: unknown[];
}

type Handler = (params: unknown[]) => unknown;

const TOKEN_ACCOUNT_LENGTH = 165;
const MINT_DECIMALS_OFFSET = 44;
const SOLANA_CORE_VERSION = '2.2.0';
/** SPL Memo v3 and v1: their instruction data is the memo text (both ship in litesvm). */
const MEMO_PROGRAM_IDS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);
const MAX_SIGNATURES_LIMIT = 1000;

/**
 * JSON-RPC over HTTP for the subset of Solana's documented RPC that @solana/web3.js's Connection
 * uses in this project, backed by a SolanaLedger. Unknown methods answer -32601 like a validator.
 */
export class SolanaRpcServer {
  private readonly http = new LocalHttpServer((req, res) => this.handle(req, res));
  private readonly handlers: Record<string, Handler>;

  constructor(private readonly ledger: SolanaLedger) {
    this.handlers = {
      getHealth: () => 'ok',
      getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 0 }),
      getSlot: () => this.ledger.currentSlot,
      getBlockHeight: () => this.ledger.currentSlot,
      getLatestBlockhash: () => this.withContext(this.ledger.latestBlockhash()),
      isBlockhashValid: ([blockhash]) => this.withContext(this.ledger.isBlockhashValid(String(blockhash))),
      getBalance: ([address]) => this.withContext(this.ledger.balanceOf(this.publicKey(address))),
      getMinimumBalanceForRentExemption: ([length]) =>
        this.ledger.minimumBalanceForRentExemption(Number(length)),
      getAccountInfo: ([address, config]) =>
        this.withContext(this.accountInfo(this.publicKey(address), config)),
      getTokenAccountBalance: ([address]) =>
        this.withContext(this.tokenAccountBalance(this.publicKey(address))),
      requestAirdrop: ([address, lamports]) => this.ledger.airdrop(this.publicKey(address), Number(lamports)),
      sendTransaction: ([encoded, config]) => {
        const options = (config ?? {}) as { encoding?: string; skipPreflight?: boolean };
        return this.ledger.sendTransaction(this.decodeWire(encoded, options.encoding), {
          skipPreflight: options.skipPreflight,
        });
      },
      simulateTransaction: ([encoded, config]) => {
        const options = (config ?? {}) as {
          encoding?: string;
          sigVerify?: boolean;
          replaceRecentBlockhash?: boolean;
        };
        const result = this.ledger.simulateTransaction(this.decodeWire(encoded, options.encoding), options);
        return this.withContext({ ...result, accounts: null, returnData: null });
      },
      getSignatureStatuses: ([signatures]) =>
        this.withContext(
          (Array.isArray(signatures) ? signatures : []).map((signature) => {
            const status = this.ledger.signatureStatus(String(signature));
            return status && { ...status, status: status.err ? { Err: status.err } : { Ok: null } };
          }),
        ),
      getTransaction: ([signature, config]) => this.transaction(String(signature), config),
      getSignaturesForAddress: ([address, config]) =>
        this.signaturesForAddress(this.publicKey(address), config),
    };
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return this.http.listen(port, host);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'GET' && req.url === '/health' ? 200 : 405, {
        'content-type': 'text/plain',
      });
      res.end(req.url === '/health' ? 'ok' : 'Method Not Allowed');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return this.reply(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const answer = Array.isArray(body)
      ? body.map((r) => this.dispatch(r as JsonRpcRequest))
      : this.dispatch(body as JsonRpcRequest);
    this.reply(res, answer);
  }

  private dispatch(request: JsonRpcRequest): unknown {
    const id = request?.id ?? null;
    const handler = typeof request?.method === 'string' ? this.handlers[request.method] : undefined;
    if (!handler) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
    try {
      return { jsonrpc: '2.0', id, result: handler(Array.isArray(request.params) ? request.params : []) };
    } catch (error) {
      if (error instanceof LedgerRpcError) {
        return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } };
      }
      return {
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: `Invalid params: ${(error as Error).message}` },
      };
    }
  }

  private reply(res: ServerResponse, payload: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  }

  private withContext<T>(value: T): { context: { slot: number; apiVersion: string }; value: T } {
    return { context: { slot: this.ledger.currentSlot, apiVersion: SOLANA_CORE_VERSION }, value };
  }

  private publicKey(value: unknown): PublicKey {
    try {
      return new PublicKey(String(value));
    } catch {
      throw new LedgerRpcError(-32602, `Invalid param: ${String(value)} is not a valid public key`);
    }
  }

  private decodeWire(encoded: unknown, encoding = 'base58'): Uint8Array {
    const text = String(encoded);
    return encoding === 'base64' ? new Uint8Array(Buffer.from(text, 'base64')) : bs58.decode(text);
  }

  private accountInfo(address: PublicKey, config: unknown) {
    const account = this.ledger.getAccount(address);
    if (!account) return null;
    const encoding = (config as { encoding?: string } | undefined)?.encoding ?? 'base58';
    const data =
      encoding === 'base64'
        ? [Buffer.from(account.data).toString('base64'), 'base64']
        : [bs58.encode(account.data), 'base58'];
    return {
      data,
      executable: account.executable,
      lamports: account.lamports,
      owner: account.owner.toBase58(),
      rentEpoch: account.rentEpoch,
      space: account.data.length,
    };
  }

  private tokenAccountBalance(address: PublicKey) {
    const account = this.ledger.getAccount(address);
    if (!account || account.data.length !== TOKEN_ACCOUNT_LENGTH) {
      throw new LedgerRpcError(-32602, 'Invalid param: could not find account');
    }
    const data = Buffer.from(account.data);
    const mint = this.ledger.getAccount(new PublicKey(data.subarray(0, 32)));
    const decimals = mint ? mint.data[MINT_DECIMALS_OFFSET] : 0;
    const amount = data.readBigUInt64LE(64).toString();
    const uiAmountString = formatUnits(amount, decimals);
    return { amount, decimals, uiAmount: Number(uiAmountString), uiAmountString };
  }

  /**
   * Solana's documented shape: newest first, `limit` (1..1000, default 1000), `before`/`until`
   * signatures, `commitment` confirmed (the default here, 1 slot deep) or finalized. `memo` is what
   * a validator shows: "[<bytes>] <text>" per memo instruction, joined by "; ".
   */
  private signaturesForAddress(address: PublicKey, config: unknown) {
    const options = (config ?? {}) as {
      limit?: number;
      before?: string;
      until?: string;
      commitment?: string;
    };
    const limit = options.limit ?? MAX_SIGNATURES_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_LIMIT) {
      throw new LedgerRpcError(-32602, `Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
    }
    if (options.commitment === 'processed') {
      throw new LedgerRpcError(-32602, 'Method does not support commitment below `confirmed`');
    }
    const minDepth = options.commitment === 'finalized' ? FINALITY_SLOTS : 1;
    return this.ledger
      .signaturesForAddress(address, { limit, before: options.before, until: options.until, minDepth })
      .map((tx) => {
        const status = this.ledger.signatureStatus(tx.signature);
        return {
          signature: tx.signature,
          slot: tx.slot,
          err: tx.err,
          memo: memoOf(tx),
          blockTime: tx.blockTime,
          confirmationStatus: status?.confirmationStatus ?? 'confirmed',
        };
      });
  }

  private transaction(signature: string, config: unknown) {
    const stored = this.ledger.getTransaction(signature);
    if (!stored) return null;
    if (!stored.raw) {
      return null; // airdrops are not transactions a client can fetch
    }
    const tx = VersionedTransaction.deserialize(stored.raw);
    const maxVersion = (config as { maxSupportedTransactionVersion?: number } | undefined)
      ?.maxSupportedTransactionVersion;
    if (tx.version !== 'legacy' && maxVersion === undefined) {
      throw new LedgerRpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    const message = tx.message;
    return {
      slot: stored.slot,
      blockTime: stored.blockTime,
      version: tx.version,
      meta: {
        err: stored.err,
        status: stored.err ? { Err: stored.err } : { Ok: null },
        fee: stored.fee,
        preBalances: stored.preBalances,
        postBalances: stored.postBalances,
        innerInstructions: [],
        logMessages: stored.logs,
        preTokenBalances: [],
        postTokenBalances: [],
        rewards: [],
        loadedAddresses: { writable: [], readonly: [] },
        computeUnitsConsumed: stored.computeUnitsConsumed,
      },
      transaction: {
        signatures: tx.signatures.map((s) => bs58.encode(s)),
        message: {
          header: message.header,
          accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
          recentBlockhash: message.recentBlockhash,
          instructions: message.compiledInstructions.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: ix.accountKeyIndexes,
            data: bs58.encode(ix.data),
          })),
          ...(tx.version === 'legacy' ? {} : { addressTableLookups: message.addressTableLookups }),
        },
      },
    };
  }
}

function memoOf(tx: StoredTransaction): string | null {
  if (!tx.raw) return null;
  const message = VersionedTransaction.deserialize(tx.raw).message;
  const memos = message.compiledInstructions
    .filter((ix) => MEMO_PROGRAM_IDS.has(message.staticAccountKeys[ix.programIdIndex].toBase58()))
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString('utf8')}`);
  return memos.length > 0 ? memos.join('; ') : null;
}

function formatUnits(amount: string, decimals: number): string {
  if (decimals === 0) return amount;
  const padded = amount.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
