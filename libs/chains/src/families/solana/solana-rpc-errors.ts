/** Errors that mean the Solana node could not be reached (boundedSolanaConnection's fetch errors). */
export function isSolanaRpcUnreachable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|socket hang up|aborted|timed? ?out/i.test(
    message,
  );
}
