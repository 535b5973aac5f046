// CCTP's domain numbers, apart from noble-cctp.ts (which names Solana's bridge id): the Solana end's
// deposit memo (solana-bridge.ts) names Noble by its domain without importing back from there.

/** CCTP's domain numbers of the chains that have one (developers.circle.com, "CCTP supported domains"). */
export const CCTP_DOMAINS = {
  ethereum: 0,
  avalanche: 1,
  optimism: 2,
  arbitrum: 3,
  noble: 4,
  solana: 5,
} as const;

/**
 * The number the devnet bridge knows Noble by (an EVM `depositTo`'s destinationChainId, a Solana
 * deposit memo's destination, a release's sourceChainId): its CCTP domain.
 */
export const NOBLE_BRIDGE_CHAIN_ID = CCTP_DOMAINS.noble;

/** The bech32 prefix of Noble's accounts, on every Noble network (`noble1…`). */
export const NOBLE_BECH32_PREFIX = 'noble';
