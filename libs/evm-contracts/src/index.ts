export * from './compile';
export * from './evm-contracts-error';
export * from './router-deployment';
