import { CHAIN_ID_PATTERN } from './relayer-keys';

/** A wei amount as configured: a decimal integer string (what fits uint256). */
const WEI_PATTERN = /^\d{1,78}$/;
/** Key of the fallback entry in per-chain JSON settings. */
export const ANY_CHAIN = '*';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export function parseWei(text: unknown): bigint | undefined {
  return typeof text === 'string' && WEI_PATTERN.test(text) ? BigInt(text) : undefined;
}

/** A wei amount per chain, with one amount for the chains not named. */
export class WeiByChain {
  constructor(
    readonly fallback: bigint,
    private readonly byChain: ReadonlyMap<string, bigint> = new Map(),
  ) {}

  of(chain: string): bigint {
    return this.byChain.get(chain) ?? this.fallback;
  }
}

function parseJsonObject(text: string, source: string): Parsed<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: `${source} is not valid JSON` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: `${source} must be a JSON object` };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

function weiByChainOf(
  entries: Record<string, unknown>,
  source: string,
  fallback: bigint,
): Parsed<WeiByChain> {
  const byChain = new Map<string, bigint>();
  let any = fallback;
  for (const [chain, amount] of Object.entries(entries)) {
    if (chain !== ANY_CHAIN && !CHAIN_ID_PATTERN.test(chain)) {
      return { ok: false, problem: `${source}: "${chain}" is neither a chain id nor "${ANY_CHAIN}"` };
    }
    const wei = parseWei(amount);
    if (wei === undefined) {
      return { ok: false, problem: `${source}["${chain}"] must be a decimal string of wei` };
    }
    if (chain === ANY_CHAIN) any = wei;
    else byChain.set(chain, wei);
  }
  return { ok: true, value: new WeiByChain(any, byChain) };
}

/**
 * `"<wei>"` for every chain, or `{"<chain id>": "<wei>", "*": "<wei>"}`: chains not named get
 * the `*` entry, else `fallback`.
 */
export function parseWeiByChain(text: string, source: string, fallback: bigint): Parsed<WeiByChain> {
  const single = parseWei(text.trim());
  if (single !== undefined) return { ok: true, value: new WeiByChain(single) };
  if (!text.trim().startsWith('{')) {
    return {
      ok: false,
      problem: `${source} must be a decimal string of wei or a JSON object of them per chain`,
    };
  }
  const object = parseJsonObject(text, source);
  return object.ok ? weiByChainOf(object.value, source, fallback) : object;
}

/** Daily sponsorship budget of each owner (API key id) on each chain, in wei. */
export class SponsorshipBudgetLimits {
  constructor(
    readonly defaultDailyWei: bigint,
    private readonly overrides: ReadonlyMap<string, WeiByChain> = new Map(),
  ) {}

  dailyLimitOf(owner: string, chain: string): bigint {
    return this.overrides.get(owner)?.of(chain) ?? this.defaultDailyWei;
  }
}

/**
 * Per-owner overrides of the daily budget: `{"<API key id>": "<wei>"}` (every chain) or
 * `{"<API key id>": {"<chain id>": "<wei>", "*": "<wei>"}}` (chains not named: `*`, else the default).
 */
export function parseBudgetOverrides(
  text: string | undefined,
  source: string,
  defaultDailyWei: bigint,
): Parsed<SponsorshipBudgetLimits> {
  if (text === undefined || text.trim() === '') {
    return { ok: true, value: new SponsorshipBudgetLimits(defaultDailyWei) };
  }
  const object = parseJsonObject(text, source);
  if (!object.ok) return object;
  const overrides = new Map<string, WeiByChain>();
  for (const [owner, limit] of Object.entries(object.value)) {
    if (owner === '') return { ok: false, problem: `${source}: an owner (API key id) is empty` };
    const single = parseWei(limit);
    if (single !== undefined) {
      overrides.set(owner, new WeiByChain(single));
      continue;
    }
    if (typeof limit !== 'object' || limit === null || Array.isArray(limit)) {
      return {
        ok: false,
        problem: `${source}["${owner}"] must be a decimal string of wei or an object of them per chain`,
      };
    }
    const perChain = weiByChainOf(limit as Record<string, unknown>, `${source}["${owner}"]`, defaultDailyWei);
    if (!perChain.ok) return perChain;
    overrides.set(owner, perChain.value);
  }
  return { ok: true, value: new SponsorshipBudgetLimits(defaultDailyWei, overrides) };
}
