export * from './compile';
export * from './evm-contracts-error';
