import type { QuoteToken } from '../quote-provider';

/** The denom a quote names a Cosmos token by (the catalog resolves it into `mint`; a plan's leg into `address`). */
export function cosmosDenomOf(token: QuoteToken): string | undefined {
  return token.mint ?? token.address ?? undefined;
}
