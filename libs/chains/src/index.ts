export * from './chain-descriptor';
export * from './chain-registry';
export * from './devnet-manifest';
