import { catalogTokenAt, ChainRegistry } from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { Clock, TtlCache } from '@swapgw/runtime';
import { getAddress, Interface, toQuantity } from 'ethers';
import { TOKEN_TAX_PROBE_RUNTIME_CODE } from './token-tax-probe-code';
import type { UniswapV2Deployment } from './uniswap-v2-deployments';
import { abortable } from './uniswap-v2-quoter';

/**
 * What a token costs to move, measured on chain: the share (bps) its pool keeps back when it is
 * bought (`buyTaxBps`) and when it is sold (`sellTaxBps`), and whether a buy, a transfer to the
 * recipient or a sell reverted (`transferRestricted`: a blacklist, a paused token, a honeypot).
 */
export interface TokenTaxes {
  buyTaxBps: number;
  sellTaxBps: number;
  transferRestricted: boolean;
}

/** A token nobody needs to measure: 0 taxes, no restriction. */
export const UNTAXED: TokenTaxes = { buyTaxBps: 0, sellTaxBps: 0, transferRestricted: false };

/** Where the probe's code is placed for the call: an address nobody controls (no key, no code). */
export const TOKEN_TAX_PROBE_ADDRESS = '0x7A7a7a7A7a7a7a7a7A7a7a7a7a7A7A7A7a7A7a7a';
/** The wei the probe buys the pool's base token with (given to it by the same state override). */
export const TOKEN_TAX_PROBE_WEI = 10n ** 16n;
/** The recipient of the probe's transfer when the quote names none. */
export const TOKEN_TAX_PROBE_RECIPIENT = '0x000000000000000000000000000000000000dEaD';

const PROBE_INTERFACE = new Interface([
  'function probe(address router, address weth, address base, address pair, address token, address recipient, uint256 ethIn) returns ((bool bought, uint256 buyExpected, uint256 buyReceived, bool transferred, bool sold, uint256 sellSent, uint256 sellArrived) result)',
]);

/** The probe's answer as TokenTaxProbe.sol returns it. */
export interface ProbeOutcome {
  bought: boolean;
  buyExpected: bigint;
  buyReceived: bigint;
  transferred: boolean;
  sold: boolean;
  sellSent: bigint;
  sellArrived: bigint;
}

/** The share of `expected` that did not arrive, in bps rounded to the nearest (0 when nothing was expected). */
export function taxBpsOf(expected: bigint, arrived: bigint): number {
  if (expected <= 0n || arrived >= expected) return 0;
  return Number(((expected - arrived) * 10_000n + expected / 2n) / expected);
}

/** What is left of `amount` after a `bps` tax, rounded down as a token taking its cut rounds (the tax down). */
export function afterTax(amount: bigint, bps: number): bigint {
  return amount - (amount * BigInt(bps)) / 10_000n;
}

export function decodeProbeOutcome(data: string): ProbeOutcome {
  const [result] = PROBE_INTERFACE.decodeFunctionResult('probe', data) as unknown as [ProbeOutcome];
  return {
    bought: result.bought,
    buyExpected: result.buyExpected,
    buyReceived: result.buyReceived,
    transferred: result.transferred,
    sold: result.sold,
    sellSent: result.sellSent,
    sellArrived: result.sellArrived,
  };
}

/**
 * The taxes an outcome shows: a buy that reverted, a transfer that failed or a sell that reverted
 * all read as restricted (the route would revert, or leave the user with a token they cannot move).
 */
export function taxesOfOutcome(outcome: ProbeOutcome): TokenTaxes {
  return {
    buyTaxBps: outcome.bought ? taxBpsOf(outcome.buyExpected, outcome.buyReceived) : 0,
    sellTaxBps: outcome.sellSent > 0n ? taxBpsOf(outcome.sellSent, outcome.sellArrived) : 0,
    transferRestricted: !outcome.bought || !outcome.transferred || !outcome.sold,
  };
}

/** One token to measure: its Uniswap V2 pool and the pool's other token (the base the probe pays with). */
export interface TaxProbeTarget {
  deployment: UniswapV2Deployment;
  token: string;
  pair: string;
  base: string;
  /** Who the probe transfers to: the quote's recipient or user, when it names one. */
  recipient?: string;
}

/** How long a token's measured taxes are reused (a token's owner can change them). */
export const TOKEN_TAX_TTL_MS = 10 * 60_000;

/**
 * Measures a token's transfer taxes with one `eth_call` (TokenTaxProbe.sol's runtime code at an
 * unused address, given ETH by a state override): buy through the route's pool, transfer to the
 * recipient, sell back. Tokens the chain's deployments vouch for (`verified`, the wrapped native
 * coin) are not measured. Results are kept per chain, token and recipient for TOKEN_TAX_TTL_MS;
 * a probe that cannot run (no pool to buy the base with, RPC error) answers undefined: unchecked.
 */
export class TokenTaxProbe {
  private readonly cache: TtlCache<TokenTaxes>;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly families: ChainFamilies,
    clock: Clock,
    ttlMs = TOKEN_TAX_TTL_MS,
  ) {
    this.cache = new TtlCache({ ttlMs, maxEntries: 10_000, clock });
  }

  /** Whether `token` on `chain` is vouched for (its taxes are 0 without a probe). */
  vouchedFor(chain: string, token: string | null): boolean {
    if (token === null) return true;
    const deployments = this.registry.deployments(chain);
    if (deployments?.wrappedNative && deployments.wrappedNative.toLowerCase() === token.toLowerCase())
      return true;
    const listed = catalogTokenAt(deployments, token);
    return listed !== undefined && listed.verified !== false;
  }

  /** The token's taxes: UNTAXED when vouched for, measured otherwise (undefined when that failed). */
  async taxesOf(target: TaxProbeTarget, signal: AbortSignal): Promise<TokenTaxes | undefined> {
    const chain = target.deployment.chain;
    if (this.vouchedFor(chain, target.token)) return UNTAXED;
    return this.measure(target, signal);
  }

  /** Measures `target` whether or not it is vouched for (cached). */
  measure(target: TaxProbeTarget, signal: AbortSignal): Promise<TokenTaxes | undefined> {
    const recipient = getAddress(target.recipient ?? TOKEN_TAX_PROBE_RECIPIENT);
    const key = `${target.deployment.chain}:${getAddress(target.token)}:${recipient}`;
    // A probe that failed is not kept (TtlCache forgets failed loads): the next quote tries again.
    return abortable(
      this.cache.getOrLoad(key, () => this.probe(target, recipient)),
      signal,
    ).catch(() => undefined);
  }

  private async probe(target: TaxProbeTarget, recipient: string): Promise<TokenTaxes> {
    const { deployment } = target;
    const data = PROBE_INTERFACE.encodeFunctionData('probe', [
      deployment.router,
      deployment.weth,
      target.base,
      target.pair,
      target.token,
      recipient,
      TOKEN_TAX_PROBE_WEI,
    ]);
    const override = {
      [TOKEN_TAX_PROBE_ADDRESS]: {
        code: TOKEN_TAX_PROBE_RUNTIME_CODE,
        balance: toQuantity(TOKEN_TAX_PROBE_WEI),
      },
    };
    // Throws on no pool to buy the base through, a node without state overrides, an RPC failure.
    const result = (await this.families
      .evmProvider(deployment.chain)
      .send('eth_call', [{ to: TOKEN_TAX_PROBE_ADDRESS, data }, 'latest', override])) as string;
    return taxesOfOutcome(decodeProbeOutcome(result));
  }
}
