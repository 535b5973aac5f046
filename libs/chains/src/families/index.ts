// @swapgw/chains/families: each chain family (EVM, Solana, Bitcoin, Cosmos) behind one interface.
// Its own entry point because the Solana family loads @solana/spl-token (balances of token accounts).
// The bounded RPC clients and the RPC error helpers, which need neither, are in @swapgw/chains.
// Each family's own names come through the family-modules table, which registers the family.
export * from './chain-family';
export * from './chain-families';
export * from './family-module';
export * from './family-modules';
export * from './signed-artifact';
export * from './step-parts';
export * from './step-spec-family';
export * from './step-spec-families';
