export {};
export {
  BITCOIN_ADDRESS_PATTERN,
  BITCOIN_PUBLIC_KEY,
  CHAIN_FAMILIES,
  type ChainFamily,
  EVM_TX_HASH,
  USER_PUBLIC_KEY_DESCRIPTION,
} from './chain-formats';
export * from './families';
export * from './signing';
export * from './limit-order';
export * from './swap';
export * from './catalog';
export * from './quote';
export * from './heartbeat';
