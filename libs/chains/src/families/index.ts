// @swapgw/chains/families: each chain family (EVM, Solana, Bitcoin for status) behind one interface.
// Its own entry point because the Solana family loads @solana/spl-token (balances of token accounts).
// The bounded RPC clients and the RPC error helpers, which need neither, are in @swapgw/chains.
export * from './chain-family';
export * from './chain-families';
export * from './evm/evm-chain-client';
export * from './evm/evm-transaction-status';
export * from './solana/solana-balance';
export * from './solana/solana-chain-client';
export * from './solana/solana-transaction-status';
export * from './bitcoin/bitcoin-status-client';
export * from './bitcoin/esplora-transaction-status';
export * from './bitcoin/bitcoin-address';
export * from './bitcoin/bitcoin-networks';
export * from './bitcoin/bitcoin-step-psbt';
export * from './bitcoin/bitcoin-step-verification';
export * from './bitcoin/bitcoin-artifact';
export * from './bitcoin/bitcoin-sponsored-step';
export * from './bitcoin/bitcoin-chain-client';
export * from './bitcoin/bitcoin-signing-client';
export * from './evm/evm-chain-state';
export * from './evm/evm-payload';
export * from './evm/evm-signed-transaction';
export * from './evm/recent-fee-data';
export * from './solana/solana-fees';
export * from './solana/solana-integrator-fees';
export * from './solana/solana-sponsored-transaction';
export * from './solana/solana-step-payload';
export * from './solana/solana-transaction';
export * from './signed-artifact';
export * from './step-spec-families';
export * from './evm/evm-calldata';
export * from './evm/evm-step-spec';
export * from './solana/solana-step-spec';
export * from './bitcoin/bitcoin-step-spec';
export * from './evm/across-calldata';
export * from './evm/across-transfer';
export * from './evm/evm-call-simulation';
