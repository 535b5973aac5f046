import { PublicKey } from '@solana/web3.js';
import type { AddressValidation } from '../family-traits';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Solana: base58 that decodes to exactly 32 bytes (a PublicKey), in its canonical spelling. */
export function validateSolanaAddress(address: string): AddressValidation {
  if (!BASE58.test(address)) return { ok: false, reason: 'a Solana address is 32 to 44 base58 characters' };
  try {
    // PublicKey accepts any base58 of at most 32 bytes; the round trip rejects shorter keys padded by it.
    if (new PublicKey(address).toBase58() === address) return { ok: true };
  } catch {
    // falls through: not 32 bytes
  }
  return { ok: false, reason: 'a Solana address must decode from base58 to a 32-byte public key' };
}
