import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  GAS_FEE_SOURCES,
  HUMAN_AMOUNT,
  GasFeeSource,
  QuoteResult,
  QuoteRouteSummary,
  ROUTE_FAMILIES,
  RouteFamily,
  RouteGasCoverage,
  RouteGasCoverageChain,
  RouteGasCoverageItem,
  RouteIntegratorFee,
  RoutePermitInfo,
  ROUTE_ISSUE_CHECKS,
  ROUTE_ISSUE_CODES,
  ROUTE_ISSUE_SEVERITIES,
  RouteIssue,
  RouteIssueCheck,
  RouteIssueCode,
  RouteIssueSeverity,
  RouteSignature,
  SIGNATURE_PAYLOAD_TYPES,
  SignaturePayloadType,
  SLIPPAGE_SOURCES,
  SlippageSource,
  UNAVAILABLE_ROUTE_REASONS,
  UnavailableRoute,
  UnavailableRouteDetails,
  UnavailableRouteReason,
  SPONSORED_GAS_KINDS,
  SponsoredGasKind,
} from '@swapgw/contracts';

export class Eip2612DomainDto {
  @ApiProperty({ example: 'USD Coin', description: 'EIP-712 domain name of the token' }) name!: string;
  @ApiProperty({ example: '1', description: 'EIP-712 domain version of the token' }) version!: string;
}

/** Ours: what a wallet signs to build the route with a permit (docs/integrator-guide.md, "Permits"). */
export class RoutePermitInfoDto implements RoutePermitInfo {
  @ApiProperty({ example: 'devnet-a', description: 'Chain of the first leg, where the permit is used' })
  chain!: string;
  @ApiProperty({
    type: 'integer',
    example: 31337,
    description: 'EVM chain id: chainId of both EIP-712 domains',
  })
  chainId!: number;
  @ApiProperty({ description: 'Input token: EIP-2612 domain verifyingContract, Permit2 permitted.token' })
  token!: string;
  @ApiProperty({
    example: '25000000',
    description: 'EIP-2612 value and Permit2 permitted.amount, in base units as the typed data takes them',
  })
  amountBaseUnits!: string;
  @ApiProperty({
    description: 'SwapGatewayRouter: the spender of both kinds of permit (and the to of the permit step)',
  })
  spender!: string;
  @ApiProperty({
    description:
      'Permit2 contract: verifyingContract of the domain {name: "Permit2", chainId}; with permitType permit2 the token must be approved to it (the build adds that approve when missing)',
  })
  permit2!: string;
  @ApiPropertyOptional({
    type: Eip2612DomainDto,
    description: 'Present when the token implements EIP-2612 permit (permitType eip2612 possible)',
  })
  eip2612?: Eip2612DomainDto;
}

/** Ours: one sponsored transaction (or rent) in a chain's gas coverage. */
export class RouteGasCoverageItemDto implements RouteGasCoverageItem {
  @ApiProperty({
    enum: SPONSORED_GAS_KINDS,
    example: 'permit',
    description:
      "permit: the relayer sends the token's EIP-2612 permit (~60k gas). approve-top-up: a gas top-up to the user (21k) paying for the user's own approve(Permit2) (~50k), for tokens without EIP-2612 (WETH9, or unknown). " +
      "swap-intent / bridge-intent: the relayer's SwapGatewayRouter call swapWithIntent (~200k) / bridgeWithIntent (~150k) carrying the user's Permit2 witness signature. " +
      "native-input-top-up: the user's own native-input transaction (~150k) and the top-up paying it (21k). bridge-release: the relayer's release on the bridge destination (EVM ~80k gas; Solana 1 signature). " +
      "solana-transaction: the user's Solana transaction with the relayer as fee payer (2 signatures of 5,000 lamports). solana-ata-rent: the rent of an associated token account created for the recipient (2,039,280 lamports). " +
      "bitcoin-transaction: the user's Bitcoin transaction, whose miner fee an input of the service's fee wallet pays in full (estimatedGasUnits in virtual bytes, feePerGasBaseUnits in sat/vB). " +
      "cosmos-fee-grant: the service's fee granter grants the wallet an x/feegrant allowance before its first Cosmos step on the chain (200,000 gas, counted on the route's first signed leg of each Cosmos chain). cosmos-transaction: the user's Cosmos transaction, whose fee the fee granter pays (300,000 gas, an upper figure). Cosmos items cost gas × gasPrice, rounded up to a whole base unit.",
  })
  kind!: SponsoredGasKind;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 0,
    description: 'Index of the route leg (execution order) the item belongs to',
  })
  leg!: number;
  @ApiProperty({
    example: '60000',
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      'Decimal string: EVM and Cosmos gas units; Solana: signatures paid; Bitcoin: virtual bytes; "0" for rent',
  })
  estimatedGasUnits!: string;
  @ApiProperty({
    example: '60282000000000',
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      'Decimal string in base units of the native coin (wei / lamports / satoshis / the Cosmos fee denom, e.g. uatom)',
  })
  estimatedCostBaseUnits!: string;
}

/** Ours: what the service expects to pay on one chain of a route. */
export class RouteGasCoverageChainDto implements RouteGasCoverageChain {
  @ApiProperty({
    example: 'devnet-a',
    description: "A chain the route touches (a leg's chain, or a bridge's destination)",
  })
  chain!: string;
  @ApiProperty({ example: 'ETH', description: 'Native coin the gas is paid in' }) nativeSymbol!: string;
  @ApiProperty({
    type: 'integer',
    example: 18,
    description: 'Decimals of the native coin (18 for ETH, 9 for SOL, 8 for BTC)',
  })
  nativeDecimals!: number;
  @ApiProperty({
    example: '260000',
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      'Decimal string: EVM and Cosmos gas units of every sponsored transaction on this chain; Solana: signatures paid (5,000 lamports each); Bitcoin: virtual bytes',
  })
  estimatedGasUnits!: string;
  @ApiProperty({
    example: '1004700000',
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      "Decimal string (always an integer): price per unit used, wei per gas (EVM: the node's eth_gasPrice), lamports per signature (Solana) or satoshis per virtual byte (Bitcoin: the Esplora API's estimate for the next 2 blocks). Cosmos: the chain's minimum gas price rounded up to a whole base unit of its fee denom (0.005uatom reads \"1\"), so that estimatedGasUnits × it bounds the cost from above; the exact price is gasPrice",
  })
  feePerGasBaseUnits!: string;
  @ApiPropertyOptional({
    example: '0.005uatom',
    pattern: '^[0-9]+(\\.[0-9]+)?[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$',
    description:
      "Cosmos chains only (absent elsewhere): the exact price the chain's fees are computed at, in Cosmos notation, the amount of the fee denom's base units per gas and the denom (what cosmjs GasPrice.fromString reads): the chain's minimum gas price (its chain-registry figure, which its nodes take)",
  })
  gasPrice?: string;
  @ApiProperty({
    enum: GAS_FEE_SOURCES,
    example: 'node',
    description:
      "node: the price was read from the chain's node within the last 10 s (Solana: the rent of a token account). fallback: the node is unreachable or no RPC is configured for the chain (aggregator routes on real networks): the per-family default (EVM 2 gwei per gas; Solana 5,000 lamports per signature and 2,039,280 lamports of rent; Bitcoin 20 sat/vB)",
  })
  feeSource!: GasFeeSource;
  @ApiProperty({
    example: '261222000000000',
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      'Decimal string in base units of the native coin (wei / lamports / satoshis): estimatedGasUnits × feePerGasBaseUnits, plus rent. Cosmos: the sum over its transactions of gas × gasPrice, each rounded up to a whole base unit of the fee denom (what the chain charges)',
  })
  estimatedCostBaseUnits!: string;
  @ApiProperty({
    example: '0.000261',
    description: 'estimatedCostBaseUnits in whole native units, rounded to 3 significant digits',
  })
  estimatedCostFormatted!: string;
  @ApiProperty({
    type: [RouteGasCoverageItemDto],
    description:
      'The sponsored transactions (and rent) that make up estimatedCostBaseUnits, in the order they are sent',
  })
  breakdown!: RouteGasCoverageItemDto[];
}

/** Ours: the gas of a route, paid by the service (sponsored execution). */
export class RouteGasCoverageDto implements RouteGasCoverage {
  @ApiProperty({
    enum: ['service'],
    example: 'service',
    description: 'Who pays the gas: always the service (its relayers send or fund every transaction)',
  })
  paidBy!: 'service';
  @ApiProperty({
    enum: ['0'],
    example: '0',
    description: 'What the user pays for gas, in base units: always "0"',
  })
  userPays!: '0';
  @ApiProperty({
    type: [RouteGasCoverageChainDto],
    description:
      "One entry per chain the route touches, in the order it is first touched; a chain where the service sends nothing (the destination of an aggregator's bridge) reads 0",
  })
  chains!: RouteGasCoverageChainDto[];
}

export class RouteSignatureDto implements RouteSignature {
  @ApiProperty({ example: 'devnet-a', description: 'Chain (GET /chains) the payload is signed for' })
  chain!: string;
  @ApiProperty({
    enum: ['approve', 'swap', 'bridge'],
    description: 'The step: clientHints.action of its payload',
  })
  kind!: 'approve' | 'swap' | 'bridge';
  @ApiProperty({
    enum: SIGNATURE_PAYLOAD_TYPES,
    description: 'payload.type the wallet will be given at that step',
  })
  payloadType!: SignaturePayloadType;
  @ApiProperty({
    description:
      'An approve that is never offered when the wallet already granted the allowance (the step then reads skipped); the build still counts it',
  })
  mayBeSkipped!: boolean;
}

/** Ours: one finding of a route's preflight (POST /quote with userAddress). */
@ApiSchema({
  description:
    "One finding of the preflight of a route against the quote's userAddress. The fields beside code, severity, message, chain and leg depend on the code. " +
    'Amounts are in human units of `token`.',
})
export class RouteIssueDto implements RouteIssue {
  @ApiProperty({
    enum: ROUTE_ISSUE_CODES,
    description:
      'INSUFFICIENT_BALANCE (blocking): the wallet holds less of the input than the first leg spends (needed, held; on a user-paid build also of the native coin for its own gas, estimated). ' +
      'ALLOWANCE_MISSING (warning): the ERC-20 allowance to spender is below what the first leg spends; the build asks the approval as a step, coveredByPermit: by an EIP-2612 permit signature instead of a transaction. ' +
      "SIMULATION_REVERTED (blocking): the first leg's transaction reverts when simulated now (eth_call), revertReason decoded. " +
      'SIMULATION_UNAVAILABLE (warning): it could not be simulated (node error or timeout, no transaction of the wallet to simulate). ' +
      'CHECK_UNAVAILABLE (warning): the balance or allowance (check) could not be read',
  })
  code!: RouteIssueCode;
  @ApiProperty({
    enum: ROUTE_ISSUE_SEVERITIES,
    description: 'blocking: the route cannot succeed as it is; warning: it can, with what the message says',
  })
  severity!: RouteIssueSeverity;
  @ApiProperty({ description: 'For people, not for code' }) message!: string;
  @ApiProperty({ example: 'devnet-a', description: "Chain of the finding (the first leg's)" }) chain!: string;
  @ApiProperty({ type: 'integer', example: 0, description: 'Index of the route leg checked (0: the first)' })
  leg!: number;
  @ApiPropertyOptional({ example: 'USDC', description: 'INSUFFICIENT_BALANCE, ALLOWANCE_MISSING: the token' })
  token?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Its contract address (EVM) or mint (Solana); null for the native coin',
  })
  tokenAddress?: string | null;
  @ApiPropertyOptional({
    example: '25',
    pattern: HUMAN_AMOUNT.source,
    description: 'What the first leg spends',
  })
  needed?: string;
  @ApiPropertyOptional({
    example: '10.5',
    pattern: HUMAN_AMOUNT.source,
    description: 'What the wallet holds (INSUFFICIENT_BALANCE) or has granted spender (ALLOWANCE_MISSING)',
  })
  held?: string;
  @ApiPropertyOptional({
    description:
      "ALLOWANCE_MISSING: the contract the allowance goes to: Permit2 when the route has `permit` (what the default, sponsored, build uses), else, and on a user-paid build, the leg's spender",
  })
  spender?: string;
  @ApiPropertyOptional({
    description:
      'ALLOWANCE_MISSING: true when the token has EIP-2612, so the build asks a permit signature instead of an approve transaction',
  })
  coveredByPermit?: boolean;
  @ApiPropertyOptional({
    example: 'UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT',
    description:
      'SIMULATION_REVERTED: Error(string) as its text, Panic(0x11: arithmetic overflow or underflow), a known custom error as Name(args), else custom error 0x<selector>',
  })
  revertReason?: string;
  @ApiPropertyOptional({ description: 'SIMULATION_REVERTED: the raw revert data, 0x-hex' })
  revertData?: string;
  @ApiPropertyOptional({ enum: ROUTE_ISSUE_CHECKS, description: 'CHECK_UNAVAILABLE: the read that failed' })
  check?: RouteIssueCheck;
}

/** One recipient's integrator fee on a route (docs/integrator-guide.md "Integrator fees"). */
export class RouteIntegratorFeeDto implements RouteIntegratorFee {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 300,
    example: 50,
    description: 'Basis points of amountIn',
  })
  bps!: number;
  @ApiProperty({
    example: '0.125',
    description:
      "The fee in units of token: floor(amountIn × bps / 10000) in base units, to be paid to the recipient in the route's first transaction on the source chain. " +
      'Not collected on chain yet: POST /swap/build refuses a route with a fee (400 VALIDATION_FAILED, field integratorFee)',
    pattern: HUMAN_AMOUNT.source,
  })
  amount!: string;
  @ApiProperty({ example: 'USDC', description: 'The input token (the fee is taken from the input)' })
  token!: string;
  @ApiProperty({ example: 'devnet-a', description: 'The source chain, where the fee is paid' })
  chain!: string;
  @ApiProperty({ description: 'Address on the source chain that receives the fee' })
  recipient!: string;
}

/** The spec's QuoteRouteSummary. */
@ApiSchema({
  description:
    'One route of a quote. Gas is covered by the service on every route: its relayers pay all gas and the user pays nothing extra; `gasCoverage` states the expected cost per chain (an upper bound).',
})
export class QuoteRouteSummaryDto implements QuoteRouteSummary {
  @ApiProperty({ description: 'Route identifier, passed to swap build' }) routeId!: string;
  @ApiPropertyOptional({
    example: 'uniswap-v2',
    description: 'Present when one provider label covers the whole route',
  })
  provider?: string;
  @ApiProperty({
    type: [String],
    example: ['uniswap-v2', 'devnet-bridge', 'uniswap-v2'],
    description: 'Providers in step order',
  })
  providers!: string[];
  @ApiPropertyOptional({
    example: 'devnet-bridge',
    description: 'Bridge provider, when the route has a bridge step',
  })
  bridgeProvider?: string;
  @ApiPropertyOptional({ enum: ROUTE_FAMILIES }) family?: RouteFamily;
  @ApiProperty({
    type: 'integer',
    example: 1,
    description:
      'Number of execution legs (swaps and bridge transfers; approvals not counted). What the wallet signs is `signatures`',
  })
  stepCount!: number;
  @ApiProperty({
    example: '25',
    description: "What goes in, in units of tokenIn (the quote's amount)",
    pattern: HUMAN_AMOUNT.source,
  })
  amountIn!: string;
  @ApiProperty({
    example: '0.0333',
    description: 'Expected output, in units of tokenOut (a decimal string, like every amount of the API)',
    pattern: HUMAN_AMOUNT.source,
  })
  expectedAmountOut!: string;
  @ApiProperty({
    example: '0.032967',
    description:
      "The least output the build accepts after the quote's slippage, in units of tokenOut: what the last leg enforces on chain",
    pattern: HUMAN_AMOUNT.source,
  })
  minAmountOut!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 5000,
    example: 50,
    description:
      'The slippage the route uses, in basis points: how far minAmountOut may be below expectedAmountOut. ' +
      "Each swap leg has its own (the request's slippageBps, or the automatic one: see slippageSource); a multi-leg route compounds them, " +
      "1 − Π(1 − legᵢ), rounded up, a bridge paying a fixed amount adding none. With the request's 50 a swap → bridge → swap route reads 100",
  })
  slippageBps!: number;
  @ApiProperty({
    enum: SLIPPAGE_SOURCES,
    example: 'auto',
    description:
      "request: every swap leg uses the request's slippageBps. auto (the request had none): each Uniswap leg uses " +
      "clamp(30 + ceil(pressure / 2), 30, 300) bps, pressure being the larger of its price impact and the largest share of a pool's output side one hop takes (bps); " +
      "an aggregator's route (lifi, 0x, jupiter), whose minimum is fixed in its transaction before its price impact is known, 50 bps; a bridge paying a fixed amount 0",
  })
  slippageSource!: SlippageSource;
  @ApiProperty({
    type: 'integer',
    example: 6,
    description: 'Decimals of tokenIn: base units = amount × 10^decimals',
  })
  tokenInDecimals!: number;
  @ApiProperty({ type: 'integer', example: 18, description: 'Decimals of tokenOut' })
  tokenOutDecimals!: number;
  @ApiProperty({ type: 'integer', example: 5 }) estimatedDurationSeconds!: number;
  @ApiPropertyOptional({
    type: [String],
    example: ['HIGH_PRICE_IMPACT'],
    description:
      'HIGH_PRICE_IMPACT (> 1% by default), THIN_LIQUIDITY (a hop takes > 10% of a pool side), AMOUNT_EXCEEDS_LIQUIDITY (a hop takes half of a pool side or more: ' +
      'the amount is as large as the pool), AMOUNT_LOOKS_LIKE_BASE_UNITS (the amount is a whole number worth a token or more in base units: amounts are in units of the token, "25" for 25 USDC), ' +
      'TOKEN_TAXED (a token of the route keeps a share of each buy or sell: buyTaxBps, sellTaxBps), TOKEN_TRANSFER_RESTRICTED (buying, selling or transferring a token of the route to the recipient reverted when simulated on chain: ' +
      'the swap may fail or leave tokens that cannot be moved), TOKEN_TAX_UNCHECKED (a token nobody vouches for whose taxes could not be measured). New codes may be added',
  })
  warnings?: string[];
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    example: 300,
    description:
      'The tax tokenOut keeps when bought on this route, in basis points, measured on chain by simulating a buy (not read from a list); 0: none. ' +
      'expectedAmountOut and minAmountOut are net of it. Absent when not measured (routes without a Uniswap V2 swap of the token, or a simulation that could not run: see TOKEN_TAX_UNCHECKED)',
  })
  buyTaxBps?: number;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    example: 500,
    description:
      'The tax tokenIn keeps when sold on this route, in basis points, measured on chain by simulating a sell; 0: none. ' +
      'The pool is priced for amountIn less this tax, so expectedAmountOut and minAmountOut are net of it. Absent when not measured',
  })
  sellTaxBps?: number;
  @ApiPropertyOptional({
    type: RoutePermitInfoDto,
    description:
      'Present when the first leg can take a permit instead of an approval (POST /swap/build permitType eip2612 or permit2): what to sign',
  })
  permit?: RoutePermitInfoDto;
  @ApiProperty({
    type: RouteGasCoverageDto,
    description:
      'Gas is sponsored on every route: the service\'s relayers pay all gas and the user pays nothing extra (userPays "0"). ' +
      "The expected cost per chain, in the native coin, is an upper bound: every ERC-20 leg counts the permit or approve step (the quote does not know the user's Permit2 allowance), " +
      "and every token account that may have to be created counts its rent. Prices are the chain node's (feeSource node) or a documented fallback (feeSource fallback).",
  })
  gasCoverage!: RouteGasCoverageDto;
  @ApiProperty({
    type: [RouteSignatureDto],
    description:
      'What the wallet signs, in order, when the route is built with the default gas payment (sponsored): one entry per step, so its length is ' +
      'the signing.step.total of that build. An upper bound: approvals marked mayBeSkipped are not offered when the allowance already exists. ' +
      'A user-paid build (gasPayment user, or a build carrying its own permit) asks for transactions instead of typed data',
  })
  signatures!: RouteSignatureDto[];
  @ApiPropertyOptional({
    type: [RouteIssueDto],
    description:
      "Only when the quote named userAddress: the first leg checked against that wallet now (its balance of the input, its allowance, an eth_call of the leg's transaction). " +
      '[] = everything was checked and nothing found; absent = nothing was checked (no userAddress). A route with a blocking issue cannot succeed as it is; the order of the routes does not change',
  })
  issues?: RouteIssueDto[];
  @ApiProperty({
    type: [RouteIntegratorFeeDto],
    description:
      "The integrator's fee, one entry per recipient (empty without a fee): taken from the input on the source chain, so amountIn includes it and " +
      'expectedAmountOut and minAmountOut are what is left after it (the providers are quoted for amountIn minus every fee)',
  })
  integratorFee!: RouteIntegratorFeeDto[];
}

/** Ours: what a provider said when it gave no route. */
export class UnavailableRouteDetailsDto implements UnavailableRouteDetails {
  @ApiPropertyOptional({
    example: '0.9',
    pattern: HUMAN_AMOUNT.source,
    description: 'AMOUNT_TOO_LOW: the least amount the provider takes, in units of `token` on `chain`',
  })
  minAmount?: string;
  @ApiPropertyOptional({
    example: '1000000',
    pattern: HUMAN_AMOUNT.source,
    description: 'AMOUNT_TOO_HIGH: the most the provider takes, in units of `token` on `chain`',
  })
  maxAmount?: string;
  @ApiPropertyOptional({
    example: 'USDC',
    description:
      'With a bound: the token it applies to, which is the bridged token when the route swaps before the bridge (e.g. USDC for WETH → USDC on Solana)',
  })
  token?: string;
  @ApiPropertyOptional({ example: 'devnet-a', description: 'With a bound: the chain of `token`' })
  chain?: string;
  @ApiPropertyOptional({
    description: "The provider's own words, for people; not stable, do not parse (use reason and the bounds)",
  })
  message?: string;
}

/** Ours: a provider asked for the quote that gives no route, and why. */
export class UnavailableRouteDto implements UnavailableRoute {
  @ApiProperty({ example: 'devnet-bridge', description: 'Provider label (as in routes[].providers)' })
  provider!: string;
  @ApiProperty({
    enum: UNAVAILABLE_ROUTE_REASONS,
    example: 'AMOUNT_TOO_LOW',
    description:
      'Stable. AMOUNT_TOO_LOW / AMOUNT_TOO_HIGH: under the minimum or over the maximum of the provider (details.minAmount / maxAmount when it states it), ' +
      'or, for AMOUNT_TOO_LOW, so small that the output rounds to zero (Uniswap V2 and V3: details.minAmount is the least input that buys one base unit; devnet bridge: the least input whose swap buys enough for the bridge to pay). ' +
      'NO_LIQUIDITY: no pool or market of the provider gives an output for this pair, or its pools are empty. PAIR_NOT_SUPPORTED: the provider does not trade this pair ' +
      '(or the chains: then every provider is listed), or it is a wrap (ETH ↔ WETH). SLIPPAGE_TOO_LOW: no route within the requested slippageBps. ' +
      'TOKEN_NOT_SUPPORTED: the venue cannot swap one of the tokens (Uniswap V3 and a taxed, fee-on-transfer token). ' +
      'PROVIDER_UNAVAILABLE: the provider failed or did not answer in time (4 s). New reasons may be added: treat an unknown one as NO_LIQUIDITY',
  })
  reason!: UnavailableRouteReason;
  @ApiProperty({ type: UnavailableRouteDetailsDto })
  details!: UnavailableRouteDetailsDto;
}

/** The spec's Quote (data of POST /quote). */
export class QuoteResponse implements Omit<QuoteResult, 'routePlans'> {
  @ApiProperty({ description: 'Quote identifier, passed to swap build' }) quoteId!: string;
  @ApiProperty({ type: 'integer', description: 'Expiry (ms since epoch): 60 s after the quote by default' })
  expiresAtMs!: number;
  @ApiProperty({
    type: [QuoteRouteSummaryDto],
    description:
      'Best output first; empty when no route exists. Gas is covered by the service on every route (gasCoverage)',
  })
  routes!: QuoteRouteSummaryDto[];
  @ApiProperty({
    type: [UnavailableRouteDto],
    description:
      "Ours: every provider asked that gives no route, with a stable reason (routes may still hold the other providers' routes). " +
      'When no provider covers the two chains, every provider is listed with PAIR_NOT_SUPPORTED. Empty when every provider asked has a route',
  })
  unavailableRoutes!: UnavailableRouteDto[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'With ?debug=1: provider outcomes and route details',
  })
  debug?: Record<string, unknown>;
}
