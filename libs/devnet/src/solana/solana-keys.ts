import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';

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

/**
 * signer-surface's Solana fee payers (SOLANA_FEE_PAYER_KEYS): the fee payer of every Solana
 * transaction of a sponsored swap. Two, so two signer-surface instances never look alike to a test;
 * apart from the test wallets and the bridge authority (a deposit paid by the bridge authority would
 * read as one of its releases).
 */
export const SOLANA_FEE_PAYER_COUNT = 2;
export const solanaFeePayer = (index: number): Keypair => devnetKeypair(`fee-payer/${index}`);

/**
 * SOLANA_FEE_PAYER_KEYS of signer-surface on the devnet, `{"<chain id>": ["<base58 secret key>", ...]}`:
 * the fee payers 1..SOLANA_FEE_PAYER_COUNT on `chainId` (default the devnet's Solana chain).
 */
export function devnetSolanaFeePayerKeys(chainId = 'solana-devnet'): Record<string, string[]> {
  const keys = Array.from({ length: SOLANA_FEE_PAYER_COUNT }, (_, i) =>
    bs58.encode(solanaFeePayer(i + 1).secretKey),
  );
  return { [chainId]: keys };
}
