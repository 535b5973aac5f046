export * from './chain-catalog';
export * from './real-networks';
