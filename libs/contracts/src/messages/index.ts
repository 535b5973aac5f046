export {};
export * from './signing';
