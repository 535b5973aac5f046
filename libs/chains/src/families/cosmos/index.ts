export * from './cosmos-address';
export * from './cosmos-sign-doc';
export * from './cosmos-signed-tx';
export * from './cosmos-status-client';
export * from './cosmos-denoms';
export * from './cosmos-route-msgs';
export * from './osmosis-swap-msg';
export * from './cosmos-step-spec';
