export { FAMILY_WIRE, type FamilyWire, type WalletAddressForm } from './family-wire';
export * from './evm/evm-steps';
export * from './solana/solana-steps';
export * from './bitcoin/bitcoin-steps';
export * from './cosmos/cosmos-steps';
