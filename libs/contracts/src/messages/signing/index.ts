export * from './signing-message-types';
export * from './signing-commands';
export * from './signing-events';
export * from './signing-payload';
export * from './signing-requests';
