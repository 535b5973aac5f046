export * from './test-env';
export * from './wait-for';
export * from './free-port';
export * from './app-process';
export * from './stack';
export * from './api-client';
export * from './kafka-broker';
export * from './swap-ledger';
