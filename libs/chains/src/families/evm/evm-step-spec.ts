import { MaxUint256 } from 'ethers';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import type {
  RouteCall,
  RouteLeg,
  SponsoredIntentSpec,
  SponsoredStepSpec,
  TokenRef,
} from '@swapgw/contracts';
import { PermitContracts, permitVenueOf } from '../../permit-contracts';
import type {
  BridgePayout,
  DestinationSwap,
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecChains,
  StepSpecFamily,
} from '../step-spec-family';
import type { EncodedCall, IntegratorFeeTransfer, RouterPermit } from '../step-parts';
import { nobleMintSettlementOf } from '../devnet-bridge-settlement';
import {
  encodeApprove,
  encodeAcrossFeeDeposit,
  encodeBridgeDeposit,
  encodeFeeDeposit,
  encodeFeeSwap,
  encodeUniswapV2Swap,
  encodeUniswapV3Swap,
} from './evm-calldata';
import { ACROSS_PROVIDER, acrossLegDeposit, acrossLegTerms } from './across-calldata';
import { THORCHAIN_PROVIDER, thorchainRouterDeposit } from './thorchain-calldata';

/**
 * The EVM family's steps: ERC-20 approves (of the leg's spender, or of Permit2), the leg's own
 * transaction (Uniswap V2 swap, bridge deposit, or an aggregator's prebuilt call), and, on sponsored
 * swaps, the typed data the relayer executes (a token's EIP-2612 permit of Permit2, a Permit2
 * witness of the leg). A bridge pays an EVM recipient with `deposit` on the destination's chain id;
 * a bridge-swap's destination swap runs through the destination chain's SwapGatewayRouter.
 */
export const evmStepSpecFamily: StepSpecFamily = {
  permits: true,
  stepOf: evmStepOf,
  bridgePayoutOf: evmBridgePayoutOf,
  destinationSwapOf: evmDestinationSwapOf,
  // A devnet-bridge deposit towards Noble settles by Noble's mint (the planner's CctpMintReader reads
  // its `DepositTo` nonce); every other step by its confirmation (THORChain's deposit: the planner).
  settlementOf: nobleMintSettlementOf,
};

/** The service pays the gas of the wallet's own transaction first (sponsored swaps). */
const COVERED: SponsoredStepSpec = { mode: 'covered-transaction' };

/**
 * One EVM step of a leg, as `input.step` (splitSteps) says it is signed:
 *  - approve of Permit2: on a sponsored swap the token's EIP-2612 permit when it has one, else the
 *    wallet's approve transaction (MaxUint256, as Uniswap's apps grant Permit2 once per token);
 *  - approve of the leg's spender: the wallet's approve of what the leg spends;
 *  - permit2-intent: the leg (or a bridge-swap: the bridge and the destination swap) as the Permit2
 *    witness the relayer executes;
 *  - otherwise the leg's own transaction, carrying the first leg's permit if there is one.
 */
export function evmStepOf(input: LegStepInput, chains: LegStepChains): LegStepSpec {
  const { step, leg, sponsored } = input;
  const gas = sponsored ? { sponsored: COVERED } : {};
  // With integrator fees the leg pulls its spend plus the fees: through the SwapGatewayRouter, or
  // through an aggregator's prebuilt call, which takes them itself.
  const viaRouter = routerPaysFees(input);
  const spend = grossSpendOf(input);
  if (step.kind === 'approve') {
    const token = leg.tokenIn.address as string;
    if (step.approves !== 'permit2') {
      const spender = viaRouter ? permitContractsOf(leg.chain, chains).permitRouter : leg.spender;
      const approve = { token, spender, amount: spend.toString() };
      return { kind: 'approve', call: encodeApprove(token, spender, spend), approve, ...gas };
    }
    const permit2 = input.permit?.permit2 ?? permitContractsOf(leg.chain, chains).permit2;
    const approve = { token, spender: permit2, amount: spend.toString() };
    const tokenPermit =
      step.signing === 'eip2612-permit' ? chains.tokenPermitOf?.(leg.chain, token) : undefined;
    if (tokenPermit) {
      const { name: tokenName, version } = tokenPermit;
      const permit = { token, tokenName, version, spender: permit2, value: MaxUint256.toString() };
      return { kind: 'approve', call: null, approve, sponsored: { mode: 'eip2612-permit', permit } };
    }
    return { kind: 'approve', call: encodeApprove(token, permit2, MaxUint256), approve, ...gas };
  }
  if (step.signing === 'permit2-intent') {
    const contracts = permitContractsOf(leg.chain, chains);
    const intent = step.bridgeSwap
      ? bridgeSwapIntentOf(input, contracts, chains)
      : intentOf(input, contracts, chains);
    return { kind: leg.kind, call: null, sponsored: { mode: 'permit2-intent', intent } };
  }
  if (viaRouter) return { kind: leg.kind, call: feeLegCallOf(input, chains), ...gas };
  const call = legCallOf(
    leg,
    spend,
    input.minOut,
    input.recipient,
    input.signer,
    input.deadline,
    chains,
    input.permit,
  );
  return { kind: leg.kind, call, ...gas };
}

/** An EVM recipient of the bridge's `deposit`, on the bridge's id of the destination chain. */
export function evmBridgePayoutOf(leg: RouteLeg, recipient: string, chains: StepSpecChains): BridgePayout {
  if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
  return {
    chainId: leg.destinationBridgeChainId ?? chains.evmChainIdOf(leg.destinationChain),
    recipient,
    encoding: 'address',
  };
}

/**
 * The destination half of a bridge-swap: the destination chain's bridge id and SwapGatewayRouter,
 * and the swap along the swap leg's path for at least its minAmountOut scaled to what the bridge
 * guarantees (`bridged`), to the final recipient, before the deadline.
 */
export function evmDestinationSwapOf(
  bridge: RouteLeg,
  swap: RouteLeg,
  bridged: bigint,
  recipient: string,
  deadline: bigint,
  chains: StepSpecChains,
): DestinationSwap {
  if (!bridge.destinationChain) throw new Error(`Bridge leg on ${bridge.chain} has no destinationChain`);
  const destination = chains.permitContractsOf?.(swap.chain);
  // Uniswap V3 (pool fees) through SwapRouter02, else V2 through Router02.
  const destinationVenue = swap.poolFees ? destination?.uniswapV3SwapRouter02 : destination?.uniswapV2Router;
  if (!destination || !destinationVenue || !swap.path)
    throw new Error(`Swap leg on ${swap.chain} cannot run through its SwapGatewayRouter`);
  const quotedIn = BigInt(swap.amountIn);
  const amountOutMin = (BigInt(swap.minAmountOut) * min(quotedIn, bridged)) / quotedIn;
  return {
    destinationChainId: bridge.destinationBridgeChainId ?? chains.evmChainIdOf(bridge.destinationChain),
    destinationRouter: destination.permitRouter,
    destinationVenue,
    path: swap.path,
    ...(swap.poolFees ? { poolFees: swap.poolFees } : {}),
    amountOutMin: amountOutMin.toString(),
    unwrapNative: isNative(swap.tokenOut),
    recipient,
    deadline: Number(deadline),
  };
}

/**
 * The first leg's transaction when it pays integrator fees, through the chain's SwapGatewayRouter,
 * which pays each fee and spends `spend` in the same call: a swap through the leg's Uniswap venue
 * (swapWithFees / swapV3WithFees pulling spend plus the fees with the wallet's allowance or the
 * first leg's permit; native coin in: the same entry points with spend plus the fees as the value,
 * the fees paid in the native coin), a devnet bridge deposit (depositWithFees to an EVM recipient,
 * depositToWithFees to a Solana or Bitcoin one) or an Across deposit with the wallet as depositor (acrossWithFees). The build refuses fees on any
 * other first leg (execution-planner's integratorFeeTransfersOf).
 */
function feeLegCallOf(input: LegStepInput, chains: LegStepChains): EncodedCall {
  const { leg } = input;
  const integratorFees = input.integratorFees ?? [];
  const contracts = permitContractsOf(leg.chain, chains);
  const gatewayRouter = contracts.permitRouter;
  if (leg.call) throw new Error(`The ${leg.provider} leg on ${leg.chain} cannot pay integrator fees`);
  if (leg.kind === 'bridge' && leg.provider === ACROSS_PROVIDER) {
    const { chainId } = chains.bridgePayoutOf(leg, input.recipient);
    return encodeAcrossFeeDeposit({
      ...acrossLegTerms(leg, input.minOut),
      gatewayRouter,
      spokePool: venueOf(leg, contracts),
      grossAmount: grossSpendOf(input),
      recipient: input.recipient,
      destinationChainId: chainId,
      integratorFees,
    });
  }
  if (leg.kind === 'bridge') {
    const payout = chains.bridgePayoutOf(leg, input.recipient);
    return encodeFeeDeposit({
      gatewayRouter,
      bridge: venueOf(leg, contracts),
      grossAmount: grossSpendOf(input),
      destinationChainId: payout.chainId,
      recipient: payout.recipient,
      recipientEncoding: payout.encoding,
      integratorFees,
      ...(input.permit ? { permit: input.permit } : {}),
    });
  }
  if (!leg.path) throw new Error(`The ${leg.provider} leg on ${leg.chain} cannot pay integrator fees`);
  return encodeFeeSwap({
    gatewayRouter,
    venue: venueOf(leg, contracts),
    grossAmountIn: grossSpendOf(input),
    amountOutMin: input.minOut,
    path: leg.path,
    ...(leg.poolFees ? { poolFees: leg.poolFees } : {}),
    nativeIn: isNative(leg.tokenIn),
    nativeOut: isNative(leg.tokenOut),
    to: input.recipient,
    deadline: input.deadline,
    integratorFees,
    ...(input.permit ? { permit: input.permit } : {}),
  });
}

/**
 * Whether the SwapGatewayRouter pays the leg's integrator fees: any fee-paying first leg but an
 * aggregator's prebuilt call, which is sent as built and takes the fees it was quoted with itself
 * (0x swapFeeBps, LI.FI fee), and a THORChain deposit, whose memo names the recipients as
 * affiliates: it deposits the spend plus the fees and THORChain takes them.
 */
function routerPaysFees(input: LegStepInput): boolean {
  return (input.integratorFees ?? []).length > 0 && !input.leg.call && !input.leg.thorchain;
}

/** What the leg pulls from the wallet: its spend, plus the integrator fees on a fee-paying first leg. */
function grossSpendOf(input: LegStepInput): bigint {
  return (input.integratorFees ?? []).reduce((sum, fee) => sum + fee.amount, input.spend);
}

/** The chain's permit contracts; splitSteps only asks for Permit2 steps where there are some. */
function permitContractsOf(chain: string, chains: StepSpecChains): PermitContracts {
  const contracts = chains.permitContractsOf?.(chain);
  if (!contracts) throw new Error(`Chain ${chain} has no permit contracts`);
  return contracts;
}

/** The chain's venue (bridge, Router02 or SwapRouter02) a permitted leg goes through. */
function venueOf(leg: RouteLeg, contracts: PermitContracts): string {
  const venue = permitVenueOf(leg, contracts);
  if (!venue)
    throw new Error(`The ${leg.provider} leg on ${leg.chain} has no venue the SwapGatewayRouter calls`);
  return venue;
}

/**
 * What the user's Permit2 witness signature binds for a leg through the SwapGatewayRouter: the
 * whole `spend`, the venue, and the path (and pool fees on Uniswap V3), minimum out, recipient and
 * deadline (swap) or the destination chain and recipient (bridge; 32 bytes towards a family without
 * EVM addresses).
 */
function intentOf(
  input: LegStepInput,
  contracts: PermitContracts,
  chains: LegStepChains,
): SponsoredIntentSpec {
  const { leg, recipient } = input;
  const fees = input.integratorFees ?? [];
  const common = {
    permit2: contracts.permit2,
    router: contracts.permitRouter,
    venue: venueOf(leg, contracts),
    token: leg.tokenIn.address as string,
    // Permit2 moves the spend and the fees; the router pays the fees and swaps the spend.
    amount: grossSpendOf(input).toString(),
    deadline: Number(input.deadline),
  };
  if (leg.kind === 'bridge' && leg.provider === ACROSS_PROVIDER) {
    const { chainId } = chains.bridgePayoutOf(leg, recipient);
    return {
      ...common,
      kind: 'across',
      destinationChainId: chainId,
      recipient,
      across: acrossTermsOf(input),
      ...integratorFeesSpecOf(fees),
    };
  }
  if (leg.kind === 'bridge') {
    const payout = chains.bridgePayoutOf(leg, recipient);
    return {
      ...common,
      kind: payout.encoding === 'bytes32' ? 'bridge-to' : 'bridge',
      destinationChainId: payout.chainId,
      recipient: payout.recipient,
      ...integratorFeesSpecOf(fees),
    };
  }
  if (!leg.path || leg.path.length < 2)
    throw new Error(`Swap leg ${leg.provider} on ${leg.chain} has no Uniswap path`);
  return {
    ...common,
    kind: leg.poolFees ? 'swap-v3' : 'swap',
    path: leg.path,
    ...(leg.poolFees ? { poolFees: leg.poolFees } : {}),
    amountOutMin: input.minOut.toString(),
    unwrapNative: isNative(leg.tokenOut),
    recipient,
    ...integratorFeesSpecOf(fees),
  };
}

/** The fees as a swap, bridge, bridge-to, across or bridge-swap intent carries them (absent: none). */
function integratorFeesSpecOf(fees: IntegratorFeeTransfer[]): Pick<SponsoredIntentSpec, 'integratorFees'> {
  return fees.length > 0
    ? { integratorFees: fees.map((fee) => ({ recipient: fee.recipient, amount: fee.amount.toString() })) }
    : {};
}

/**
 * The witness of a bridge-swap: the source leg as a bridge deposit of `spend` to the destination's
 * SwapGatewayRouter, and the destination swap along the swap leg's path for at least its
 * minAmountOut scaled to what the bridge guarantees (the bridge leg's minOut), to the final recipient.
 * Through Across (`across-swap`): the deposit's terms too, its outputAmount being that guarantee.
 */
function bridgeSwapIntentOf(
  input: LegStepInput,
  contracts: PermitContracts,
  chains: LegStepChains,
): SponsoredIntentSpec {
  const across = input.leg.provider === ACROSS_PROVIDER;
  const fees = input.integratorFees ?? [];
  return {
    kind: across ? 'across-swap' : 'bridge-swap',
    ...(across ? { across: acrossTermsOf(input) } : {}),
    permit2: contracts.permit2,
    router: contracts.permitRouter,
    venue: venueOf(input.leg, contracts),
    token: input.leg.tokenIn.address as string,
    // Permit2 moves the spend and the fees; the router pays the fees and deposits the spend.
    amount: grossSpendOf(input).toString(),
    ...chains.destinationSwapOf(input),
    ...integratorFeesSpecOf(fees),
  };
}

/** An across leg's deposit terms as an intent carries them (acrossLegTerms). */
function acrossTermsOf(input: LegStepInput): NonNullable<SponsoredIntentSpec['across']> {
  const terms = acrossLegTerms(input.leg, input.minOut);
  return {
    outputToken: terms.outputToken,
    outputAmount: terms.outputAmount.toString(),
    exclusiveRelayer: terms.exclusiveRelayer,
    quoteTimestamp: terms.quoteTimestamp,
    fillDeadline: terms.fillDeadline,
    exclusivityParameter: terms.exclusivityParameter,
  };
}

/** The leg's own transaction: its prebuilt call, the bridge deposit, or the Uniswap V2 / V3 swap. */
function legCallOf(
  leg: RouteLeg,
  spend: bigint,
  minOut: bigint,
  recipient: string,
  signer: string,
  deadline: bigint,
  chains: LegStepChains,
  permit?: RouterPermit,
): EncodedCall {
  if (leg.call) return prebuiltCallOf(leg, leg.call, signer);
  if (leg.kind === 'bridge' && leg.provider === THORCHAIN_PROVIDER) {
    if (permit) throw new Error(`The thorchain leg on ${leg.chain} cannot take a permit`);
    return thorchainRouterDeposit(leg, spend, minOut, recipient, deadline);
  }
  if (leg.kind === 'bridge' && leg.provider === ACROSS_PROVIDER) {
    if (permit) throw new Error(`The across leg on ${leg.chain} cannot take a permit`);
    const { chainId } = chains.bridgePayoutOf(leg, recipient);
    return acrossLegDeposit(leg, spend, minOut, recipient, signer, chainId);
  }
  if (leg.kind === 'bridge') {
    const payout = chains.bridgePayoutOf(leg, recipient);
    return encodeBridgeDeposit(leg.spender, spend, payout.chainId, payout.recipient, payout.encoding, permit);
  }
  if (!leg.path || leg.path.length < 2) {
    // An aggregator leg priced before the wallet was known: its call would pay the placeholder taker.
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `The ${leg.provider} leg on ${leg.chain} carries no transaction: quote again with the signing wallet as recipient`,
      { field: 'recipient', chain: leg.chain },
    );
  }
  if (leg.poolFees) {
    return encodeUniswapV3Swap({
      router: leg.spender,
      nativeIn: isNative(leg.tokenIn),
      nativeOut: isNative(leg.tokenOut),
      amountIn: spend,
      amountOutMin: minOut,
      path: leg.path,
      fees: leg.poolFees,
      to: recipient,
      deadline,
      permit,
    });
  }
  return encodeUniswapV2Swap({
    router: leg.spender,
    nativeIn: isNative(leg.tokenIn),
    nativeOut: isNative(leg.tokenOut),
    amountIn: spend,
    amountOutMin: minOut,
    path: leg.path,
    to: recipient,
    deadline,
    permit,
    ...(isTaxedLeg(leg) ? { feeOnTransfer: true } : {}),
  });
}

/** A Uniswap V2 leg whose tokenIn is taxed when sold or tokenOut when bought (measured by quote-service). */
export function isTaxedLeg(leg: RouteLeg): boolean {
  return (leg.sellTaxBps ?? 0) > 0 || (leg.buyTaxBps ?? 0) > 0;
}

/**
 * An aggregator's call as quoted, for the wallet it was built for only: the call spends that
 * wallet's tokens and pays out as it was quoted, so another signer gets 400, never a payload that
 * moves someone else's funds or pays someone else.
 */
function prebuiltCallOf(leg: RouteLeg, call: RouteCall, signer: string): EncodedCall {
  if (call.from.toLowerCase() !== signer.toLowerCase()) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `The ${leg.provider} call on ${leg.chain} was built for ${call.from}, not for the signing wallet ${signer}`,
      { field: 'userAddress', chain: leg.chain },
    );
  }
  return { to: call.to, data: call.data, value: call.value };
}

const isNative = (token: TokenRef): boolean => token.address === null;
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
