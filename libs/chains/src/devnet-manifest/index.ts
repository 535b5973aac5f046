export * from './devnet-manifest-reader';
export * from './devnet-manifest-schema';
export * from './devnet-manifest-validation';
export * from './devnet-manifest-sections';
