import {
  Connection,
  PACKET_DATA_SIZE,
  PublicKey,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import type { DevnetSolanaView } from '../../devnet-manifest';
import { solanaBridgeDepositInstructions } from '../../solana-bridge';
import { SolanaSigningPayload, SolanaStepSpec } from '@swapgw/contracts';
import type { IntegratorFeeTransfer } from '../step-parts';
import { LAMPORTS_PER_SIGNATURE } from './solana-fees';
import { solanaFeeAccountsOf, solanaIntegratorFeeInstructions } from './solana-integrator-fees';
import {
  maxFeeLamportsOf,
  NotSponsorable,
  readdressToFeePayer,
  TOKEN_ACCOUNT_BYTES,
} from './solana-sponsored-transaction';
import { buildSolanaPayload } from './solana-transaction';

/** The step cannot be signed as built (simulation fails, a prebuilt transaction is stale...). */
export class SolanaStepInvalid extends Error {}

export interface SolanaSurface {
  connection: Connection;
  devnet: DevnetSolanaView | undefined;
  slotMs: number;
}

export interface IssuedSolanaPayload {
  payload: SolanaSigningPayload;
  executionHints: Record<string, string>;
  expiresAtMs: number;
  /** What the fee payer may spend on it, in lamports: fees (at most) and rent of accounts it creates. */
  cost: { maxFeeLamports: bigint; rentLamports: bigint };
}

/**
 * The payload of a Solana step: the unsigned v0 transaction with a recent blockhash (bridge
 * deposit), or the aggregator's transaction as it is (prebuilt: its bytes are what the user signs,
 * nothing is refreshed). It expires with its blockhash: (lastValidBlockHeight − current height) ×
 * slot time, and never later than `ttlMs`. The transaction is simulated first (no signature
 * check), so a deposit the wallet cannot pay fails the step now instead of after signing.
 *
 * A bridge deposit with `integratorFees` pays each recipient's associated token account in the same
 * transaction, before the deposit (solanaIntegratorFeeInstructions); a recipient's account that does
 * not exist yet is created by the fee payer, whose rent is part of the step's cost.
 *
 * A bridge deposit with a `message` (a Solana → EVM route whose destination swap runs from this one
 * signature) carries it in its memo, which the wallet signs: the bridge relayer releases the deposit
 * to the destination's SwapGatewayRouter with that message, and the router swaps for the recipient.
 *
 * Sponsored (`feePayer`: one of the service's Solana fee payers): the transaction names it as fee
 * payer, so it pays the fees and any rent, and the user signs as the owner of what moves. A bridge
 * deposit is built that way (the user stays the transfer's authority and the memo's signer); a
 * prebuilt transaction is re-addressed to it (readdressToFeePayer: the same instructions and
 * blockhash, its account creations paid by the fee payer) or the step fails. The simulation then
 * also shows the wallet keeps its SOL, where the node reports simulated balances.
 */
export async function issueSolanaPayload(
  surface: SolanaSurface,
  request: { from: string; solana: SolanaStepSpec; feePayer?: string },
  policy: { ttlMs: number },
  nowMs: number,
): Promise<IssuedSolanaPayload> {
  const { connection } = surface;
  const wallet = parseKey(request.from, 'from');
  const sponsor = request.feePayer === undefined ? undefined : parseKey(request.feePayer, 'feePayer');
  const feePayer = sponsor ?? wallet;
  let transaction: VersionedTransaction;
  let lastValidBlockHeight: number;
  let rentLamports = 0n;
  if (request.solana.kind === 'bridge-deposit') {
    const devnet = devnetBridgeOf(surface);
    const deposit = bridgeDepositInstructions(devnet, wallet, request.solana);
    const fees = await integratorFeesOf(connection, devnet, wallet, feePayer, request.solana);
    rentLamports = fees.rentLamports;
    const instructions = [...fees.instructions, ...deposit];
    const latest = await connection.getLatestBlockhash('confirmed');
    let size: number;
    let payload: SolanaSigningPayload | undefined;
    try {
      payload = buildSolanaPayload({ feePayer, instructions, recentBlockhash: latest.blockhash });
      size = Buffer.from(payload.transaction, 'base64').length;
    } catch {
      size = Number.POSITIVE_INFINITY; // web3.js cannot even encode it
    }
    // Fee transfers with a long bridge-swap memo can outgrow one packet: refused before signing.
    if (!payload || size > PACKET_DATA_SIZE) {
      throw new SolanaStepInvalid(
        `the bridge deposit with ${fees.recipients} integrator fee transfers does not fit one transaction (over ${PACKET_DATA_SIZE} bytes)`,
      );
    }
    transaction = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    lastValidBlockHeight = latest.lastValidBlockHeight;
  } else {
    transaction = prebuiltTransaction(request.solana, wallet);
    if (sponsor) {
      try {
        ({ transaction, rentLamports } = await readdressToFeePayer(connection, transaction, wallet, sponsor));
      } catch (error) {
        if (error instanceof NotSponsorable) throw new SolanaStepInvalid(error.message);
        throw error;
      }
    }
    lastValidBlockHeight = requiredField(request.solana, 'lastValidBlockHeight');
  }
  const payload: SolanaSigningPayload = {
    type: 'solana-versioned-transaction',
    transaction: Buffer.from(transaction.serialize()).toString('base64'),
  };

  const height = await connection.getBlockHeight('confirmed');
  const blocksLeft = lastValidBlockHeight - height;
  if (blocksLeft <= 0) {
    throw new SolanaStepInvalid(
      `the transaction's blockhash expired at block height ${lastValidBlockHeight} (now ${height})` +
        (request.solana.kind === 'prebuilt-transaction'
          ? ': the aggregator transaction cannot be renewed; quote again'
          : ''),
    );
  }
  const simulation = await connection.simulateTransaction(transaction, {
    sigVerify: false,
    commitment: 'confirmed',
    ...(sponsor ? { accounts: { encoding: 'base64' as const, addresses: [wallet.toBase58()] } } : {}),
  });
  if (simulation.value.err) {
    const logs = (simulation.value.logs ?? []).slice(-3).join(' | ');
    throw new SolanaStepInvalid(
      `simulation failed: ${JSON.stringify(simulation.value.err)}${logs ? ` (${logs})` : ''}`,
    );
  }
  if (sponsor) await assertWalletKeepsItsSol(connection, wallet, simulation.value.accounts);
  const maxFeeLamports = sponsor
    ? maxFeeLamportsOf(transaction.message)
    : BigInt(transaction.message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE);
  return {
    payload,
    executionHints: {
      feePayer: feePayer.toBase58(),
      recentBlockhash: transaction.message.recentBlockhash,
      lastValidBlockHeight: String(lastValidBlockHeight),
      estimatedFeeLamports: String(maxFeeLamports),
      ...(sponsor
        ? {
            gasPaidBy: 'service',
            userPaysLamports: '0',
            ...(rentLamports > 0n ? { rentPaidByServiceLamports: String(rentLamports) } : {}),
          }
        : {}),
    },
    expiresAtMs: nowMs + Math.min(policy.ttlMs, blocksLeft * surface.slotMs),
    cost: { maxFeeLamports, rentLamports },
  };
}

/**
 * A sponsored transaction must leave the wallet's SOL whole: its simulated balance (when the node
 * reports simulated accounts; the devnet does not) is compared with the balance now.
 */
async function assertWalletKeepsItsSol(
  connection: Connection,
  wallet: PublicKey,
  accounts: ({ lamports: number } | null)[] | null | undefined,
): Promise<void> {
  if (!accounts || accounts.length === 0) return;
  const after = BigInt(accounts[0]?.lamports ?? 0);
  const before = BigInt(await connection.getBalance(wallet, 'confirmed'));
  if (after < before) {
    throw new SolanaStepInvalid(
      `the transaction would take ${before - after} lamports from the wallet, whose fees the service pays: it cannot be sponsored; quote with gasPayment user`,
    );
  }
}

/** The bridge a deposit goes to: only the devnet's Solana chain has one. */
function devnetBridgeOf(surface: SolanaSurface): DevnetSolanaView {
  if (!surface.devnet) throw new SolanaStepInvalid('this Solana chain has no devnet bridge');
  return surface.devnet;
}

/**
 * A field the spec's kind requires (the step message's validation checks it): a step without it
 * cannot be built.
 */
function requiredField<K extends keyof SolanaStepSpec>(
  spec: SolanaStepSpec,
  field: K,
): NonNullable<SolanaStepSpec[K]> {
  const value = spec[field];
  if (value === undefined || value === null)
    throw new SolanaStepInvalid(`a ${spec.kind} step has no ${field}`);
  return value;
}

function bridgeDepositInstructions(devnet: DevnetSolanaView, user: PublicKey, spec: SolanaStepSpec) {
  if (spec.mint !== devnet.tokens.USDC.mint || spec.vault !== devnet.bridge.vault) {
    throw new SolanaStepInvalid(
      `the bridge takes USDC ${devnet.tokens.USDC.mint} into vault ${devnet.bridge.vault}, not ${spec.mint} into ${spec.vault}`,
    );
  }
  const message = spec.message && {
    venue: spec.message.venue,
    path: spec.message.path,
    amountOutMin: BigInt(spec.message.amountOutMin),
    recipient: spec.message.recipient,
    unwrapNative: spec.message.unwrapNative,
    deadline: BigInt(spec.message.deadline),
  };
  const amount = requiredField(spec, 'amount');
  const destinationChainId = requiredField(spec, 'destinationChainId');
  const recipient = requiredField(spec, 'recipient');
  try {
    return solanaBridgeDepositInstructions({
      user,
      amount: BigInt(amount),
      destinationChainId,
      recipient,
      ...(message ? { message } : {}),
      manifest: devnet,
    });
  } catch (error) {
    // A message the destination router would refuse is never handed out to be signed.
    throw new SolanaStepInvalid(`the bridge deposit cannot be built: ${(error as Error).message}`);
  }
}

/**
 * The transfers paying the deposit's integrator fees out of the wallet's USDC, before the deposit
 * (solanaIntegratorFeeInstructions), and the rent of the recipients' token accounts the transaction
 * creates (read now: an account that does not exist yet is created by the fee payer, which pays
 * its rent; the creation is idempotent, so one created meanwhile costs nothing).
 */
async function integratorFeesOf(
  connection: Connection,
  devnet: DevnetSolanaView,
  wallet: PublicKey,
  feePayer: PublicKey,
  spec: SolanaStepSpec,
): Promise<{ instructions: TransactionInstruction[]; rentLamports: bigint; recipients: number }> {
  const specs = spec.integratorFees ?? [];
  if (specs.length === 0) return { instructions: [], rentLamports: 0n, recipients: 0 };
  let fees: IntegratorFeeTransfer[];
  try {
    fees = specs.map((fee) => ({
      recipient: new PublicKey(fee.recipient).toBase58(),
      amount: BigInt(fee.amount),
    }));
  } catch (error) {
    throw new SolanaStepInvalid(
      `an integrator fee recipient is not a Solana address: ${(error as Error).message}`,
    );
  }
  const token = { mint: new PublicKey(devnet.tokens.USDC.mint), decimals: devnet.tokens.USDC.decimals };
  const accounts = solanaFeeAccountsOf(token, fees);
  const found = await Promise.all(accounts.map((account) => connection.getAccountInfo(account, 'confirmed')));
  const missing = new Set(accounts.filter((_, i) => found[i] === null).map((account) => account.toBase58()));
  const rentLamports =
    missing.size > 0
      ? BigInt(missing.size) *
        BigInt(await connection.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_BYTES, 'confirmed'))
      : 0n;
  const instructions = solanaIntegratorFeeInstructions({
    owner: wallet,
    feePayer,
    token,
    fees,
    missingAccounts: missing,
  });
  return { instructions, rentLamports, recipients: fees.length };
}

function prebuiltTransaction(spec: SolanaStepSpec, wallet: PublicKey): VersionedTransaction {
  if (spec.message) throw new SolanaStepInvalid('a prebuilt transaction carries no bridge message');
  if (spec.integratorFees?.length)
    throw new SolanaStepInvalid('a prebuilt transaction is signed as built: it cannot carry integrator fees');
  const serialized = requiredField(spec, 'serializedTransaction');
  let transaction: VersionedTransaction;
  try {
    transaction = VersionedTransaction.deserialize(Buffer.from(serialized, 'base64'));
  } catch (error) {
    throw new SolanaStepInvalid(`the prebuilt transaction does not decode: ${(error as Error).message}`);
  }
  const payer = transaction.message.staticAccountKeys[0];
  if (!payer?.equals(wallet)) {
    throw new SolanaStepInvalid(
      `the prebuilt transaction is paid by ${payer?.toBase58() ?? 'nobody'}, not by the signing wallet ${wallet.toBase58()}`,
    );
  }
  // Handed out unsigned, exactly as built: any signature slot the aggregator filled is cleared.
  return new VersionedTransaction(transaction.message);
}

function parseKey(address: string, field: string): PublicKey {
  try {
    return new PublicKey(address);
  } catch {
    throw new SolanaStepInvalid(`${field} ${address} is not a Solana address`);
  }
}
