/** Solana's base fee per signature (the local devnet charges the same). */
export const LAMPORTS_PER_SIGNATURE = 5000;
