export * from './catalog-messages';
