import { Connection, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { DevnetSolanaView } from '@swapgw/chains';
import { solanaBridgeDepositInstructions } from '@swapgw/chains/solana-bridge';
import { SolanaSigningPayload, SolanaStepSpec } from '@swapgw/contracts';
import { LAMPORTS_PER_SIGNATURE } from './solana-fees';
import { buildSolanaPayload } from './solana-transaction';

/** The step cannot be signed as built (simulation fails, a prebuilt transaction is stale...). */
export class SolanaStepInvalid extends Error {}

/** Errors that mean the Solana node could not be reached (createSolanaConnection's fetch errors). */
export function isSolanaRpcUnreachable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|socket hang up|aborted|timed? ?out/i.test(message);
}

/**
 * Balance on Solana: lamports when `mint` is null, else the base units in `holder`'s associated
 * token account of `mint` (0 while that account does not exist).
 */
export async function readSolanaBalance(connection: Connection, mint: string | null, holder: string): Promise<bigint> {
  const owner = new PublicKey(holder);
  if (mint === null) return BigInt(await connection.getBalance(owner, 'confirmed'));
  const account = getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);
  if (!(await connection.getAccountInfo(account, 'confirmed'))) return 0n;
  return BigInt((await connection.getTokenAccountBalance(account, 'confirmed')).value.amount);
}

export interface SolanaSurface {
  connection: Connection;
  devnet: DevnetSolanaView | undefined;
  slotMs: number;
}

export interface IssuedSolanaPayload {
  payload: SolanaSigningPayload;
  executionHints: Record<string, string>;
  expiresAtMs: number;
}

/**
 * The payload of a Solana step: the unsigned v0 transaction with a recent blockhash (bridge
 * deposit), or the aggregator's transaction as it is (prebuilt: its bytes are what the user signs,
 * nothing is refreshed). It expires with its blockhash: (lastValidBlockHeight − current height) ×
 * slot time, and never later than `ttlMs`. The transaction is simulated first (no signature
 * check), so a deposit the wallet cannot pay fails the step now instead of after signing.
 */
export async function issueSolanaPayload(
  surface: SolanaSurface,
  request: { from: string; solana: SolanaStepSpec },
  policy: { ttlMs: number },
  nowMs: number,
): Promise<IssuedSolanaPayload> {
  const { connection } = surface;
  const feePayer = parseKey(request.from, 'from');
  let payload: SolanaSigningPayload;
  let lastValidBlockHeight: number;
  if (request.solana.kind === 'bridge-deposit') {
    const instructions = bridgeDepositInstructions(surface.devnet, feePayer, request.solana);
    const latest = await connection.getLatestBlockhash('confirmed');
    payload = buildSolanaPayload({ feePayer, instructions, recentBlockhash: latest.blockhash });
    lastValidBlockHeight = latest.lastValidBlockHeight;
  } else {
    payload = prebuiltPayload(request.solana, feePayer);
    lastValidBlockHeight = request.solana.lastValidBlockHeight!;
  }
  const transaction = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));

  const height = await connection.getBlockHeight('confirmed');
  const blocksLeft = lastValidBlockHeight - height;
  if (blocksLeft <= 0) {
    throw new SolanaStepInvalid(
      `the transaction's blockhash expired at block height ${lastValidBlockHeight} (now ${height})` +
        (request.solana.kind === 'prebuilt-transaction' ? ': the aggregator transaction cannot be renewed; quote again' : ''),
    );
  }
  const simulation = await connection.simulateTransaction(transaction, { sigVerify: false, commitment: 'confirmed' });
  if (simulation.value.err) {
    const logs = (simulation.value.logs ?? []).slice(-3).join(' | ');
    throw new SolanaStepInvalid(`simulation failed: ${JSON.stringify(simulation.value.err)}${logs ? ` (${logs})` : ''}`);
  }
  const signatures = transaction.message.header.numRequiredSignatures;
  return {
    payload,
    executionHints: {
      feePayer: feePayer.toBase58(),
      recentBlockhash: transaction.message.recentBlockhash,
      lastValidBlockHeight: String(lastValidBlockHeight),
      estimatedFeeLamports: String(signatures * LAMPORTS_PER_SIGNATURE),
    },
    expiresAtMs: nowMs + Math.min(policy.ttlMs, blocksLeft * surface.slotMs),
  };
}

function bridgeDepositInstructions(devnet: DevnetSolanaView | undefined, user: PublicKey, spec: SolanaStepSpec) {
  if (!devnet) throw new SolanaStepInvalid('this Solana chain has no devnet bridge');
  if (spec.mint !== devnet.tokens.USDC.mint || spec.vault !== devnet.bridge.vault) {
    throw new SolanaStepInvalid(`the bridge takes USDC ${devnet.tokens.USDC.mint} into vault ${devnet.bridge.vault}, not ${spec.mint} into ${spec.vault}`);
  }
  return solanaBridgeDepositInstructions({
    user,
    amount: BigInt(spec.amount!),
    destinationChainId: spec.destinationChainId!,
    recipient: spec.recipient!,
    manifest: devnet,
  });
}

function prebuiltPayload(spec: SolanaStepSpec, feePayer: PublicKey): SolanaSigningPayload {
  let transaction: VersionedTransaction;
  try {
    transaction = VersionedTransaction.deserialize(Buffer.from(spec.serializedTransaction!, 'base64'));
  } catch (error) {
    throw new SolanaStepInvalid(`the prebuilt transaction does not decode: ${(error as Error).message}`);
  }
  const payer = transaction.message.staticAccountKeys[0];
  if (!payer?.equals(feePayer)) {
    throw new SolanaStepInvalid(`the prebuilt transaction is paid by ${payer?.toBase58() ?? 'nobody'}, not by the signing wallet ${feePayer.toBase58()}`);
  }
  // Handed out unsigned, exactly as built: any signature slot the aggregator filled is cleared.
  const unsigned = new VersionedTransaction(transaction.message);
  return { type: 'solana-versioned-transaction', transaction: Buffer.from(unsigned.serialize()).toString('base64') };
}

function parseKey(address: string, field: string): PublicKey {
  try {
    return new PublicKey(address);
  } catch {
    throw new SolanaStepInvalid(`${field} ${address} is not a Solana address`);
  }
}
