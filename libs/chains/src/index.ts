export * from './catalog';
export * from './chain-descriptor';
export * from './chain-endpoint-check';
export * from './chain-registry';
export * from './devnet-manifest';
export * from './address-validation';
export * from './address-keys';
export * from './erc20-reads';
export * from './families/bounded-rpc';
export * from './families/family-traits';
export * from './families/family-traits-table';
export * from './families/chain-errors';
export * from './families/evm/evm-chain-errors';
export * from './families/evm/evm-revert-replay';
export { MULTICALL3_ADDRESS } from './families/evm/multicall-reads';
export { checksumEvmAddress } from './families/evm/evm-address';
export { THORCHAIN_PROVIDER, thorchainRouterDeposit } from './families/evm/thorchain-calldata';
export * from './families/solana/solana-rpc-errors';
export * from './permit-contracts';
export * from './quote-terms';
export * from './sponsored-gas';
export * from './sponsored-intents';
export * from './step-split';
export * from './token-refs';
// The Solana bridge encoding is its own entry point, @swapgw/chains/solana-bridge: it loads
// @solana/spl-token, which only signer-surface and the devnet need.
// Each chain family's client (balances, allowances, broadcast, status) is @swapgw/chains/families:
// its Solana family loads @solana/spl-token too.
