export * from './quote-messages';
export * from './route-issues';
export * from './route-reprice';
