export * from './database-errors';
export * from './epoch-ms-column';
export * from './database-url';
export * from './service-data-source';
export * from './pg-channel-listener';
export * from './update-statement';
export * from './transaction-starting-with';
export * from './prepared-statements';
