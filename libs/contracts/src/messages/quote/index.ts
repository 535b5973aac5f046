export * from './quote-messages';
export * from './route-issues';
