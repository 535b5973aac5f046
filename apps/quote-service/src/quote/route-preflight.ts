import { Logger } from '@nestjs/common';
import { baseUnitsToAmount, ChainFamily, ChainRegistry, SPONSORED_EVM_GAS } from '@swapgw/chains';
import {
  allowanceStateOverride,
  ChainFamilies,
  EvmSimulation,
  IntegratorFeeTransfer,
  LegStepSpec,
  legStepSpecOf,
  readAllowanceWithOverride,
  SimulatedEvmCall,
  simulateEvmCall,
  StepSpecChains,
} from '@swapgw/chains/families';
import type { RouteIssue, RouteLeg, RoutePermitInfo } from '@swapgw/contracts';
import { Clock, withTimeout } from '@swapgw/runtime';

/** How the preflight reads the chains (the family clients; a fake in unit tests). Reads may throw. */
export interface PreflightChainReads {
  familyOf(chain: string): ChainFamily | undefined;
  /** The chain's native coin. */
  nativeOf(chain: string): { symbol: string; decimals: number };
  /** EVM: the node's gas price (wei per gas). */
  feePerGas(chain: string): Promise<bigint>;
  balance(chain: string, holder: string, token: string | null): Promise<bigint>;
  /** null on a family without allowances. */
  allowance(chain: string, token: string, owner: string, spender: string): Promise<bigint | null>;
  /** `eth_call` of `call`; with `allowance`, the owner's allowance overridden to that amount first. */
  simulate(
    chain: string,
    call: SimulatedEvmCall,
    allowance?: { token: string; spender: string; amount: bigint },
  ): Promise<EvmSimulation>;
  /** The first leg's own transaction as the wallet sends it (user-paid build with an approval). */
  firstLegCall(legs: RouteLeg[], signer: string, recipient: string): SimulatedEvmCall;
  /**
   * Solana: the first leg's transaction as the signer builds it for `signer` (the bridge deposit
   * with the route's integrator fees, or the aggregator's prebuilt transaction), the wallet paying
   * its fees, run with `simulateTransaction`: `reverted` with the program error and last logs.
   */
  simulateSolanaFirstLeg(
    legs: RouteLeg[],
    signer: string,
    recipient: string,
    integratorFees: IntegratorFeeTransfer[],
  ): Promise<EvmSimulation>;
}

/** A route as the preflight sees it: its legs, and its permit when the first leg can take one. */
export interface PreflightRoute {
  legs: RouteLeg[];
  permit?: RoutePermitInfo;
  /**
   * The integrator fees the first transaction pays out of the input on top of the first leg's
   * amountIn (base units of the input token), whoever collects them (the gateway's router or the
   * aggregator's own transaction): the wallet must hold and allow both, and the Solana simulation
   * runs the transaction with them.
   */
  integratorFees?: IntegratorFeeTransfer[];
}

export interface PreflightRequest {
  userAddress: string;
  /** The quote's recipient, if it named one (of toChain's family). */
  recipient?: string;
  toChain: string;
  /**
   * A user-paid build (gasPayment user): the wallet sends and pays for its transactions, so the
   * EVM checks count their gas in the native balance and the allowance is the leg's spender's.
   */
  userPaysGas?: boolean;
}

/**
 * Gas of the wallet's own first-leg transactions on a user-paid EVM build, an upper estimate (the
 * gas coverage table): the approve when it spends an ERC-20, then the leg (Uniswap V3 costs more).
 */
export function userGasUnitsOf(leg: RouteLeg): bigint {
  const approve = leg.tokenIn.address === null ? 0n : SPONSORED_EVM_GAS.userApprove;
  return approve + (leg.poolFees ? SPONSORED_EVM_GAS.swapV3Intent : SPONSORED_EVM_GAS.swapIntent);
}

/** The longest the preflight adds to a quote: a read still running then gives *_UNAVAILABLE. */
export const PREFLIGHT_TIMEOUT_MS = 2_000;

type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * The checks of each route's first leg against the wallet that will sign (POST /quote with
 * `userAddress`): its balance of the input, its allowance (EVM ERC-20), and an `eth_call` of the
 * leg's transaction (EVM). Every read of every route runs at once, each bounded by `timeoutMs`; reads
 * shared by routes (the same token's balance) are made once. It never fails a quote: a read that
 * fails or is too slow becomes a CHECK_UNAVAILABLE or SIMULATION_UNAVAILABLE issue.
 */
export class RoutePreflight {
  private readonly logger = new Logger(RoutePreflight.name);

  constructor(
    private readonly reads: PreflightChainReads,
    private readonly timeoutMs = PREFLIGHT_TIMEOUT_MS,
  ) {}

  async issuesOf(request: PreflightRequest, routes: PreflightRoute[]): Promise<RouteIssue[][]> {
    const shared = new Map<string, Promise<Outcome<bigint | null>>>();
    const once = (key: string, read: () => Promise<bigint | null>) => {
      let found = shared.get(key);
      if (!found) {
        found = this.bounded(read);
        shared.set(key, found);
      }
      return found;
    };
    return Promise.all(routes.map((route) => this.routeIssues(request, route, once)));
  }

  private async routeIssues(
    request: PreflightRequest,
    route: PreflightRoute,
    once: (key: string, read: () => Promise<bigint | null>) => Promise<Outcome<bigint | null>>,
  ): Promise<RouteIssue[]> {
    const leg = route.legs[0];
    if (!leg) return [];
    const user = request.userAddress;
    const family = this.reads.familyOf(leg.chain);
    const token = leg.tokenIn.address;
    // The first transaction spends the leg's amountIn and pays the fees beside it (RouteLeg amountIn).
    const fees = (route.integratorFees ?? []).reduce((sum, fee) => sum + fee.amount, 0n);
    const needed = BigInt(leg.amountIn) + fees;
    const balance = once(`balance:${leg.chain}:${token ?? 'native'}`, () =>
      this.reads.balance(leg.chain, user, token),
    );
    // A sponsored build moves the input through Permit2 when the route has a permit; a user-paid one
    // approves the leg's spender.
    const spender = route.permit && !request.userPaysGas ? route.permit.permit2 : leg.spender;
    const userGas = request.userPaysGas && family === 'evm';
    const gasFee = userGas
      ? once(`gas:${leg.chain}`, async () => userGasUnitsOf(leg) * (await this.reads.feePerGas(leg.chain)))
      : undefined;
    const nativeBalance =
      userGas && token !== null
        ? once(`balance:${leg.chain}:native`, () => this.reads.balance(leg.chain, user, null))
        : undefined;
    const allowance =
      family === 'evm' && token !== null
        ? once(`allowance:${leg.chain}:${token}:${spender}`, () =>
            this.reads.allowance(leg.chain, token, user, spender),
          )
        : undefined;
    const simulation =
      family === 'evm'
        ? this.simulateFirstLeg(request, route.legs, needed)
        : family === 'solana'
          ? this.simulateSolanaFirstLeg(request, route)
          : undefined;

    const issues: RouteIssue[] = [];
    const held = await balance;
    const fee = gasFee ? await gasFee : undefined;
    if (fee && !fee.ok) issues.push(checkUnavailable(leg, 'balance', `gas price: ${fee.reason}`));
    const gas = fee?.ok ? (fee.value ?? 0n) : 0n;
    if (!held.ok) issues.push(checkUnavailable(leg, 'balance', held.reason));
    else {
      // A native input pays its gas from the same balance.
      const issue = balanceIssue(leg, user, held.value ?? 0n, token === null ? gas : 0n, fees);
      if (issue) issues.push(issue);
    }
    if (nativeBalance && gas > 0n) {
      const native = await nativeBalance;
      if (!native.ok) issues.push(checkUnavailable(leg, 'balance', native.reason));
      else {
        const issue = gasBalanceIssue(leg, user, this.reads.nativeOf(leg.chain), native.value ?? 0n, gas);
        if (issue) issues.push(issue);
      }
    }
    if (allowance) {
      const granted = await allowance;
      if (!granted.ok) issues.push(checkUnavailable(leg, 'allowance', granted.reason));
      else if (granted.value !== null) {
        const issue = allowanceIssue(leg, spender, granted.value, route.permit?.eip2612 !== undefined, fees);
        if (issue) issues.push(issue);
      }
    }
    if (simulation) {
      const simulated = await simulation;
      // With too little of the input, the simulation can only fail for that: the balance issue says it.
      const enough = held.ok && (held.value ?? 0n) >= needed;
      if (enough || !held.ok) {
        const issue = simulationIssue(leg, simulated);
        if (issue) issues.push(issue);
      }
    }
    return issues;
  }

  /**
   * `eth_call` of the first leg's own transaction from the wallet, with its allowance to the leg's
   * spender overridden to the amount (the approval the build asks first), as a user-paid build with
   * `permitType: approve` sends it. A sponsored build sends the same swap through the permit router.
   * `spent`: what the transaction takes of the input (the leg's amountIn and the integrator fees).
   */
  private async simulateFirstLeg(
    request: PreflightRequest,
    legs: RouteLeg[],
    spent: bigint,
  ): Promise<EvmSimulation> {
    const leg = legs[0];
    const recipient = firstLegRecipient(legs, request, (chain) => this.reads.familyOf(chain));
    if (!recipient) {
      return {
        kind: 'unavailable',
        reason: `no wallet on ${legDestination(leg)} to pay the first leg to: quote with a recipient`,
      };
    }
    let call: SimulatedEvmCall;
    try {
      call = this.reads.firstLegCall(legs, request.userAddress, recipient);
    } catch (error) {
      return { kind: 'unavailable', reason: (error as Error).message };
    }
    const token = leg.tokenIn.address;
    const allowance = token === null ? undefined : { token, spender: leg.spender, amount: spent };
    const outcome = await this.bounded(() => this.reads.simulate(leg.chain, call, allowance));
    return outcome.ok ? outcome.value : { kind: 'unavailable', reason: outcome.reason };
  }

  /**
   * `simulateTransaction` of the first leg's Solana transaction, built for the wallet as a
   * user-paid build builds it (it pays the fees). A wallet without SOL cannot pay them: on a
   * sponsored quote, whose fees the service's fee payer pays, that says nothing about the route,
   * so it is SIMULATION_UNAVAILABLE rather than a failure.
   */
  private async simulateSolanaFirstLeg(
    request: PreflightRequest,
    route: PreflightRoute,
  ): Promise<EvmSimulation> {
    const leg = route.legs[0];
    const recipient = firstLegRecipient(route.legs, request, (chain) => this.reads.familyOf(chain));
    if (!recipient) {
      return {
        kind: 'unavailable',
        reason: `no wallet on ${legDestination(leg)} to pay the first leg to: quote with a recipient`,
      };
    }
    const outcome = await this.bounded(() =>
      this.reads.simulateSolanaFirstLeg(
        route.legs,
        request.userAddress,
        recipient,
        route.integratorFees ?? [],
      ),
    );
    if (!outcome.ok) return { kind: 'unavailable', reason: outcome.reason };
    const simulated = outcome.value;
    if (
      simulated.kind === 'reverted' &&
      !request.userPaysGas &&
      SOLANA_FEE_PAYER_UNFUNDED.test(simulated.reason)
    ) {
      return {
        kind: 'unavailable',
        reason: `the wallet cannot pay the simulated transaction's fee (${simulated.reason}); a sponsored build's fee payer pays it`,
      };
    }
    return simulated;
  }

  private async bounded<T>(read: () => Promise<T>): Promise<Outcome<T>> {
    try {
      return {
        ok: true,
        value: await withTimeout(read(), this.timeoutMs, `no answer within ${this.timeoutMs} ms`),
      };
    } catch (error) {
      const reason = (error as Error)?.message ?? String(error);
      this.logger.warn({ msg: 'preflight read failed', reason });
      return { ok: false, reason };
    }
  }
}

/** Solana's errors for a fee payer that cannot pay the fee (no account, too few lamports). */
const SOLANA_FEE_PAYER_UNFUNDED = /"AccountNotFound"|InsufficientFundsForFee/;

/** The chain a leg pays out on: a bridge's destination, else its own chain. */
function legDestination(leg: RouteLeg): string {
  return leg.kind === 'bridge' && leg.destinationChain ? leg.destinationChain : leg.chain;
}

/**
 * Who receives the first leg's output, as the planner pays it: on the last leg the quote's recipient
 * (else the wallet itself); before it the wallet, on the next chain, when it is of the wallet's family,
 * else the recipient when that chain is the destination. Undefined when no wallet is known there.
 */
export function firstLegRecipient(
  legs: RouteLeg[],
  request: PreflightRequest,
  familyOf: (chain: string) => ChainFamily | undefined,
): string | undefined {
  const leg = legs[0];
  const paidOn = legDestination(leg);
  const sameFamily = familyOf(paidOn) === familyOf(leg.chain);
  if (legs.length === 1) return request.recipient ?? (sameFamily ? request.userAddress : undefined);
  if (sameFamily) return request.userAddress;
  return paidOn === request.toChain ? request.recipient : undefined;
}

/**
 * INSUFFICIENT_BALANCE when the wallet holds less of the input than the first leg spends plus the
 * integrator fees its transaction pays (`fees`, base units), and, for a native input on a user-paid
 * build, `gas`, the wallet's own gas in base units.
 */
export function balanceIssue(
  leg: RouteLeg,
  holder: string,
  held: bigint,
  gas = 0n,
  fees = 0n,
): RouteIssue | undefined {
  const needed = BigInt(leg.amountIn) + fees + gas;
  if (held >= needed) return undefined;
  const { symbol, decimals } = leg.tokenIn;
  const [neededText, heldText] = [baseUnitsToAmount(needed, decimals), baseUnitsToAmount(held, decimals)];
  const gasText = gas > 0n ? ` (${baseUnitsToAmount(gas, decimals)} of it gas, estimated)` : '';
  return {
    code: 'INSUFFICIENT_BALANCE',
    severity: 'blocking',
    message: `${holder} holds ${heldText} ${symbol} on ${leg.chain}; the route spends ${neededText}${gasText}`,
    chain: leg.chain,
    leg: 0,
    token: symbol,
    tokenAddress: leg.tokenIn.address,
    needed: neededText,
    held: heldText,
  };
}

/**
 * INSUFFICIENT_BALANCE of the native coin on a user-paid build spending an ERC-20: the wallet's own
 * transactions' gas (`gas`, base units, estimated) is more than it holds.
 */
export function gasBalanceIssue(
  leg: RouteLeg,
  holder: string,
  native: { symbol: string; decimals: number },
  held: bigint,
  gas: bigint,
): RouteIssue | undefined {
  if (held >= gas) return undefined;
  const [neededText, heldText] = [
    baseUnitsToAmount(gas, native.decimals),
    baseUnitsToAmount(held, native.decimals),
  ];
  return {
    code: 'INSUFFICIENT_BALANCE',
    severity: 'blocking',
    message: `${holder} holds ${heldText} ${native.symbol} on ${leg.chain}; its own transactions' gas is about ${neededText}`,
    chain: leg.chain,
    leg: 0,
    token: native.symbol,
    tokenAddress: null,
    needed: neededText,
    held: heldText,
  };
}

/**
 * ALLOWANCE_MISSING when the wallet's allowance to `spender` is below what the first transaction
 * spends: the leg's amountIn plus the integrator fees it pays (`fees`, base units). A warning: the
 * build asks the approval (or the permit) as a step of its own. `coveredByPermit`: the token has
 * EIP-2612, so a signature grants it instead of an approve transaction.
 */
export function allowanceIssue(
  leg: RouteLeg,
  spender: string,
  held: bigint,
  coveredByPermit: boolean,
  fees = 0n,
): RouteIssue | undefined {
  const needed = BigInt(leg.amountIn) + fees;
  if (held >= needed) return undefined;
  const { symbol, decimals } = leg.tokenIn;
  const [neededText, heldText] = [baseUnitsToAmount(needed, decimals), baseUnitsToAmount(held, decimals)];
  const how = coveredByPermit
    ? 'the build asks an EIP-2612 permit signature for it (no transaction)'
    : 'the build asks an approve transaction first';
  return {
    code: 'ALLOWANCE_MISSING',
    severity: 'warning',
    message: `The ${symbol} allowance to ${spender} is ${heldText}, the route spends ${neededText}: ${how}`,
    chain: leg.chain,
    leg: 0,
    token: symbol,
    tokenAddress: leg.tokenIn.address,
    needed: neededText,
    held: heldText,
    spender,
    coveredByPermit,
  };
}

/** SIMULATION_REVERTED (blocking) or SIMULATION_UNAVAILABLE (warning); nothing when it went through. */
export function simulationIssue(leg: RouteLeg, simulation: EvmSimulation): RouteIssue | undefined {
  switch (simulation.kind) {
    case 'ok':
      return undefined;
    case 'reverted':
      return {
        code: 'SIMULATION_REVERTED',
        severity: 'blocking',
        message: `The first leg's transaction on ${leg.chain} reverts: ${simulation.reason}`,
        chain: leg.chain,
        leg: 0,
        revertReason: simulation.reason,
        ...(simulation.data ? { revertData: simulation.data } : {}),
      };
    case 'unavailable':
      return {
        code: 'SIMULATION_UNAVAILABLE',
        severity: 'warning',
        message: `The first leg's transaction on ${leg.chain} could not be simulated: ${simulation.reason}`,
        chain: leg.chain,
        leg: 0,
      };
  }
}

function checkUnavailable(leg: RouteLeg, check: 'balance' | 'allowance', reason: string): RouteIssue {
  return {
    code: 'CHECK_UNAVAILABLE',
    severity: 'warning',
    message: `The ${check} of ${leg.tokenIn.symbol} on ${leg.chain} could not be read: ${reason}`,
    chain: leg.chain,
    leg: 0,
    check,
  };
}

/** The preflight's chain reads over the family clients (every RPC call bounded by RPC_TIMEOUT_MS). */
export function familyPreflightReads(
  families: ChainFamilies,
  registry: ChainRegistry,
  clock: Clock,
): PreflightChainReads {
  const client = (chain: string) => {
    const lookup = families.signing(chain);
    if (!lookup.ok) throw new Error(lookup.reason);
    return lookup.client;
  };
  const stepChains: StepSpecChains = {
    familyOf: (chain) => familyOrThrow(registry, chain),
    evmChainIdOf: (chain) => {
      const id = registry.find(chain)?.evmChainId;
      if (id === undefined) throw new Error(`${chain} is not an EVM chain`);
      return id;
    },
    permitContractsOf: (chain) => registry.permitContracts(chain),
    tokenPermitOf: (chain, token) => registry.tokenPermitOf(chain, token),
  };
  return {
    familyOf: (chain) => registry.find(chain)?.family,
    nativeOf: (chain) => {
      const found = registry.find(chain);
      return { symbol: found?.nativeSymbol ?? 'ETH', decimals: found?.nativeDecimals ?? 18 };
    },
    feePerGas: async (chain) => (await client(chain).fees()).feePerGas,
    balance: (chain, holder, token) => client(chain).readBalance(holder, token),
    allowance: (chain, token, owner, spender) => client(chain).readAllowance(token, owner, spender),
    simulate: async (chain, call, allowance) => {
      const evm = client(chain);
      if (evm.family !== 'evm') throw new Error(`${chain} is not an EVM chain`);
      if (!allowance) return simulateEvmCall(evm.provider, call);
      const override = allowanceStateOverride(
        allowance.token,
        call.from,
        allowance.spender,
        allowance.amount,
      );
      const [took, simulated] = await Promise.all([
        readAllowanceWithOverride(evm.provider, allowance.token, call.from, allowance.spender, override),
        simulateEvmCall(evm.provider, call, override),
      ]);
      // A token keeping its allowances where no candidate slot is: the call would fail for that alone.
      if (took < allowance.amount) {
        return { kind: 'unavailable', reason: `the allowance of ${allowance.token} could not be overridden` };
      }
      return simulated;
    },
    firstLegCall: (legs, signer, recipient) => {
      const spec = firstLegSpecOf(legs, signer, recipient, 'evm-transaction', [], stepChains, clock.nowMs());
      if (!spec.call) throw new Error(`the first leg on ${legs[0].chain} is not a transaction of the wallet`);
      return { from: signer, to: spec.call.to, data: spec.call.data, value: spec.call.value };
    },
    simulateSolanaFirstLeg: async (legs, signer, recipient, integratorFees) => {
      const chain = legs[0].chain;
      let spec: LegStepSpec;
      try {
        spec = firstLegSpecOf(
          legs,
          signer,
          recipient,
          'solana-transaction',
          integratorFees,
          stepChains,
          clock.nowMs(),
        );
      } catch (error) {
        return { kind: 'unavailable', reason: (error as Error).message };
      }
      const built = await client(chain).buildPayload(
        { from: signer, call: null, solana: spec.solana ?? null },
        SOLANA_SIMULATION_POLICY,
        clock.nowMs(),
      );
      switch (built.kind) {
        case 'ready':
          return { kind: 'ok' };
        case 'would-revert':
          return { kind: 'reverted', reason: built.reason };
        default:
          return { kind: 'unavailable', reason: built.reason };
      }
    },
  };
}

/** Payload policy of the preflight's Solana build: only simulated, never handed out. */
const SOLANA_SIMULATION_POLICY = { ttlMs: 60_000, gasLimitPercent: 100, feeSafetyPercent: 100 };

/** The first leg's step as the planner writes it for `signer`, user-paid, paying `recipient`. */
function firstLegSpecOf(
  legs: RouteLeg[],
  signer: string,
  recipient: string,
  signing: 'evm-transaction' | 'solana-transaction',
  integratorFees: IntegratorFeeTransfer[],
  chains: StepSpecChains,
  nowMs: number,
): LegStepSpec {
  const [leg, next] = legs;
  return legStepSpecOf(
    {
      step: { legIndex: 0, kind: leg.kind, signing },
      leg,
      next,
      spend: BigInt(leg.amountIn),
      minOut: BigInt(leg.minAmountOut),
      signer,
      recipient,
      finalRecipient: recipient,
      deadline: BigInt(Math.floor(nowMs / 1000) + 1200),
      ...(integratorFees.length > 0 ? { integratorFees } : {}),
      sponsored: false,
    },
    chains,
  );
}

function familyOrThrow(registry: ChainRegistry, chain: string): ChainFamily {
  const family = registry.find(chain)?.family;
  if (!family) throw new Error(`chain ${chain} is not known`);
  return family;
}
