/**
 * What the service's fee payer pays on Solana (the Solana part of the sponsored-gas table,
 * ../../sponsored-gas.ts): signatures and the rent of the token accounts it creates.
 */

/** Solana fees the relayer pays as fee payer (lamports). */
export const SOLANA_SPONSORED_FEES = {
  /** Base fee per signature of a transaction (no priority fee is added by the relayer). */
  lamportsPerSignature: 5_000n,
  /** Rent-exempt minimum of an SPL token account (165 bytes): what creating an associated token account costs. */
  tokenAccountRent: 2_039_280n,
  /** Size of an SPL token account, for getMinimumBalanceForRentExemption. */
  tokenAccountBytes: 165,
  /** Signatures of a user's transaction paid by the relayer: the relayer's (fee payer) and the user's. */
  userTransactionSignatures: 2n,
  /** Signatures of a release the relayer sends alone. */
  releaseSignatures: 1n,
} as const;

/** Token accounts created per integrator fee recipient of an SPL input (its associated token account). */
export const SOLANA_FEE_RECIPIENT_TOKEN_ACCOUNTS = 1;
