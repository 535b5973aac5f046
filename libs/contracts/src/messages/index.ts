export {};
export * from './signing';
export * from './limit-order';
export * from './swap';
