import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QuoteResult, QuoteRouteSummary, ROUTE_FAMILIES, RouteFamily, RoutePermitInfo } from '@swapgw/contracts';

export class Eip2612DomainDto {
  @ApiProperty({ example: 'USD Coin', description: 'EIP-712 domain name of the token' }) name!: string;
  @ApiProperty({ example: '1', description: 'EIP-712 domain version of the token' }) version!: string;
}

/** Ours: what a wallet signs to build the route with a permit (README "Permits"). */
export class RoutePermitInfoDto implements RoutePermitInfo {
  @ApiProperty({ example: 'devnet-a', description: 'Chain of the first leg, where the permit is used' }) chain!: string;
  @ApiProperty({ example: 31337, description: 'EVM chain id: chainId of both EIP-712 domains' }) chainId!: number;
  @ApiProperty({ description: 'Input token: EIP-2612 domain verifyingContract, Permit2 permitted.token' }) token!: string;
  @ApiProperty({ example: '25000000', description: 'Base units: EIP-2612 value, Permit2 permitted.amount' }) amount!: string;
  @ApiProperty({ description: 'SwapGatewayRouter: the spender of both kinds of permit (and the to of the permit step)' }) spender!: string;
  @ApiProperty({ description: 'Permit2 contract: verifyingContract of the domain {name: "Permit2", chainId}; with permitType permit2 the token must be approved to it (the build adds that approve when missing)' })
  permit2!: string;
  @ApiPropertyOptional({ type: Eip2612DomainDto, description: 'Present when the token implements EIP-2612 permit (permitType eip2612 possible)' })
  eip2612?: Eip2612DomainDto;
}

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
  @ApiPropertyOptional({
    type: RoutePermitInfoDto,
    description: 'Present when the first leg can take a permit instead of an approval (POST /swap/build permitType eip2612 or permit2): what to sign',
  })
  permit?: RoutePermitInfoDto;
}

/** The spec's Quote (data of POST /quote). */
export class QuoteResponse implements Omit<QuoteResult, 'routePlans'> {
  @ApiProperty({ description: 'Quote identifier, passed to swap build' }) quoteId!: string;
  @ApiProperty({ description: 'Expiry (ms since epoch): 60 s after the quote by default' }) expiresAtMs!: number;
  @ApiProperty({ type: [QuoteRouteSummaryDto], description: 'Best output first; empty when no route exists' }) routes!: QuoteRouteSummaryDto[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'With ?debug=1: provider outcomes and route details' })
  debug?: Record<string, unknown>;
}
