export * from './chain-descriptor';
export * from './chain-registry';
export * from './devnet-manifest';
export * from './address-validation';
export * from './permit-contracts';
