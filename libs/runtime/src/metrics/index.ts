export * from './metrics-registry';
export * from './http-metrics';
export * from './messaging-metrics';
export * from './consumer-lag';
export * from './chain-rpc-metrics';
export * from './database-metrics';
export * from './accept-queue';
