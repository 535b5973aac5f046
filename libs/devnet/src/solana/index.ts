export * from './solana-devnet';
export * from './solana-keys';
export * from './solana-ledger';
export * from './solana-rpc-server';
export * from './solana-connection';
