export { startMainnetReplica } from './start-mainnet-replica';
export type { RunningMainnetReplica, StartMainnetReplicaOptions } from './start-mainnet-replica';
export { replicaAddressesOf } from './deploy-replica-chain';
export type { ReplicaChainAddresses } from './deploy-replica-chain';
export { uniswapV3PoolAddress } from './uniswap-v3-positions';
export * from './replica-parameters';
