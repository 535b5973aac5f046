export * from './cosmos-chain';
export * from './cosmos-chain-spec';
export * from './cosmos-devnet';
export * from './cosmos-errors';
export * from './cosmos-keys';
export * from './cosmos-messages';
export * from './cosmos-ibc';
export * from './cosmos-osmosis';
