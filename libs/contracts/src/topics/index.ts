export * from './topics';
export * from './topic-access';
