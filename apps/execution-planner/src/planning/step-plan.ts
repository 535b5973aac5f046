import { splitSteps } from '@swapgw/chains';
import {
  IntegratorFeeTransfer,
  LegStepSpec,
  legStepSpecOf,
  StepSpecChains,
  stepSpecFamilyOf,
} from '@swapgw/chains/families';
import { RoutePlan } from '@swapgw/contracts';
import { balanceKey } from './bridged-balances';
import { firstLegPermitOf, FirstLegPermitContext } from './first-leg-permit';
import { gasPaymentOf, StepPlanRequest } from './step-plan-request';
import { walletsOf } from './swap-wallets';

/**
 * What planning reads besides the request: the chains (families, EVM chain ids, permit contracts and
 * token permits, as the step builders and the permit check read them), the build time, and the
 * balances and allowance read before planning.
 */
export interface StepPlanContext extends StepSpecChains, FirstLegPermitContext {
  /** How long the swap calls stay executable (router `deadline`), from build time. */
  swapDeadlineSeconds: number;
  /**
   * The user's balance of each bridged-to token before the swap, keyed by `balanceKey`: a
   * destination step waits until the balance grew by what the bridge guarantees.
   */
  balancesBefore: ReadonlyMap<string, bigint>;
  /**
   * With permitType permit2: the user's ERC-20 allowance of the first leg's token to Permit2, read
   * at build time. Short of the amount, the plan puts an approve of Permit2 first.
   */
  permit2Allowance?: bigint;
  /**
   * The integrator fees the first leg pays (integratorFeeTransfersOf, which checked it can): its
   * transaction pulls its spend plus these and pays each recipient before it swaps.
   */
  integratorFees?: IntegratorFeeTransfer[];
}

/** A step as the swap records it: the family's step spec, placed in the route and signed by a wallet. */
export interface PlannedStep extends LegStepSpec {
  /** 1-based, the `step.current` a client sees. */
  index: number;
  legIndex: number;
  chain: string;
  /** The wallet that signs this step (the payload's `from` / fee payer). */
  signer: string;
  waitFor?: { token: string | null; holder: string; minBalance: string };
}

/**
 * Expands a route plan into the signing steps the user goes through, in order: the legs split as
 * @swapgw/chains' `splitSteps` decides (quote-service announces the same split to wallets), each
 * step written out by the family of its chain (@swapgw/chains/families' `legStepSpecOf`: an EVM
 * call or typed data, a Solana transaction spec). For each leg, an `approve` step when the leg
 * pulls an ERC-20, then the leg's own step. With a permit (see firstLegPermitOf) the first leg is
 * the SwapGatewayRouter's call carrying it, with no approve (Permit2: one approve of Permit2 first
 * when the user's allowance to it is short).
 *
 * Between legs the user's wallet holds the funds (each step is the user's own transaction), so a
 * leg that follows another spends what the previous leg guarantees (its minAmountOut), never more:
 * a short fill within slippage cannot make the next step revert, and any surplus stays with the
 * user. Its minAmountOut is scaled by the same ratio. A step after a bridge waits until the wallet
 * on the destination holds what the bridge guarantees on top of its balance before the swap.
 *
 * Integrator fees (context.integratorFees) ride on the first leg, an EVM swap: its approve (of the
 * SwapGatewayRouter, or of Permit2) and permit cover the leg's amountIn plus the fees, and its
 * transaction (the router's swapWithFees / swapV3WithFees, or the sponsored swap intent, which
 * binds the fees) pays each recipient before it swaps the leg's amountIn.
 *
 * Sponsored swaps (gasPaymentOf): an ERC-20 leg through the chain's SwapGatewayRouter becomes an
 * `approve` step granting Permit2 the token (the user signs the token's EIP-2612 permit, or, for a
 * token without one, sends the approve with gas the service sent first; skipped when the allowance
 * is there) and the leg's step, a Permit2 witness signature the relayer executes. Every other step
 * stays the user's transaction with its gas covered first (covered-transaction; on Solana the
 * service's fee payer pays).
 *
 * A sponsored route that ends with a bridge into a swap through the destination's
 * SwapGatewayRouter (@swapgw/chains' bridgeSwapLegOf) signs once on the source: the bridge leg's
 * step binds the destination swap too (an EVM `bridge-swap` intent, or a Solana bridge deposit whose
 * memo carries the swap), and the swap leg has no steps. Its minimum out is the swap leg's, scaled
 * to what the bridge guarantees, as above.
 *
 * A bridge into a Cosmos chain followed by Cosmos legs (@swapgw/chains' forwardingLegOf: USDC to
 * Noble, then IBC into a swap on Osmosis) pays Noble's forwarding account for the rest of the route
 * (`nobleForwarding` on its step, registered by signer-surface before the step is issued): the legs
 * after it have no steps, and nothing waits for a balance.
 */
export function planSteps(
  plan: RoutePlan,
  request: StepPlanRequest,
  context: StepPlanContext,
): PlannedStep[] {
  // The chain as its descriptor tells it (a Cosmos chain's prefix spells the wallet there).
  const wallets = walletsOf(plan, request, context.familyOf, (chain) => ({
    ...context.descriptorOf?.(chain),
    id: chain,
    family: context.familyOf(chain),
  }));
  const sponsored = gasPaymentOf(request) === 'sponsored';
  const permit = firstLegPermitOf(plan, request, context);
  const deadline = BigInt(Math.floor(context.nowMs / 1000) + context.swapDeadlineSeconds);
  const integratorFees = context.integratorFees ?? [];
  const feeTotal = integratorFees.reduce((sum, fee) => sum + fee.amount, 0n);
  const split = splitSteps(plan.legs, context, {
    gasPayment: sponsored ? 'sponsored' : 'user',
    firstLegPermit: permit?.kind,
    // The first leg pulls its amountIn plus the fees: what is left of the allowance after the fees
    // must cover the leg.
    permit2Allowance:
      context.permit2Allowance === undefined ? undefined : context.permit2Allowance - feeTotal,
  });
  const steps: PlannedStep[] = [];
  let guaranteedFromPrevious: bigint | null = null;
  let waitFor: PlannedStep['waitFor'];

  plan.legs.forEach((leg, legIndex) => {
    const legSteps = split.filter((step) => step.legIndex === legIndex);
    // The destination swap of a bridge-swap runs from the bridge leg's signature: no steps of its own;
    // nor do the legs a forwarding account runs after a forwarding bridge.
    if (legSteps.length === 0) {
      if (split.some((step) => step.legIndex < legIndex && step.forwards)) return;
      const afterBridgeSwap = split.some((step) => step.legIndex === legIndex - 1 && step.bridgeSwap);
      // A leg the split gives no step of runs on chain from an earlier step's transaction where its
      // family says so (Cosmos: a swap on arrival, the swap's output sent on by the contract): what
      // it guarantees still flows to the legs after it, and a later step waits for what it delivers.
      const onChain = legIndex > 0 && stepSpecFamilyOf(context.familyOf(leg.chain)).runsSteplessLegs === true;
      if (!afterBridgeSwap && !onChain)
        throw new Error(`Leg ${legIndex} of route ${plan.routeId} is on ${leg.chain}, a chain without swaps`);
      if (!onChain) return;
    }
    const quotedIn = BigInt(leg.amountIn);
    // A prebuilt transaction (aggregator call or Solana transaction) spends what it was built for.
    const prebuilt = Boolean(leg.call || leg.solanaTransaction);
    const spend =
      guaranteedFromPrevious === null || prebuilt ? quotedIn : min(quotedIn, guaranteedFromPrevious);
    const minOut = (BigInt(leg.minAmountOut) * spend) / quotedIn;
    const isLast = legIndex === plan.legs.length - 1;
    const signer = wallets.walletOn(leg.chain);
    const legInput = {
      leg,
      next: plan.legs[legIndex + 1],
      following: plan.legs.slice(legIndex + 1),
      spend,
      minOut,
      signer,
      ...(wallets.publicKeyOn(leg.chain) !== undefined
        ? { signerPublicKey: wallets.publicKeyOn(leg.chain) }
        : {}),
      recipient: isLast ? wallets.finalRecipient : wallets.walletOn(leg.tokenOut.chain),
      finalRecipient: wallets.finalRecipient,
      deadline,
      permit: legIndex === 0 && permit ? permit : undefined,
      ...(legIndex === 0 && integratorFees.length > 0 ? { integratorFees } : {}),
      sponsored,
    };

    for (const step of legSteps) {
      steps.push({
        index: steps.length + 1,
        legIndex,
        chain: leg.chain,
        signer,
        ...legStepSpecOf({ ...legInput, step }, context),
        ...(waitFor ? { waitFor } : {}),
      });
    }

    guaranteedFromPrevious = minOut;
    // After a bridge-swap or a forwarding bridge nothing waits: no later step spends what it delivers.
    const bridgeSwap = legSteps.some((step) => step.bridgeSwap || step.forwards);
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

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
