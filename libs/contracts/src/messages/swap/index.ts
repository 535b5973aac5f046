export * from './swap-message-types';
export * from './swap-requests';
export * from './swap-events';
