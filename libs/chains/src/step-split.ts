import type { RouteLeg } from '@swapgw/contracts';
import type { ChainFamily } from './chain-descriptor';
import { ACROSS_PROVIDER } from './families/evm/across-calldata';
import { PermitContracts, permitLegProblem } from './permit-contracts';

/**
 * How a route's legs become the steps a wallet signs, in signing order: the one decision that
 * execution-planner's `planSteps` encodes into calls and quote-service's `signaturesOf` announces
 * ahead of a build. Pure: no chain reads, no calldata.
 */

/** How the wallet signs a step. */
export type StepSigning =
  /** A Solana transaction: a bridge deposit the signer builds, or an aggregator's prebuilt one. */
  | 'solana-transaction'
  /** The wallet's own EVM transaction (its gas covered first on a sponsored swap). */
  | 'evm-transaction'
  /** EIP-712 typed data: the token's EIP-2612 permit granting Permit2 (sponsored approve). */
  | 'eip2612-permit'
  /** EIP-712 typed data: the leg as a Permit2 witness transfer the relayer executes (sponsored). */
  | 'permit2-intent'
  /** A Bitcoin PSBT: the user signs their inputs (sponsored: the service's fee input pays the miner). */
  | 'bitcoin-psbt'
  /** A Cosmos SignDoc (`cosmos-sign-direct`): the wallet's tx, its fee paid by the service's fee granter. */
  | 'cosmos-sign-direct';

/** One wallet-signed step of a route. */
export interface SplitStep {
  legIndex: number;
  kind: 'approve' | RouteLeg['kind'];
  signing: StepSigning;
  /**
   * Approve steps: who gets the allowance, the chain's Permit2 (`permit2`) or the leg's spender
   * (`spender`). Never offered when the wallet's allowance is already there (the step is skipped).
   */
  approves?: 'permit2' | 'spender';
  /** The leg's own step of a bridge-swap: it binds the next leg's swap too, which has no steps. */
  bridgeSwap?: true;
  /**
   * The leg's own step of a bridge into a Cosmos chain whose payout a forwarding account there
   * (Noble's x/forwarding) sends on: the legs after it run on chain from that account (an IBC
   * transfer, a swap on arrival, its output sent home) and have no steps (forwardingLegOf).
   */
  forwards?: true;
}

/** The legs' fields the split reads. */
export type StepSplitLeg = Pick<
  RouteLeg,
  | 'kind'
  | 'chain'
  | 'provider'
  | 'spender'
  | 'tokenIn'
  | 'tokenOut'
  | 'amountIn'
  | 'path'
  | 'poolFees'
  | 'call'
  | 'solanaTransaction'
  | 'destinationChain'
>;

/** What the split knows of chains and tokens (a ChainRegistry's answers). */
export interface StepSplitChains {
  /** undefined for a chain the caller does not know: its legs have no steps. */
  familyOf: (chain: string) => ChainFamily | undefined;
  /** Permit contracts of a chain; undefined where there are none (no permits on that chain). */
  permitContractsOf?: (chain: string) => PermitContracts | undefined;
  /** The EIP-712 domain of a token's EIP-2612 permit on a chain; undefined for tokens without one. */
  tokenPermitOf?: (chain: string, token: string) => { name: string; version: string } | undefined;
}

/** How the build pays gas and, when the user pays, the first leg's permit. */
export interface StepSplitOptions {
  gasPayment: 'sponsored' | 'user';
  /** User-paid: the permit the first leg's router call carries (none: plain approvals). */
  firstLegPermit?: 'eip2612' | 'permit2';
  /**
   * With firstLegPermit permit2: the user's allowance of the first leg's token to Permit2. Short of
   * the leg's amountIn, an approve of Permit2 comes first.
   */
  permit2Allowance?: bigint;
}

/**
 * The steps of a route, in order. Per leg:
 *  - Solana: one transaction (SPL transfers need no allowance);
 *  - Bitcoin: one PSBT (a UTXO spend needs no allowance);
 *  - Cosmos: one SignDoc (bank balances need no allowance); a swap right after an IBC transfer to its
 *    chain runs on arrival from the transfer's memo and asks nothing, as does a leg of the same
 *    provider continuing the previous Cosmos leg where it left off (one transaction: PFM, post-swap actions);
 *  - sponsored, EVM, ERC-20 input through the chain's SwapGatewayRouter (an Across deposit too): an approve of Permit2 (the
 *    token's EIP-2612 permit when it has one, else the wallet's own approve transaction), then the
 *    leg as a Permit2 witness;
 *  - user-paid first leg with a permit: an approve of Permit2 when the permit is Permit2's and the
 *    allowance to it is short, then the router call carrying the permit;
 *  - any other EVM leg: an approve of the leg's spender when the input is an ERC-20, then the leg's
 *    transaction.
 * A sponsored bridge into a swap through both chains' routers (bridgeSwapLegOf) is signed once on
 * the source: the swap leg has no steps. Legs on chains of another or an unknown family have none.
 */
export function splitSteps(
  legs: readonly StepSplitLeg[],
  chains: StepSplitChains,
  options: StepSplitOptions,
): SplitStep[] {
  const sponsored = options.gasPayment === 'sponsored';
  const bridgeSwapAt = sponsored ? bridgeSwapLegOf(legs, chains) : null;
  const forwardingAt = forwardingLegOf(legs, chains);
  const steps: SplitStep[] = [];
  legs.forEach((leg, legIndex) => {
    // The destination swap of a bridge-swap runs from the bridge leg's signature: no steps of its own.
    if (bridgeSwapAt !== null && legIndex === bridgeSwapAt + 1) return;
    // Past a forwarding bridge, the legs run from the forwarding account: no steps either.
    if (forwardingAt !== null && legIndex > forwardingAt) return;
    const own = (signing: StepSigning): SplitStep => ({
      legIndex,
      kind: leg.kind,
      signing,
      ...(legIndex === bridgeSwapAt ? { bridgeSwap: true as const } : {}),
      ...(legIndex === forwardingAt ? { forwards: true as const } : {}),
    });
    const approve = (signing: StepSigning, approves: 'permit2' | 'spender'): SplitStep => ({
      legIndex,
      kind: 'approve',
      signing,
      approves,
    });
    const family = chains.familyOf(leg.chain);
    const token = leg.tokenIn.address;

    if (family === 'solana') {
      steps.push(own('solana-transaction'));
    } else if (family === 'bitcoin') {
      steps.push(own('bitcoin-psbt'));
    } else if (family === 'cosmos') {
      // A swap delivered by the IBC transfer before it runs on arrival (the transfer's memo): no step;
      // the transfer's step binds it, as a bridge-swap's.
      const onArrival = (swap: StepSplitLeg | undefined, transfer: StepSplitLeg | undefined) =>
        swap?.kind === 'swap' &&
        transfer?.kind === 'bridge' &&
        transfer.destinationChain === swap.chain &&
        chains.familyOf(transfer.chain) === 'cosmos' &&
        chains.familyOf(swap.chain) === 'cosmos';
      const previous = legIndex > 0 ? legs[legIndex - 1] : undefined;
      // A leg of the same provider picking up where the previous Cosmos leg left off (a packet
      // forwarded by PFM, a swap's output sent on by its post-swap action: skip-go's one-transaction
      // routes) runs from that leg's transaction too.
      const continued =
        previous !== undefined &&
        previous.provider === leg.provider &&
        (previous.destinationChain ?? previous.chain) === leg.chain &&
        chains.familyOf(previous.chain) === 'cosmos';
      if (onArrival(leg, previous) || continued) return;
      const step = own('cosmos-sign-direct');
      steps.push(onArrival(legs[legIndex + 1], leg) ? { ...step, bridgeSwap: true } : step);
    } else if (family !== 'evm') {
      return;
    } else if (sponsored) {
      const contracts = chains.permitContractsOf?.(leg.chain);
      if (contracts && token !== null && permitLegProblem(leg, contracts, { sponsored }) === null) {
        const hasPermit = chains.tokenPermitOf?.(leg.chain, token) !== undefined;
        steps.push(approve(hasPermit ? 'eip2612-permit' : 'evm-transaction', 'permit2'));
        steps.push(own('permit2-intent'));
      } else {
        if (token !== null) steps.push(approve('evm-transaction', 'spender'));
        steps.push(own('evm-transaction'));
      }
    } else {
      const permit = legIndex === 0 ? options.firstLegPermit : undefined;
      if (permit === 'permit2' && (options.permit2Allowance ?? 0n) < BigInt(leg.amountIn)) {
        steps.push(approve('evm-transaction', 'permit2'));
      } else if (token !== null && !permit) {
        steps.push(approve('evm-transaction', 'spender'));
      }
      steps.push(own('evm-transaction'));
    }
  });
  return steps;
}

/**
 * The index of the bridge leg whose payout a forwarding account sends on, or null: a bridge from a
 * chain of another family into a Cosmos chain, followed by a Cosmos leg leaving that chain (an IBC
 * transfer from Noble). Its deposit can name only a 32-byte account, so it names Noble's forwarding
 * account for the rest of the route, which runs from there with no signature (docs/chains.md,
 * "Multi-leg routes").
 */
export function forwardingLegOf(
  legs: readonly StepSplitLeg[],
  chains: Pick<StepSplitChains, 'familyOf'>,
): number | null {
  const at = legs.findIndex(
    (leg, index) =>
      leg.kind === 'bridge' &&
      leg.destinationChain !== undefined &&
      chains.familyOf(leg.chain) !== 'cosmos' &&
      chains.familyOf(leg.destinationChain) === 'cosmos' &&
      legs[index + 1]?.kind === 'bridge' &&
      legs[index + 1]?.chain === leg.destinationChain,
  );
  return at < 0 ? null : at;
}

/**
 * The index of the bridge leg whose destination swap can run from the source chain's signature, or
 * null: the route's last two legs are a bridge and a swap on the EVM chain it delivers to through
 * that chain's SwapGatewayRouter (its permit contracts, and the Uniswap router it calls), and the
 * swap starts with the bridged token. The bridge leaves either an EVM chain through that chain's
 * SwapGatewayRouter (permit contracts there, the bridge or SpokePool it calls), or Solana as the
 * devnet bridge deposit (an SPL token into the vault, not a prebuilt transaction), whose memo
 * carries the swap. The devnet bridge's message carries a Uniswap V2 swap (an address[] path),
 * Across's a Uniswap V3 one (its handleV3AcrossMessage swaps through SwapRouter02).
 */
export function bridgeSwapLegOf(
  legs: readonly StepSplitLeg[],
  chains: Pick<StepSplitChains, 'familyOf' | 'permitContractsOf'>,
): number | null {
  const at = legs.length - 2;
  if (at < 0) return null;
  const [bridge, swap] = [legs[at], legs[at + 1]];
  if (bridge.kind !== 'bridge' || swap.kind !== 'swap' || bridge.destinationChain !== swap.chain) return null;
  if (chains.familyOf(swap.chain) !== 'evm') return null;
  const destination = chains.permitContractsOf?.(swap.chain);
  // BridgeSwapMessage carries a V2 path (address[]), AcrossSwapMessage a V3 one (bytes).
  const v3 = bridge.provider === ACROSS_PROVIDER;
  if (!destination || Boolean(swap.poolFees) !== v3 || permitLegProblem(swap, destination) !== null)
    return null;
  const sourceFamily = chains.familyOf(bridge.chain);
  if (sourceFamily === 'solana') {
    if (bridge.tokenIn.address === null || bridge.solanaTransaction || bridge.call) return null;
  } else {
    const source = chains.permitContractsOf?.(bridge.chain);
    if (sourceFamily !== 'evm' || !source || permitLegProblem(bridge, source, { sponsored: true }) !== null)
      return null;
  }
  const bridged = bridge.tokenOut.address?.toLowerCase();
  if (bridged === undefined) return null;
  const startsWithBridged = swap.tokenIn.address?.toLowerCase() === bridged;
  return startsWithBridged && swap.path?.[0]?.toLowerCase() === bridged ? at : null;
}
