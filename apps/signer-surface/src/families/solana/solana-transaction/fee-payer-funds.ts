import { LAMPORTS_PER_SIGNATURE, SigningChainClient } from '@swapgw/chains/families';
import type { SigningRequestEntity } from '../../../signing/signing-request.entity';

/**
 * What a Solana node answers when the account paying a transaction's fees cannot: too little for
 * the fee, for the rent it must keep (or pay for the accounts the transaction creates), or no
 * account at all (a fee payer drained to 0 lamports is deleted: "Attempt to debit an account but
 * found no record of a prior credit"). Each form: the RPC's sentence and litesvm's variant name.
 */
const FEE_PAYER_CANNOT_PAY =
  /insufficient funds for (fee|rent)|InsufficientFundsFor(Fee|Rent)|no record of a prior credit|AccountNotFound/i;

/** The service's fee payer a sponsored Solana step names, and what the transaction may cost it. */
export function feePayerCostOf(row: Pick<SigningRequestEntity, 'executionHints'>): {
  feePayer: string;
  costLamports: bigint;
} | null {
  const hints = row.executionHints as Record<string, string> | null;
  if (!hints?.feePayer) return null;
  const fee = BigInt(hints.estimatedFeeLamports ?? 2 * LAMPORTS_PER_SIGNATURE);
  return { feePayer: hints.feePayer, costLamports: fee + BigInt(hints.rentPaidByServiceLamports ?? 0) };
}

/**
 * Why the service's fee payer could not pay a sponsored Solana transaction the node refused or
 * that never landed, or null when that is not the cause: the node's answer says so, or the fee
 * payer's balance, read now, is below the transaction's fees and rent. The service's problem
 * (FEE_PAYER_UNAVAILABLE, 503 SPONSORSHIP_UNAVAILABLE), never the user's.
 */
export async function feePayerShortfallOf(
  client: SigningChainClient,
  row: Pick<SigningRequestEntity, 'executionHints' | 'swapId'>,
  nodeAnswer?: string,
): Promise<{ feePayer: string; reason: string } | null> {
  const cost = feePayerCostOf(row);
  if (!cost) return null;
  const balance = await client.readBalance(cost.feePayer, null).catch(() => null);
  const refused = nodeAnswer !== undefined && FEE_PAYER_CANNOT_PAY.test(nodeAnswer);
  if (!refused && (balance === null || balance >= cost.costLamports)) return null;
  const held = balance === null ? 'balance unknown' : `${balance} lamports left`;
  const answer = nodeAnswer ? `: ${gistOf(nodeAnswer)}` : '';
  return {
    feePayer: cost.feePayer,
    reason: `the service's fee payer ${cost.feePayer} cannot pay the transaction's ${cost.costLamports} lamports of fees and rent (${held})${answer}`,
  };
}

/**
 * The node's sentence out of @solana/web3.js's SendTransactionError ("Simulation failed. \nMessage:
 * <the node's>. \nLogs: ..."), or the first line of any other answer.
 */
function gistOf(answer: string): string {
  const message = /Message: ([^\n]*)/.exec(answer)?.[1] ?? answer.split('\n')[0];
  return message.trim().replace(/\.$/, '').slice(0, 300);
}
