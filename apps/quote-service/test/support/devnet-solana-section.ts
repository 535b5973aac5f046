/** The devnet manifest's `solana` section as the providers' specs use it: the chain and the bridge's Solana end. */
export const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
export const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const SOLANA_VAULT = 'So11111111111111111111111111111111111111112';
export const SOLANA_BRIDGE_ID = 1399811149;

export const solanaDevnetSection = {
  id: 'solana-devnet',
  name: 'Solana Devnet',
  family: 'solana' as const,
  rpcUrl: 'http://127.0.0.1:2',
  nativeSymbol: 'SOL',
  tokens: { USDC: { mint: SOLANA_USDC, decimals: 6, name: 'USD Coin' } },
  accounts: [],
  slotMs: 400,
  bridge: {
    chainId: SOLANA_BRIDGE_ID,
    token: 'USDC',
    vault: SOLANA_VAULT,
    vaultOwner: hex(7),
    estimatedDurationSeconds: 7,
  },
};
