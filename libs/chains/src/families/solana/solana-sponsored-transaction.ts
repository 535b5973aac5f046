import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Connection,
  PACKET_DATA_SIZE,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { ASSOCIATED_TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { LAMPORTS_PER_SIGNATURE } from './solana-fees';

/** Thrown when a transaction cannot be re-addressed to the service's fee payer; the step fails with it. */
export class NotSponsorable extends Error {}

/** Size of an SPL token account: what an associated token account created by the fee payer rents. */
export const TOKEN_ACCOUNT_BYTES = 165;
/** Compute units a transaction may use per instruction when it does not set a limit, and at most. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;

/**
 * The most a message's fees can be, in lamports: the base fee of each required signature plus the
 * priority fee its ComputeBudget instructions ask for (compute unit price × limit, rounded up).
 */
export function maxFeeLamportsOf(message: VersionedMessage): bigint {
  const keys = message.staticAccountKeys;
  let price = 0n;
  let limit: bigint | undefined;
  let others = 0n;
  for (const ix of message.compiledInstructions) {
    const program = keys[ix.programIdIndex];
    const data = Buffer.from(ix.data);
    if (!program?.equals(ComputeBudgetProgram.programId)) {
      others++;
    } else if (data[0] === 2 && data.length >= 5) {
      limit = BigInt(data.readUInt32LE(1));
    } else if (data[0] === 3 && data.length >= 9) {
      price = data.readBigUInt64LE(1);
    }
  }
  const units = limit ?? bigMin(others * DEFAULT_UNITS_PER_INSTRUCTION, MAX_COMPUTE_UNITS);
  const priority = (price * units + 999_999n) / 1_000_000n;
  return BigInt(message.header.numRequiredSignatures) * BigInt(LAMPORTS_PER_SIGNATURE) + priority;
}

const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * An aggregator's transaction (a Jupiter swap...) re-addressed to the service's fee payer, for a
 * sponsored swap. An aggregator bakes its payer in: the user's wallet pays the signature fees, the
 * priority fee, and the rent of the token accounts the route creates. The message is rebuilt with
 * the same instructions, blockhash and lookup tables and the fee payer first, so the service pays
 * the fees (priority fee included); the associated-token-account creations whose rent the wallet
 * paid are re-pointed at the fee payer (the ATA program takes any funding signer), which pays that
 * rent too. The wallet stays a signer, as the instructions need it.
 *
 * Refused (the step fails before anything is signed, with the reason): a transaction that needs
 * another signature than the wallet's; one whose lookup tables cannot be read; one where the wallet
 * funds a System Program instruction (a transfer or account creation: native SOL input, a rent the
 * route takes from the wallet itself), since that would still take SOL from a wallet sponsorship
 * promises to leave whole; one that no longer fits a packet with the fee payer's key and signature
 * added. A program of the route moving the wallet's lamports by itself is caught by the simulation
 * that follows (it fails for a wallet holding none; for one holding some, the issuer compares the
 * simulated balance where the node reports it).
 *
 * Why not the other way (sending the wallet the exact lamports first, a "lamport drop"): the wallets
 * sponsorship is for hold 0 lamports, and Solana refuses to leave an account between 0 and its
 * rent-exempt minimum (890,880 lamports): the exact fee cannot be sent, only a gift of ~0.00089 SOL
 * per swap that the wallet keeps and could drain by swapping repeatedly. Asking the aggregator for a
 * transaction with the service as payer (Jupiter's `payer`) is the cleaner source, on the quote side.
 */
export async function readdressToFeePayer(
  connection: Connection,
  transaction: VersionedTransaction,
  wallet: PublicKey,
  feePayer: PublicKey,
): Promise<{ transaction: VersionedTransaction; rentLamports: bigint }> {
  const message = transaction.message;
  if (!message.staticAccountKeys[0]?.equals(wallet)) {
    throw new NotSponsorable(
      `the prebuilt transaction is paid by ${message.staticAccountKeys[0]?.toBase58() ?? 'nobody'}, not by the signing wallet ${wallet.toBase58()}`,
    );
  }
  if (message.header.numRequiredSignatures !== 1) {
    throw new NotSponsorable(
      `the prebuilt transaction needs ${message.header.numRequiredSignatures} signatures, not only the wallet's: it cannot take the service's fee payer`,
    );
  }
  const lookupTables: AddressLookupTableAccount[] = [];
  for (const lookup of message.addressTableLookups) {
    const table = (await connection.getAddressLookupTable(lookup.accountKey, { commitment: 'confirmed' }))
      .value;
    if (!table)
      throw new NotSponsorable(
        `the prebuilt transaction's lookup table ${lookup.accountKey.toBase58()} was not found`,
      );
    lookupTables.push(table);
  }
  const decompiled = TransactionMessage.decompile(message, { addressLookupTableAccounts: lookupTables });
  let createdAccounts = 0;
  const instructions = decompiled.instructions.map((ix, index) => {
    if (
      ix.programId.equals(SystemProgram.programId) &&
      ix.keys.some((k) => k.isSigner && k.pubkey.equals(wallet))
    ) {
      throw new NotSponsorable(
        `the prebuilt transaction takes SOL from the wallet (System Program, instruction #${index + 1}): it cannot be sponsored; quote with gasPayment user`,
      );
    }
    if (ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID) && ix.keys[0]?.pubkey.equals(wallet)) {
      createdAccounts++;
      const keys = [{ pubkey: feePayer, isSigner: true, isWritable: true }, ...ix.keys.slice(1)];
      return new TransactionInstruction({ programId: ix.programId, keys, data: ix.data });
    }
    return ix;
  });
  const rebuilt = new VersionedTransaction(
    new TransactionMessage({
      payerKey: feePayer,
      recentBlockhash: decompiled.recentBlockhash,
      instructions,
    }).compileToV0Message(lookupTables),
  );
  let size: number;
  try {
    size = rebuilt.serialize().length;
  } catch {
    size = Number.POSITIVE_INFINITY; // web3.js cannot even encode it in a packet-sized buffer
  }
  if (size > PACKET_DATA_SIZE) {
    throw new NotSponsorable(
      `the prebuilt transaction is too large once the service's fee payer is added (over ${PACKET_DATA_SIZE} bytes)`,
    );
  }
  const rentLamports =
    createdAccounts > 0
      ? BigInt(createdAccounts) *
        BigInt(await connection.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_BYTES, 'confirmed'))
      : 0n;
  return { transaction: rebuilt, rentLamports };
}
