export * from './chain-descriptor';
export * from './chain-registry';
export * from './devnet-manifest';
export * from './address-validation';
export * from './erc20-reads';
export * from './permit-contracts';
export * from './quote-terms';
export * from './sponsored-gas';
export * from './sponsored-intents';
export * from './step-split';
// The Solana bridge encoding is its own entry point, @swapgw/chains/solana-bridge: it loads
// @solana/spl-token, which only signer-surface and the devnet need.
