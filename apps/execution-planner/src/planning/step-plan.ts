import { MaxUint256, Signature } from 'ethers';
import {
  CodedError,
  ErrorCodes,
  GasPayment,
  Permit2Payload,
  PermitType,
  SigningStepKind,
  SolanaStepSpec,
  SponsoredIntentSpec,
  SponsoredStepSpec,
} from '@swapgw/contracts';
import {
  ChainFamily,
  PermitContracts,
  permitLegProblem,
  splitSteps,
  validateAddressForFamily,
} from '@swapgw/chains';
import {
  EncodedCall,
  encodeApprove,
  encodeBridgeDeposit,
  encodeBridgeDepositTo,
  encodeUniswapV2Swap,
  RouterPermit,
  solanaRecipientBytes32,
} from './calldata';
import { RouteLeg, RoutePlan, TokenRef } from '@swapgw/contracts';

/** The part of a swap.build request that shapes the steps. */
export interface StepPlanRequest {
  userAddress: string;
  recipient?: string;
  permitType?: PermitType;
  gasPayment?: GasPayment;
  permitDeadline?: number;
  permitSignature?: { v: number; r: string; s: string };
  permitSignatureCompact?: { r: string; vs: string };
  permit2?: Permit2Payload;
}

export interface StepPlanContext {
  nowMs: number;
  /** How long the swap calls stay executable (router `deadline`), from build time. */
  swapDeadlineSeconds: number;
  /** EVM chain id of an API chain id (`devnet-b` → 31338), for bridge deposits. */
  evmChainIdOf: (chain: string) => number;
  /** Family of an API chain id (`solana-devnet` → solana): which wallet signs there, which encoding. */
  familyOf: (chain: string) => ChainFamily;
  /**
   * The user's balance of each bridged-to token before the swap, keyed by `balanceKey`: a
   * destination step waits until the balance grew by what the bridge guarantees.
   */
  balancesBefore: ReadonlyMap<string, bigint>;
  /** Permit contracts of a chain; undefined where there are none (no permits on that chain). */
  permitContractsOf?: (chain: string) => PermitContracts | undefined;
  /**
   * With permitType permit2: the user's ERC-20 allowance of the first leg's token to Permit2, read
   * at build time. Short of the amount, the plan puts an approve of Permit2 first.
   */
  permit2Allowance?: bigint;
  /** The EIP-712 domain of a token's EIP-2612 permit on a chain; undefined for tokens without one (WETH9). */
  tokenPermitOf?: (chain: string, token: string) => { name: string; version: string } | undefined;
}

export interface PlannedStep {
  /** 1-based, the `step.current` a client sees. */
  index: number;
  legIndex: number;
  kind: SigningStepKind;
  chain: string;
  /** The wallet that signs this step (the payload's `from` / fee payer). */
  signer: string;
  /** EVM steps: the contract call; null on Solana steps. */
  call: EncodedCall | null;
  /** Solana steps: what the signer builds (bridge deposit) or hands out (prebuilt transaction). */
  solana?: SolanaStepSpec;
  approve?: { token: string; spender: string; amount: string };
  waitFor?: { token: string | null; holder: string; minBalance: string };
  /** How the service pays the step's gas; absent on user-paid swaps (gasPayment user). */
  sponsored?: SponsoredStepSpec;
}

/**
 * Who pays the swap's gas: the request's gasPayment, else `user` when the build carries its own
 * permit (permitType or a permit signature: the wallet sends the router call), else `sponsored`.
 * gasPayment sponsored together with permit fields is 400 VALIDATION_FAILED.
 */
export function gasPaymentOf(request: StepPlanRequest): GasPayment {
  const permitField = [
    'permitType',
    'permitSignature',
    'permitSignatureCompact',
    'permit2',
    'permitDeadline',
  ].find((field) => request[field as keyof StepPlanRequest] !== undefined);
  if (request.gasPayment === 'sponsored' && permitField) {
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `${permitField} belongs to a user-paid build (the wallet sends the router call); a sponsored swap asks for its permits as typed-data steps`,
      { field: permitField },
    );
  }
  return request.gasPayment ?? (permitField ? 'user' : 'sponsored');
}

/**
 * Who signs what. The user's wallet (`userAddress`) signs on the source chain's family; on a
 * cross-family route (EVM ⇄ Solana) the other family's steps are signed by the recipient, the only
 * wallet of that family the request names, which therefore is required there.
 */
export interface SwapWallets {
  userAddress: string;
  finalRecipient: string;
  /** The wallet that holds funds and signs on `chain`. */
  walletOn(chain: string): string;
}

/**
 * Validates the addresses against the route (userAddress: the family of the first leg's chain;
 * recipient: the destination's) and names the wallet of each chain. 400 INVALID_ADDRESS otherwise.
 */
export function walletsOf(
  plan: RoutePlan,
  request: Pick<StepPlanRequest, 'userAddress' | 'recipient'>,
  familyOf: (chain: string) => ChainFamily,
): SwapWallets {
  if (plan.legs.length === 0) throw new Error(`Route ${plan.routeId} of quote ${plan.quoteId} has no legs`);
  const sourceChain = plan.legs[0].chain;
  const sourceFamily = familyOf(sourceChain);
  const destinationFamily = familyOf(plan.toChain);
  assertAddress('userAddress', request.userAddress, sourceChain, sourceFamily);
  const finalRecipient =
    request.recipient ??
    plan.recipient ??
    (sourceFamily === destinationFamily ? request.userAddress : undefined);
  if (finalRecipient === undefined) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `This route goes from ${sourceChain} (${sourceFamily}) to ${plan.toChain} (${destinationFamily}): a recipient on ${plan.toChain} is required`,
      { field: 'recipient', chain: plan.toChain, family: destinationFamily },
    );
  }
  assertAddress(
    request.recipient !== undefined ? 'recipient' : 'quote.recipient',
    finalRecipient,
    plan.toChain,
    destinationFamily,
  );
  return {
    userAddress: request.userAddress,
    finalRecipient,
    walletOn: (chain) => (familyOf(chain) === sourceFamily ? request.userAddress : finalRecipient),
  };
}

function assertAddress(field: string, address: string, chain: string, family: ChainFamily): void {
  const result = validateAddressForFamily(family, address);
  if (!result.ok) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `${field} ${address} is not a ${family} address, as ${chain} needs: ${result.reason}`,
      {
        field,
        chain,
        family,
      },
    );
  }
}

export const balanceKey = (chain: string, token: string | null): string =>
  `${chain}:${(token ?? 'native').toLowerCase()}`;

/**
 * Balances the plan needs before it can be expanded: the tokens that bridge legs deliver, held by
 * the wallet of the destination chain (`holderOn`, see SwapWallets.walletOn).
 */
export function balancesToRead(
  plan: RoutePlan,
  holderOn: (chain: string) => string,
): { chain: string; token: string | null; holder: string }[] {
  return plan.legs
    .filter((leg, i) => leg.kind === 'bridge' && i < plan.legs.length - 1)
    .map((leg) => ({
      chain: leg.tokenOut.chain,
      token: leg.tokenOut.address,
      holder: holderOn(leg.tokenOut.chain),
    }));
}

/**
 * Expands a route plan into the signing steps the user goes through, in order: the legs split as
 * @swapgw/chains' `splitSteps` decides (quote-service announces the same split to wallets), each
 * step encoded here. For each leg, an `approve` step when the leg pulls an ERC-20, then the leg's
 * own call. With a permit (see firstLegPermitOf) the first leg is the SwapGatewayRouter's call
 * carrying it, with no approve (Permit2: one approve of Permit2 first when the user's allowance to
 * it is short).
 *
 * Between legs the user's wallet holds the funds (each step is the user's own transaction), so a
 * leg that follows another spends what the previous leg guarantees (its minAmountOut), never more:
 * a short fill within slippage cannot make the next step revert, and any surplus stays with the
 * user. Its minAmountOut is scaled by the same ratio.
 *
 * Sponsored swaps (gasPaymentOf): an ERC-20 leg through the chain's SwapGatewayRouter becomes an
 * `approve` step granting Permit2 the token (the user signs the token's EIP-2612 permit, or, for a
 * token without one, sends the approve with gas the service sent first; skipped when the allowance
 * is there) and the leg's step, a Permit2 witness signature the relayer executes. Every other EVM
 * step stays the user's transaction with its gas covered first (covered-transaction).
 *
 * A sponsored route that ends with a bridge between EVM chains and a swap on the destination, both
 * through the chains' SwapGatewayRouters (@swapgw/chains' bridgeSwapLegOf), signs once on the source: the bridge
 * leg's step is a `bridge-swap` intent binding the destination swap too (the bridge hands the
 * deposit to the destination router, which swaps it for the recipient), and the swap leg has no
 * steps. Its minimum out is the swap leg's, scaled to what the bridge guarantees, as above. The same
 * from Solana: the bridge leg's step is the Solana bridge deposit to the destination's
 * SwapGatewayRouter whose memo carries the swap (SolanaStepSpec `message`), and the swap leg has no
 * steps.
 */
export function planSteps(
  plan: RoutePlan,
  request: StepPlanRequest,
  context: StepPlanContext,
): PlannedStep[] {
  const wallets = walletsOf(plan, request, context.familyOf);
  const sponsored = gasPaymentOf(request) === 'sponsored';
  const permit = firstLegPermitOf(plan, request, context);
  const deadline = BigInt(Math.floor(context.nowMs / 1000) + context.swapDeadlineSeconds);
  const split = splitSteps(plan.legs, context, {
    gasPayment: sponsored ? 'sponsored' : 'user',
    firstLegPermit: permit?.kind,
    permit2Allowance: context.permit2Allowance,
  });
  const permitContractsOf = (chain: string): PermitContracts => {
    const contracts = context.permitContractsOf?.(chain);
    if (!contracts) throw new Error(`Chain ${chain} has no permit contracts`); // splitSteps checked them
    return contracts;
  };
  const steps: PlannedStep[] = [];
  let guaranteedFromPrevious: bigint | null = null;
  let waitFor: PlannedStep['waitFor'];

  plan.legs.forEach((leg, legIndex) => {
    const legSteps = split.filter((step) => step.legIndex === legIndex);
    // The destination swap of a bridge-swap runs from the bridge leg's signature: no steps of its own.
    if (legSteps.length === 0) {
      if (split.some((step) => step.legIndex === legIndex - 1 && step.bridgeSwap)) return;
      throw new Error(`Leg ${legIndex} of route ${plan.routeId} is on ${leg.chain}, a chain without swaps`);
    }
    const quotedIn = BigInt(leg.amountIn);
    // A prebuilt transaction (aggregator call or Solana transaction) spends what it was built for.
    const prebuilt = Boolean(leg.call || leg.solanaTransaction);
    const spend =
      guaranteedFromPrevious === null || prebuilt ? quotedIn : min(quotedIn, guaranteedFromPrevious);
    const minOut = (BigInt(leg.minAmountOut) * spend) / quotedIn;
    const isLast = legIndex === plan.legs.length - 1;
    const signer = wallets.walletOn(leg.chain);
    const legRecipient = isLast ? wallets.finalRecipient : wallets.walletOn(leg.tokenOut.chain);
    const legPermit = legIndex === 0 && permit ? permit : undefined;
    const gas = (spec: SponsoredStepSpec) => (sponsored ? { sponsored: spec } : {});
    const add = (step: Omit<PlannedStep, 'index' | 'legIndex' | 'chain' | 'signer' | 'waitFor'>) =>
      steps.push({
        index: steps.length + 1,
        legIndex,
        chain: leg.chain,
        signer,
        ...step,
        ...(waitFor ? { waitFor } : {}),
      });

    for (const step of legSteps) {
      if (step.signing === 'solana-transaction') {
        const next = plan.legs[legIndex + 1];
        const solana = step.bridgeSwap
          ? solanaBridgeSwapStepOf(leg, next, spend, minOut, wallets.finalRecipient, deadline, context)
          : solanaStepOf(leg, spend, signer, legRecipient, context);
        add({ kind: leg.kind, call: null, solana, ...gas(SOLANA_FEE_PAYER) });
      } else if (step.kind === 'approve') {
        const token = leg.tokenIn.address as string;
        if (step.approves === 'permit2') {
          const permit2 = legPermit?.permit2 ?? permitContractsOf(leg.chain).permit2;
          // Permit2 moves tokens with the owner's ERC-20 allowance to it: granted once per token, as
          // Uniswap's apps do (MaxUint256; Permit2 still needs a signature for every transfer).
          const approve = { token, spender: permit2, amount: spend.toString() };
          const tokenPermit =
            step.signing === 'eip2612-permit' ? context.tokenPermitOf?.(leg.chain, token) : undefined;
          if (tokenPermit) {
            const { name: tokenName, version } = tokenPermit;
            const signed = { token, tokenName, version, spender: permit2, value: MaxUint256.toString() };
            const sponsoredPermit: SponsoredStepSpec = { mode: 'eip2612-permit', permit: signed };
            add({ kind: 'approve', call: null, approve, sponsored: sponsoredPermit });
          } else {
            const call = encodeApprove(token, permit2, MaxUint256);
            add({ kind: 'approve', call, approve, ...gas(COVERED) });
          }
        } else {
          const approve = { token, spender: leg.spender, amount: spend.toString() };
          add({ kind: 'approve', call: encodeApprove(token, leg.spender, spend), approve, ...gas(COVERED) });
        }
      } else if (step.signing === 'permit2-intent') {
        const contracts = permitContractsOf(leg.chain);
        const next = plan.legs[legIndex + 1];
        const intent = step.bridgeSwap
          ? bridgeSwapIntentOf(leg, next, spend, minOut, wallets.finalRecipient, deadline, contracts, context)
          : intentOf(leg, spend, minOut, legRecipient, deadline, contracts, context);
        add({ kind: leg.kind, call: null, sponsored: { mode: 'permit2-intent', intent } });
      } else {
        const call = legCall(leg, spend, minOut, legRecipient, deadline, context, legPermit);
        add({ kind: leg.kind, call, ...gas(COVERED) });
      }
    }

    guaranteedFromPrevious = minOut;
    const bridgeSwap = legSteps.some((step) => step.bridgeSwap);
    if (leg.kind === 'bridge' && !isLast && !bridgeSwap) {
      const before = context.balancesBefore.get(balanceKey(leg.tokenOut.chain, leg.tokenOut.address));
      if (before === undefined)
        throw new Error(`Balance of ${leg.tokenOut.symbol} on ${leg.tokenOut.chain} was not read`);
      waitFor = {
        token: leg.tokenOut.address,
        holder: wallets.walletOn(leg.tokenOut.chain),
        minBalance: (before + minOut).toString(),
      };
    }
  });
  return steps;
}

const COVERED: SponsoredStepSpec = { mode: 'covered-transaction' };
const SOLANA_FEE_PAYER: SponsoredStepSpec = { mode: 'solana-fee-payer' };

/**
 * What the user's Permit2 witness signature binds for a leg through the SwapGatewayRouter: the
 * whole `spend`, and the path, minimum out, recipient and deadline (swap) or the destination chain
 * and recipient (bridge; 32 bytes towards Solana).
 */
function intentOf(
  leg: RouteLeg,
  spend: bigint,
  minOut: bigint,
  recipient: string,
  deadline: bigint,
  contracts: PermitContracts,
  context: StepPlanContext,
): SponsoredIntentSpec {
  const common = {
    permit2: contracts.permit2,
    router: contracts.permitRouter,
    token: leg.tokenIn.address as string,
    amount: spend.toString(),
    deadline: Number(deadline),
  };
  if (leg.kind === 'bridge') {
    const destination = bridgeDestinationOf(leg, recipient, context);
    return {
      ...common,
      kind: destination.toBytes32 ? 'bridge-to' : 'bridge',
      destinationChainId: destination.chainId,
      recipient: destination.recipient,
    };
  }
  if (!leg.path || leg.path.length < 2)
    throw new Error(`Swap leg ${leg.provider} on ${leg.chain} has no Uniswap V2 path`);
  return {
    ...common,
    kind: 'swap',
    path: leg.path,
    amountOutMin: minOut.toString(),
    unwrapNative: isNative(leg.tokenOut),
    recipient,
  };
}

/**
 * The witness of a bridge-swap: the source leg as a bridge deposit of `spend` to the destination's
 * SwapGatewayRouter, and the destination swap along the swap leg's path for at least its
 * minAmountOut scaled to what the bridge guarantees (`bridged`), to the final recipient.
 */
function bridgeSwapIntentOf(
  bridge: RouteLeg,
  swap: RouteLeg,
  spend: bigint,
  bridged: bigint,
  recipient: string,
  deadline: bigint,
  contracts: PermitContracts,
  context: StepPlanContext,
): SponsoredIntentSpec {
  return {
    kind: 'bridge-swap',
    permit2: contracts.permit2,
    router: contracts.permitRouter,
    token: bridge.tokenIn.address as string,
    amount: spend.toString(),
    ...destinationSwapOf(bridge, swap, bridged, recipient, deadline, context),
  };
}

/**
 * The Solana side of a bridge-swap: the bridge deposit of `spend` to the destination's
 * SwapGatewayRouter, its memo carrying the destination swap (as bridgeSwapIntentOf binds it).
 */
function solanaBridgeSwapStepOf(
  bridge: RouteLeg,
  swap: RouteLeg,
  spend: bigint,
  bridged: bigint,
  recipient: string,
  deadline: bigint,
  context: StepPlanContext,
): SolanaStepSpec {
  if (bridge.tokenIn.address === null)
    throw new Error(`Bridge leg on ${bridge.chain} has no SPL mint for ${bridge.tokenIn.symbol}`);
  const { destinationChainId, destinationRouter, ...message } = destinationSwapOf(
    bridge,
    swap,
    bridged,
    recipient,
    deadline,
    context,
  );
  return {
    kind: 'bridge-deposit',
    mint: bridge.tokenIn.address,
    vault: bridge.spender,
    amount: spend.toString(),
    destinationChainId,
    recipient: destinationRouter,
    message,
  };
}

/**
 * The destination half of a bridge-swap: the destination chain's bridge id and SwapGatewayRouter,
 * and the swap along the swap leg's path for at least its minAmountOut scaled to what the bridge
 * guarantees (`bridged`), to the final recipient, before the deadline.
 */
function destinationSwapOf(
  bridge: RouteLeg,
  swap: RouteLeg,
  bridged: bigint,
  recipient: string,
  deadline: bigint,
  context: StepPlanContext,
): {
  destinationChainId: number;
  destinationRouter: string;
  path: string[];
  amountOutMin: string;
  unwrapNative: boolean;
  recipient: string;
  deadline: number;
} {
  if (!bridge.destinationChain) throw new Error(`Bridge leg on ${bridge.chain} has no destinationChain`);
  const destination = context.permitContractsOf?.(swap.chain);
  if (!destination || !swap.path)
    throw new Error(`Swap leg on ${swap.chain} cannot run through its SwapGatewayRouter`);
  const quotedIn = BigInt(swap.amountIn);
  const amountOutMin = (BigInt(swap.minAmountOut) * min(quotedIn, bridged)) / quotedIn;
  return {
    destinationChainId: bridge.destinationBridgeChainId ?? context.evmChainIdOf(bridge.destinationChain),
    destinationRouter: destination.permitRouter,
    path: swap.path,
    amountOutMin: amountOutMin.toString(),
    unwrapNative: isNative(swap.tokenOut),
    recipient,
    deadline: Number(deadline),
  };
}

/** The Solana side of a leg: the devnet bridge deposit, or an aggregator's prebuilt transaction. */
function solanaStepOf(
  leg: RouteLeg,
  spend: bigint,
  signer: string,
  recipient: string,
  context: StepPlanContext,
): SolanaStepSpec {
  if (leg.kind === 'bridge') {
    if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
    if (leg.tokenIn.address === null)
      throw new Error(`Bridge leg on ${leg.chain} has no SPL mint for ${leg.tokenIn.symbol}`);
    return {
      kind: 'bridge-deposit',
      mint: leg.tokenIn.address,
      vault: leg.spender,
      amount: spend.toString(),
      destinationChainId: leg.destinationBridgeChainId ?? context.evmChainIdOf(leg.destinationChain),
      recipient,
    };
  }
  const prebuilt = leg.solanaTransaction;
  if (!prebuilt) {
    throw new CodedError(
      ErrorCodes.VALIDATION_FAILED,
      `The ${leg.provider} leg on ${leg.chain} carries no transaction: quote again with the signing wallet as recipient`,
      {
        field: 'recipient',
        chain: leg.chain,
      },
    );
  }
  if (prebuilt.signer !== signer) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `The ${leg.provider} transaction on ${leg.chain} was built for ${prebuilt.signer}, not for the signing wallet ${signer}`,
      {
        field: 'userAddress',
        chain: leg.chain,
      },
    );
  }
  return {
    kind: 'prebuilt-transaction',
    serializedTransaction: prebuilt.serializedTransaction,
    lastValidBlockHeight: prebuilt.lastValidBlockHeight,
  };
}

function legCall(
  leg: RouteLeg,
  spend: bigint,
  minOut: bigint,
  recipient: string,
  deadline: bigint,
  context: StepPlanContext,
  permit?: RouterPermit,
): EncodedCall {
  if (leg.call) return leg.call;
  if (leg.kind === 'bridge') {
    const destination = bridgeDestinationOf(leg, recipient, context);
    const encode = destination.toBytes32 ? encodeBridgeDepositTo : encodeBridgeDeposit;
    return encode(leg.spender, spend, destination.chainId, destination.recipient, permit);
  }
  if (!leg.path || leg.path.length < 2) {
    throw new Error(
      `Swap leg ${leg.provider} on ${leg.chain} has neither a prebuilt call nor a Uniswap V2 path`,
    );
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
  });
}

/** A first-leg permit, checked: what the SwapGatewayRouter call carries, plus the token and Permit2. */
export interface FirstLegPermit extends RouterPermit {
  token: string;
  permit2: string;
}

/**
 * The permit of the build request for the first leg, checked against the route, or null for plain
 * approvals (`permitType` absent or `approve` without permit fields). Every refusal is 400
 * VALIDATION_FAILED naming the field. Pure: the builder calls it before reading any chain.
 *
 * - eip2612: the user signed the token's EIP-2612 Permit {owner: userAddress, spender: the chain's
 *   SwapGatewayRouter, value: the leg's amountIn, nonce: the token's nonces(owner), deadline:
 *   floor(permitDeadline / 1000)}.
 * - permit2: the user signed Permit2's PermitTransferFrom {permitted: {token, amount: amountIn},
 *   spender: the SwapGatewayRouter, nonce: permit2.nonce, deadline: floor((permit2.deadline ??
 *   permitDeadline) / 1000)}.
 */
export function firstLegPermitOf(
  plan: RoutePlan,
  request: StepPlanRequest,
  context: Pick<StepPlanContext, 'nowMs' | 'familyOf' | 'permitContractsOf'>,
): FirstLegPermit | null {
  const signatures = [
    request.permitSignature && {
      field: 'permitSignature',
      value: request.permitSignature as Parameters<typeof Signature.from>[0],
    },
    request.permitSignatureCompact && {
      field: 'permitSignatureCompact',
      value: { r: request.permitSignatureCompact.r, yParityAndS: request.permitSignatureCompact.vs },
    },
    request.permit2?.signature && { field: 'permit2.signature', value: request.permit2.signature },
  ].filter((s): s is { field: string; value: Parameters<typeof Signature.from>[0] } => Boolean(s));
  const permitType =
    request.permitType ?? (request.permit2 ? 'permit2' : signatures.length > 0 ? 'eip2612' : 'approve');
  if (permitType === 'approve') return null;
  const leg = plan.legs[0];
  const refuse = (field: string, message: string): never => {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, message, { field, chain: leg.chain });
  };
  if (context.familyOf(leg.chain) !== 'evm')
    refuse('permitType', `Permits are EVM allowances; ${leg.chain} needs none`);
  if (request.permit2 && permitType !== 'permit2') refuse('permit2', 'permit2 goes with permitType permit2');
  const contracts = context.permitContractsOf?.(leg.chain);
  const problem = permitLegProblem(leg, contracts);
  if (problem !== null || !contracts || leg.tokenIn.address === null)
    return refuse('permitType', problem ?? 'The first leg cannot carry a permit');
  const { permitRouter, permit2 } = contracts;
  const token = leg.tokenIn.address;

  if (signatures.length === 0)
    refuse(
      'permitSignature',
      `permitType ${permitType} needs permitSignature or permitSignatureCompact${permitType === 'permit2' ? ' (or permit2.signature)' : ''}`,
    );
  if (signatures.length > 1)
    refuse(
      signatures[1].field,
      `Send one permit signature, not ${signatures.map((s) => s.field).join(' and ')}`,
    );
  let signature: string;
  try {
    signature = Signature.from(signatures[0].value).serialized;
  } catch (error) {
    return refuse(
      signatures[0].field,
      `${signatures[0].field} is not a valid signature: ${(error as Error).message}`,
    );
  }

  let nonce = 0n;
  let deadlineMs = request.permitDeadline;
  let deadlineField = 'permitDeadline';
  if (permitType === 'permit2') {
    if (!request.permit2)
      refuse('permit2.nonce', 'permitType permit2 needs permit2.nonce (the PermitTransferFrom nonce)');
    const payload = request.permit2 as Permit2Payload;
    nonce = BigInt(payload.nonce);
    if (nonce > MaxUint256) refuse('permit2.nonce', 'permit2.nonce does not fit in a uint256');
    if (payload.deadline !== undefined) {
      if (deadlineMs !== undefined && deadlineMs !== payload.deadline)
        refuse('permit2.deadline', 'permit2.deadline and permitDeadline differ; send one');
      deadlineMs = payload.deadline;
      deadlineField = 'permit2.deadline';
    }
  }
  if (deadlineMs === undefined)
    refuse('permitDeadline', `permitType ${permitType} needs permitDeadline (milliseconds since epoch)`);
  if ((deadlineMs as number) <= context.nowMs) refuse(deadlineField, `${deadlineField} is in the past`);
  return {
    kind: permitType,
    router: permitRouter,
    permit2,
    token,
    nonce,
    deadline: BigInt(Math.floor((deadlineMs as number) / 1000)),
    signature,
  };
}

const isNative = (token: TokenRef): boolean => token.address === null;
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * Where a bridge leg pays out: an EVM recipient on the destination's chain id (`deposit`), or, on a
 * Solana destination, the wallet as the 32-byte recipient of `depositTo` and the bridge's id for it.
 */
function bridgeDestinationOf(
  leg: RouteLeg,
  recipient: string,
  context: Pick<StepPlanContext, 'familyOf' | 'evmChainIdOf'>,
): { chainId: number; recipient: string; toBytes32: boolean } {
  if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
  if (context.familyOf(leg.destinationChain) !== 'solana') {
    return {
      chainId: leg.destinationBridgeChainId ?? context.evmChainIdOf(leg.destinationChain),
      recipient,
      toBytes32: false,
    };
  }
  if (leg.destinationBridgeChainId === undefined)
    throw new Error(`Bridge leg to ${leg.destinationChain} has no destinationBridgeChainId`);
  return {
    chainId: leg.destinationBridgeChainId,
    recipient: solanaRecipientBytes32(recipient),
    toBytes32: true,
  };
}
