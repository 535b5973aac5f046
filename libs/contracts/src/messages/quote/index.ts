export * from './quote-messages';
