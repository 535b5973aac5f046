export {};
export * from './signing';
export * from './swap';
