export * from './service-heartbeat';
