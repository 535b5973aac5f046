import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QuoteResult, QuoteRouteSummary, ROUTE_FAMILIES, RouteFamily } from '@swapgw/contracts';

/** The spec's QuoteRouteSummary. */
export class QuoteRouteSummaryDto implements QuoteRouteSummary {
  @ApiProperty({ description: 'Route identifier, passed to swap build' }) routeId!: string;
  @ApiPropertyOptional({ example: 'uniswap-v2', description: 'Present when one provider label covers the whole route' }) provider?: string;
  @ApiProperty({ type: [String], example: ['uniswap-v2', 'devnet-bridge', 'uniswap-v2'], description: 'Providers in step order' }) providers!: string[];
  @ApiPropertyOptional({ example: 'devnet-bridge', description: 'Bridge provider, when the route has a bridge step' }) bridgeProvider?: string;
  @ApiPropertyOptional({ enum: ROUTE_FAMILIES }) family?: RouteFamily;
  @ApiProperty({ example: 1, description: 'Number of execution legs (swaps and bridge transfers; approvals not counted)' }) stepCount!: number;
  @ApiProperty({ example: '2991672771', description: 'Expected output in base units of tokenOut' }) expectedAmountOut!: string;
  @ApiProperty({ example: 5 }) estimatedDurationSeconds!: number;
  @ApiPropertyOptional({ type: [String], example: ['HIGH_PRICE_IMPACT'], description: 'HIGH_PRICE_IMPACT (> 1% by default), THIN_LIQUIDITY (a hop takes > 10% of a pool side)' })
  warnings?: string[];
}

/** The spec's Quote (data of POST /quote). */
export class QuoteResponse implements QuoteResult {
  @ApiProperty({ description: 'Quote identifier, passed to swap build' }) quoteId!: string;
  @ApiProperty({ description: 'Expiry (ms since epoch): 60 s after the quote by default' }) expiresAtMs!: number;
  @ApiProperty({ type: [QuoteRouteSummaryDto], description: 'Best output first; empty when no route exists' }) routes!: QuoteRouteSummaryDto[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'With ?debug=1: provider outcomes and route details' })
  debug?: Record<string, unknown>;
}
