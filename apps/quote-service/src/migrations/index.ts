import { CreateCatalogTables1763710000000 } from './1763710000000-create-catalog-tables';
import { CreateQuoteTables1763710100000 } from './1763710100000-create-quote-tables';
import { QuoteSlippageAutomatic1767900000000 } from './1767900000000-quote-slippage-automatic';

/** quote-service migrations, in order. */
export const quoteServiceMigrations = [
  CreateCatalogTables1763710000000,
  CreateQuoteTables1763710100000,
  QuoteSlippageAutomatic1767900000000,
];
