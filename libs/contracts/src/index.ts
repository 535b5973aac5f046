export * from './envelope';
export * from './errors';
export * from './topics';
export * from './messages';
