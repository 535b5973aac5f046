export {};
export * from './signing';
export * from './limit-order';
export * from './swap';
export * from './catalog';
export * from './quote';
export * from './heartbeat';
