// Gas-sponsored ("gasless") EVM legs, one module per responsibility: the values (intent-types), the
// EIP-712 witness types (witness-types), the typed data a user signs (typed-data), reading a
// signature over it (signed-typed-data), the relayer's calldata (router-calldata), the messages a
// bridge-and-swap deposit carries (bridge-message) and Permit2's unordered nonces (permit2-nonces).
export * from './bridge-message';
export * from './intent-types';
export { SponsoredIntentError } from './intent-values';
export * from './permit2-nonces';
export * from './router-calldata';
export * from './signed-typed-data';
export * from './typed-data';
export * from './witness-types';
