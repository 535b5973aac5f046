import { CodedError, ErrorCodes, PermitType, SigningStepKind, SolanaStepSpec } from '@swapgw/contracts';
import { ChainFamily, validateAddressForFamily } from '@swapgw/chains';
import {
  EncodedCall,
  encodeApprove,
  encodeBridgeDeposit,
  encodeBridgeDepositTo,
  encodePermit,
  encodeUniswapV2Swap,
  expandCompactSignature,
  solanaRecipientBytes32,
} from './calldata';
import { RouteLeg, RoutePlan, TokenRef } from '@swapgw/contracts';

/** The part of a swap.build request that shapes the steps. */
export interface StepPlanRequest {
  userAddress: string;
  recipient?: string;
  permitType?: PermitType;
  permitDeadline?: number;
  permitSignature?: { v: number; r: string; s: string };
  permitSignatureCompact?: { r: string; vs: string };
  permit2?: Record<string, unknown>;
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
export function walletsOf(plan: RoutePlan, request: Pick<StepPlanRequest, 'userAddress' | 'recipient'>, familyOf: (chain: string) => ChainFamily): SwapWallets {
  if (plan.legs.length === 0) throw new Error(`Route ${plan.routeId} of quote ${plan.quoteId} has no legs`);
  const sourceChain = plan.legs[0].chain;
  const sourceFamily = familyOf(sourceChain);
  const destinationFamily = familyOf(plan.toChain);
  assertAddress('userAddress', request.userAddress, sourceChain, sourceFamily);
  const finalRecipient = request.recipient ?? plan.recipient ?? (sourceFamily === destinationFamily ? request.userAddress : undefined);
  if (finalRecipient === undefined) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `This route goes from ${sourceChain} (${sourceFamily}) to ${plan.toChain} (${destinationFamily}): a recipient on ${plan.toChain} is required`,
      { field: 'recipient', chain: plan.toChain, family: destinationFamily },
    );
  }
  assertAddress(request.recipient !== undefined ? 'recipient' : 'quote.recipient', finalRecipient, plan.toChain, destinationFamily);
  return {
    userAddress: request.userAddress,
    finalRecipient,
    walletOn: (chain) => (familyOf(chain) === sourceFamily ? request.userAddress : finalRecipient),
  };
}

function assertAddress(field: string, address: string, chain: string, family: ChainFamily): void {
  const result = validateAddressForFamily(family, address);
  if (!result.ok) {
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `${field} ${address} is not a ${family} address, as ${chain} needs: ${result.reason}`, {
      field,
      chain,
      family,
    });
  }
}

export const balanceKey = (chain: string, token: string | null): string => `${chain}:${(token ?? 'native').toLowerCase()}`;

/**
 * Balances the plan needs before it can be expanded: the tokens that bridge legs deliver, held by
 * the wallet of the destination chain (`holderOn`, see SwapWallets.walletOn).
 */
export function balancesToRead(plan: RoutePlan, holderOn: (chain: string) => string): { chain: string; token: string | null; holder: string }[] {
  return plan.legs
    .filter((leg, i) => leg.kind === 'bridge' && i < plan.legs.length - 1)
    .map((leg) => ({ chain: leg.tokenOut.chain, token: leg.tokenOut.address, holder: holderOn(leg.tokenOut.chain) }));
}

/**
 * Expands a route plan into the signing steps the user goes through, in order: for each leg, an
 * allowance step when the leg pulls an ERC-20 (an `approve`, or for the first leg an EIP-2612
 * `permit` call carrying the user's signature), then the leg's own call.
 *
 * Between legs the user's wallet holds the funds (each step is the user's own transaction), so a
 * leg that follows another spends what the previous leg guarantees (its minAmountOut), never more:
 * a short fill within slippage cannot make the next step revert, and any surplus stays with the
 * user. Its minAmountOut is scaled by the same ratio.
 */
export function planSteps(plan: RoutePlan, request: StepPlanRequest, context: StepPlanContext): PlannedStep[] {
  const wallets = walletsOf(plan, request, context.familyOf);
  const permit = permitOf(request, plan.legs[0], context.nowMs, context.familyOf(plan.legs[0].chain));
  const deadline = BigInt(Math.floor(context.nowMs / 1000) + context.swapDeadlineSeconds);
  const steps: PlannedStep[] = [];
  let guaranteedFromPrevious: bigint | null = null;
  let waitFor: PlannedStep['waitFor'];

  plan.legs.forEach((leg, legIndex) => {
    const quotedIn = BigInt(leg.amountIn);
    // A prebuilt transaction (aggregator call or Solana transaction) spends what it was built for.
    const prebuilt = Boolean(leg.call || leg.solanaTransaction);
    const spend = guaranteedFromPrevious === null || prebuilt ? quotedIn : min(quotedIn, guaranteedFromPrevious);
    const minOut = (BigInt(leg.minAmountOut) * spend) / quotedIn;
    const isLast = legIndex === plan.legs.length - 1;
    const signer = wallets.walletOn(leg.chain);
    const legRecipient = isLast ? wallets.finalRecipient : wallets.walletOn(leg.tokenOut.chain);
    const add = (step: Omit<PlannedStep, 'index' | 'legIndex' | 'chain' | 'signer' | 'waitFor'>) =>
      steps.push({ index: steps.length + 1, legIndex, chain: leg.chain, signer, ...step, ...(waitFor ? { waitFor } : {}) });

    if (context.familyOf(leg.chain) === 'solana') {
      // SPL transfers need no allowance: the user's own signature authorizes the transfer.
      add({ kind: leg.kind, call: null, solana: solanaStepOf(leg, spend, signer, legRecipient, context) });
    } else {
      if (leg.tokenIn.address !== null) {
        const approve = { token: leg.tokenIn.address, spender: leg.spender, amount: spend.toString() };
        const call =
          legIndex === 0 && permit
            ? encodePermit({ token: approve.token, owner: signer, spender: leg.spender, value: spend, ...permit })
            : encodeApprove(approve.token, approve.spender, spend);
        add({ kind: 'approve', call, approve });
      }
      add({ kind: leg.kind, call: legCall(leg, spend, minOut, legRecipient, deadline, context) });
    }

    guaranteedFromPrevious = minOut;
    if (leg.kind === 'bridge' && !isLast) {
      const before = context.balancesBefore.get(balanceKey(leg.tokenOut.chain, leg.tokenOut.address));
      if (before === undefined) throw new Error(`Balance of ${leg.tokenOut.symbol} on ${leg.tokenOut.chain} was not read`);
      waitFor = { token: leg.tokenOut.address, holder: wallets.walletOn(leg.tokenOut.chain), minBalance: (before + minOut).toString() };
    }
  });
  return steps;
}

/** The Solana side of a leg: the devnet bridge deposit, or an aggregator's prebuilt transaction. */
function solanaStepOf(leg: RouteLeg, spend: bigint, signer: string, recipient: string, context: StepPlanContext): SolanaStepSpec {
  if (leg.kind === 'bridge') {
    if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
    if (leg.tokenIn.address === null) throw new Error(`Bridge leg on ${leg.chain} has no SPL mint for ${leg.tokenIn.symbol}`);
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
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, `The ${leg.provider} leg on ${leg.chain} carries no transaction: quote again with the signing wallet as recipient`, {
      field: 'recipient',
      chain: leg.chain,
    });
  }
  if (prebuilt.signer !== signer) {
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `The ${leg.provider} transaction on ${leg.chain} was built for ${prebuilt.signer}, not for the signing wallet ${signer}`, {
      field: 'userAddress',
      chain: leg.chain,
    });
  }
  return { kind: 'prebuilt-transaction', serializedTransaction: prebuilt.serializedTransaction, lastValidBlockHeight: prebuilt.lastValidBlockHeight };
}

function legCall(leg: RouteLeg, spend: bigint, minOut: bigint, recipient: string, deadline: bigint, context: StepPlanContext): EncodedCall {
  if (leg.call) return leg.call;
  if (leg.kind === 'bridge') {
    if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
    if (context.familyOf(leg.destinationChain) === 'solana') {
      if (leg.destinationBridgeChainId === undefined) throw new Error(`Bridge leg to ${leg.destinationChain} has no destinationBridgeChainId`);
      return encodeBridgeDepositTo(leg.spender, spend, leg.destinationBridgeChainId, solanaRecipientBytes32(recipient));
    }
    return encodeBridgeDeposit(leg.spender, spend, leg.destinationBridgeChainId ?? context.evmChainIdOf(leg.destinationChain), recipient);
  }
  if (!leg.path || leg.path.length < 2) {
    throw new Error(`Swap leg ${leg.provider} on ${leg.chain} has neither a prebuilt call nor a Uniswap V2 path`);
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
  });
}

/**
 * The EIP-2612 permit to use instead of the first leg's approve, or null for a plain approve.
 * Uniswap V2 Router02 has no swap-with-permit entry point, so the permit is applied by the user's
 * own `permit()` transaction as the allowance step (same position and kind as the approve).
 */
function permitOf(
  request: StepPlanRequest,
  firstLeg: RouteLeg,
  nowMs: number,
  firstFamily: ChainFamily,
): { deadline: bigint; signature: { v: number; r: string; s: string } } | null {
  const signature = request.permitSignature ?? (request.permitSignatureCompact ? expandedOrRejected(request.permitSignatureCompact) : null);
  const permitType = request.permitType ?? (signature ? 'eip2612' : 'approve');
  if (permitType === 'approve') return null;
  if (firstFamily !== 'evm') {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, `Permits are EVM allowances; ${firstLeg.chain} needs none`, { field: 'permitType' });
  }
  if (permitType === 'permit2') {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, 'permitType permit2 is not supported: no Permit2-aware spender exists on these routes; use eip2612 or approve', {
      field: 'permitType',
    });
  }
  if (firstLeg.tokenIn.address === null) {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, `The input token ${firstLeg.tokenIn.symbol} is native: it needs no permit`, { field: 'permitType' });
  }
  if (!signature) {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, 'permitType eip2612 needs permitSignature or permitSignatureCompact', { field: 'permitSignature' });
  }
  if (request.permitDeadline === undefined) {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, 'permitType eip2612 needs permitDeadline (milliseconds since epoch)', { field: 'permitDeadline' });
  }
  if (request.permitDeadline <= nowMs) {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, 'permitDeadline is in the past', { field: 'permitDeadline' });
  }
  return { deadline: BigInt(Math.floor(request.permitDeadline / 1000)), signature };
}

function expandedOrRejected(compact: { r: string; vs: string }): { v: number; r: string; s: string } {
  try {
    return expandCompactSignature(compact);
  } catch (error) {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, `permitSignatureCompact is not a valid signature: ${(error as Error).message}`, {
      field: 'permitSignatureCompact',
    });
  }
}

const isNative = (token: TokenRef): boolean => token.address === null;
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
