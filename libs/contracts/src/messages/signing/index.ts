export * from './signing-message-types';
export * from './signing-step-specs';
export * from './signing-sponsorship';
export * from './signing-steps';
export * from './signing-commands';
export * from './signing-events';
export * from './signing-payload';
export * from './signing-requests';
