import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';

/**
 * Deterministic devnet keypairs: Keypair.fromSeed(sha256("swapgw-devnet/solana/<label>")).
 * A client derives test wallet N (1..9) with label `wallet/N`, e.g. in TypeScript:
 *   Keypair.fromSeed(createHash('sha256').update('swapgw-devnet/solana/wallet/1').digest())
 */
export function devnetKeypair(label: string): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`swapgw-devnet/solana/${label}`).digest());
}

export const solanaTestWallet = (index: number): Keypair => devnetKeypair(`wallet/${index}`);

/** Mint authority of USDC and owner of the bridge vault: the Solana relayer key. */
export const solanaBridgeAuthority = (): Keypair => devnetKeypair('bridge-authority');
