export * from './config';
export * from './json-logger';
export * from './request-context';
export * from './metrics';
export * from './service-environment';
export * from './ttl-cache';
export * from './with-timeout';
