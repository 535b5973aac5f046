import {
  ConfirmedSignatureInfo,
  Connection,
  Keypair,
  MessageCompiledInstruction,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  amountAfterBridgeFee,
  MEMO_PROGRAM_ID,
  MEMO_V1_PROGRAM_ID,
  memoInstruction,
  parseSolanaBridgeDepositMemo,
  parseSolanaBridgeReleaseMemo,
  solanaBridgeReleaseMemo,
  solanaBridgeSwapMessageBytes,
  solanaDepositNonce,
} from '@swapgw/chains/solana-bridge';
import { SolanaDevnetManifest } from '../solana/solana-devnet';
import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';
import { RelayerLogger } from './bridge-relayer';

export interface SolanaBridgeEndpointOptions {
  manifest: Pick<SolanaDevnetManifest, 'id' | 'tokens' | 'bridge'>;
  connection: Connection;
  /** Owner of the vault and the only signer of releases. */
  authority: Keypair;
  /** The same fee the EVM bridges keep, in basis points of the deposited amount. */
  feeBps: number;
  logger: RelayerLogger;
  /** How long a release may take to reach `confirmed` before it counts as failed (retried). */
  confirmTimeoutMs?: number;
}

const CONTEXT = 'SolanaBridgeEndpoint';
const SIGNATURES_PAGE = 1000;
const SPL_TRANSFER = 3;
const SPL_TRANSFER_CHECKED = 12;

/** What one transaction touching the vault did, read from its top-level instructions. */
export interface VaultTransactionView {
  feePayer: string;
  /** USDC base units moved into the vault by SPL Token Transfer/TransferChecked instructions. */
  vaultInflow: bigint;
  /** Owner (authority) of the source account of the first transfer into the vault. */
  depositor?: string;
  /** Texts of the SPL Memo (v1 or v3) instructions, in order. */
  memos: string[];
}

/**
 * Reads a transaction's top-level instructions. Transfers made by CPI from another program are not
 * deposits: a user deposits with the two instructions of solanaBridgeDepositInstructions.
 */
export function readVaultTransaction(input: {
  accountKeys: string[];
  instructions: Pick<MessageCompiledInstruction, 'programIdIndex' | 'accountKeyIndexes' | 'data'>[];
  vault: string;
  mint: string;
}): VaultTransactionView {
  const view: VaultTransactionView = { feePayer: input.accountKeys[0], vaultInflow: 0n, memos: [] };
  const tokenProgram = TOKEN_PROGRAM_ID.toBase58();
  const memoPrograms = new Set([MEMO_PROGRAM_ID.toBase58(), MEMO_V1_PROGRAM_ID.toBase58()]);
  for (const ix of input.instructions) {
    const program = input.accountKeys[ix.programIdIndex];
    const data = Buffer.from(ix.data);
    const account = (i: number) => input.accountKeys[ix.accountKeyIndexes[i]];
    if (memoPrograms.has(program)) {
      view.memos.push(data.toString('utf8'));
    } else if (
      program === tokenProgram &&
      data.length >= 9 &&
      (data[0] === SPL_TRANSFER || data[0] === SPL_TRANSFER_CHECKED)
    ) {
      const checked = data[0] === SPL_TRANSFER_CHECKED;
      const destination = account(checked ? 2 : 1);
      if (destination !== input.vault || (checked && account(1) !== input.mint)) continue;
      view.vaultInflow += data.readBigUInt64LE(1);
      view.depositor ??= account(checked ? 3 : 2);
    }
  }
  return view;
}

/**
 * The Solana side of the devnet bridge. Deposits: USDC transferred to the vault with a memo
 * `swapgw-bridge:v1:<destinationChainId>:<recipient>` (an EVM address; a Bitcoin address towards
 * Bitcoin; a `noble1…` account towards Noble, minted uusdc by Noble's end), found through
 * getSignaturesForAddress(vault) and getTransaction. A memo naming a recipient its destination cannot
 * pay is no bridge memo: the transfer is ignored (logged), never relayed. A memo that also carries a swap message (`...:swap:<path>:...`, see
 * solanaBridgeDepositMemo) makes a transfer with a message: its recipient is the destination's
 * SwapGatewayRouter and the destination releases it with releaseWithMessage, the message being the
 * router's BridgeSwapMessage (solanaBridgeSwapMessageBytes), as for an EVM depositWithMessage.
 * Releases: the authority pays the recipient's USDC associated token account (created
 * idempotently) from the vault, with the memo `swapgw-bridge-release:<source>:<nonce>`; those memos
 * on the vault's history are the record that makes releases idempotent.
 */
export class SolanaBridgeEndpoint implements BridgeEndpoint {
  readonly chain: string;
  readonly bridgeChainId: bigint;
  private readonly vault: PublicKey;
  private readonly mint: PublicKey;
  private readonly connection: Connection;
  /** Newest vault signature already read: the next scan asks for what came after it. */
  private cursor: string | undefined;
  /** `<sourceChainId>:<nonce>` of every release on the vault's history (or sent by this process). */
  private readonly releasedKeys = new Set<string>();
  private unreported: BridgeTransfer[] = [];
  private scanning: Promise<void> = Promise.resolve();

  constructor(private readonly options: SolanaBridgeEndpointOptions) {
    this.chain = options.manifest.id;
    this.bridgeChainId = BigInt(options.manifest.bridge.chainId);
    this.vault = new PublicKey(options.manifest.bridge.vault);
    this.mint = new PublicKey(options.manifest.tokens.USDC.mint);
    this.connection = options.connection;
  }

  async pollDeposits(): Promise<BridgeTransfer[]> {
    await this.scan();
    const batch = this.unreported;
    this.unreported = [];
    return batch;
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    // The history is read first so a release recorded on chain (by an earlier relayer run, or a
    // retry after an unknown outcome) is never paid twice.
    await this.scan();
    const key = releaseKey(transfer.sourceBridgeChainId, transfer.nonce);
    if (this.releasedKeys.has(key)) return { status: 'already-released' };

    let recipient: PublicKey;
    try {
      recipient = new PublicKey(transfer.recipient);
    } catch {
      throw new Error(`recipient ${transfer.recipient} is not a Solana address`);
    }
    const authority = this.options.authority;
    const recipientAccount = getAssociatedTokenAddressSync(this.mint, recipient, true);
    const { blockhash } = await this.connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: authority.publicKey,
      recentBlockhash: blockhash,
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(
          authority.publicKey,
          recipientAccount,
          recipient,
          this.mint,
        ),
        createTransferCheckedInstruction(
          this.vault,
          this.mint,
          recipientAccount,
          authority.publicKey,
          transfer.amount,
          this.options.manifest.tokens.USDC.decimals,
        ),
        memoInstruction(solanaBridgeReleaseMemo(transfer.sourceBridgeChainId, transfer.nonce), [
          authority.publicKey,
        ]),
      ],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([authority]);
    // Preflight on: a release that would fail is refused before it is recorded anywhere.
    const signature = await this.connection.sendTransaction(tx);
    // The local ledger executes on receipt, so once sent the release exists; recording it here
    // keeps a retry after a confirmation timeout from paying twice. The history check above sees
    // it once confirmed (one slot later); the devnet's relayer and ledger live and die together,
    // so no other relayer can act inside that slot.
    this.releasedKeys.add(key);
    await this.waitUntilConfirmed(signature, key);
    return { status: 'released', txHash: signature };
  }

  async close(): Promise<void> {
    await this.scanning.catch(() => undefined);
  }

  /** Reads the vault's new signatures, oldest first; one scan at a time. */
  private scan(): Promise<void> {
    const next = this.scanning.catch(() => undefined).then(() => this.scanOnce());
    this.scanning = next;
    return next;
  }

  private async scanOnce(): Promise<void> {
    const found: ConfirmedSignatureInfo[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.connection.getSignaturesForAddress(
        this.vault,
        { until: this.cursor, before, limit: SIGNATURES_PAGE },
        'confirmed',
      );
      found.push(...page);
      if (page.length < SIGNATURES_PAGE) break;
      before = page[page.length - 1].signature;
    }
    for (const info of found.reverse()) {
      if (!info.err) await this.inspect(info.signature);
      // Advanced per transaction: a failed read resumes here on the next scan, not from scratch.
      this.cursor = info.signature;
    }
  }

  private async inspect(signature: string): Promise<void> {
    const response = await this.connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
    if (!response)
      throw new Error(`vault transaction ${signature} is listed but not returned by getTransaction`);
    if (response.meta?.err) return;
    const message = response.transaction.message;
    const keys = message.getAccountKeys({ accountKeysFromLookups: response.meta?.loadedAddresses });
    const view = readVaultTransaction({
      accountKeys: [
        ...keys.staticAccountKeys,
        ...(keys.accountKeysFromLookups?.writable ?? []),
        ...(keys.accountKeysFromLookups?.readonly ?? []),
      ].map((k) => k.toBase58()),
      instructions: message.compiledInstructions,
      vault: this.vault.toBase58(),
      mint: this.mint.toBase58(),
    });

    if (view.feePayer === this.options.authority.publicKey.toBase58()) {
      // Only the authority's own memos count as releases: anyone can write a memo.
      for (const memo of view.memos) {
        const release = parseSolanaBridgeReleaseMemo(memo);
        if (release) this.releasedKeys.add(releaseKey(release.sourceChainId, release.nonce));
      }
      return;
    }
    if (view.vaultInflow === 0n) return;

    const fields = {
      signature,
      amount: view.vaultInflow.toString(),
      depositor: view.depositor,
      memos: view.memos,
    };
    const parsed = view.memos.map(parseSolanaBridgeDepositMemo).filter((m) => m !== undefined);
    if (view.memos.length !== 1 || parsed.length !== 1) {
      // Funds stay in the vault (devnet): without exactly one valid memo there is no destination.
      this.options.logger.warn(
        { msg: 'transfer to the bridge vault without one valid bridge memo; ignored', ...fields },
        CONTEXT,
      );
      return;
    }
    const { destinationChainId, recipient, message: swapMessage } = parsed[0];
    const amount = amountAfterBridgeFee(view.vaultInflow, this.options.feeBps);
    if (destinationChainId === this.bridgeChainId || amount === 0n) {
      this.options.logger.warn(
        {
          msg: 'bridge deposit to its own chain or below the fee; ignored',
          ...fields,
          destinationChainId: destinationChainId.toString(),
        },
        CONTEXT,
      );
      return;
    }
    this.unreported.push({
      sourceChain: this.chain,
      sourceBridgeChainId: this.bridgeChainId,
      nonce: solanaDepositNonce(signature),
      destinationBridgeChainId: destinationChainId,
      recipient,
      amount,
      depositTxHash: signature,
      ...(swapMessage !== undefined ? { message: solanaBridgeSwapMessageBytes(swapMessage) } : {}),
    });
  }

  private async waitUntilConfirmed(signature: string, key: string): Promise<void> {
    const deadline = Date.now() + (this.options.confirmTimeoutMs ?? 10_000);
    for (;;) {
      const {
        value: [status],
      } = await this.connection.getSignatureStatuses([signature]);
      if (status?.err) {
        this.releasedKeys.delete(key);
        throw new Error(`release transaction ${signature} failed: ${JSON.stringify(status.err)}`);
      }
      if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
      if (Date.now() > deadline) throw new Error(`release transaction ${signature} not confirmed in time`);
      // Bounded poll of the chain for the next slot (slots are 400 ms by default).
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const releaseKey = (sourceChainId: bigint, nonce: bigint) => `${sourceChainId}:${nonce}`;
