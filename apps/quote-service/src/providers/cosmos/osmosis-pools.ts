import { CodedError, ErrorCodes } from '@swapgw/contracts';

/** Osmosis's balancer pool type (x/gamm), the one constant-product pool the provider prices. */
export const BALANCER_POOL_TYPE = '/osmosis.gamm.v1beta1.Pool';

/** 10^18: Osmosis's `sdk.Dec` precision, in which a pool's swap fee (spread factor) is written. */
export const DEC = 10n ** 18n;

/** A two-asset, equal-weight balancer pool as Osmosis's poolmanager answers it. */
export interface OsmosisBalancerPool {
  id: bigint;
  /** The pool's module account, which holds its reserves (where a swap's input goes). */
  address: string;
  /** The spread factor (swap fee) × 10^18: `0.002000000000000000` → 2·10^15. */
  spreadFactor: bigint;
  assets: readonly [OsmosisPoolAsset, OsmosisPoolAsset];
}

export interface OsmosisPoolAsset {
  denom: string;
  amount: bigint;
}

/** An `sdk.Dec` string (`0.002000000000000000`) × 10^18; undefined when it is not one. */
export function parseSdkDec(value: unknown): bigint | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(value);
  if (!match) return undefined;
  return BigInt(match[1]) * DEC + BigInt((match[2] ?? '').padEnd(18, '0'));
}

/**
 * The pools of GET /osmosis/poolmanager/v1beta1/all-pools that the provider prices: balancer pools
 * of two assets with equal weights (constant product). Other pool types (concentrated liquidity,
 * stableswap, CosmWasm pools) and weighted balancer pools are left out, not misread.
 */
export function balancerPoolsOf(body: unknown): OsmosisBalancerPool[] {
  const pools = (body as { pools?: unknown })?.pools;
  if (!Array.isArray(pools)) throw new Error('all-pools answered without a pools array');
  const priced: OsmosisBalancerPool[] = [];
  for (const raw of pools as Record<string, unknown>[]) {
    if (raw?.['@type'] !== BALANCER_POOL_TYPE) continue;
    const assets = raw.pool_assets as { token?: { denom?: unknown; amount?: unknown }; weight?: unknown }[];
    const spreadFactor = parseSdkDec((raw.pool_params as { swap_fee?: unknown } | undefined)?.swap_fee);
    if (!Array.isArray(assets) || assets.length !== 2 || spreadFactor === undefined) continue;
    if (typeof raw.id !== 'string' || !/^\d+$/.test(raw.id) || typeof raw.address !== 'string') continue;
    if (assets[0].weight !== assets[1].weight) continue;
    const parsed = assets.map((asset) =>
      typeof asset.token?.denom === 'string' &&
      typeof asset.token.amount === 'string' &&
      /^\d+$/.test(asset.token.amount)
        ? { denom: asset.token.denom, amount: BigInt(asset.token.amount) }
        : undefined,
    );
    if (!parsed[0] || !parsed[1]) continue;
    priced.push({ id: BigInt(raw.id), address: raw.address, spreadFactor, assets: [parsed[0], parsed[1]] });
  }
  return priced.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Reads Osmosis's pools through its REST API as any client of Osmosis does (the poolmanager's
 * `all-pools` query), bounded by `timeoutMs` and the caller's signal. A node that does not answer, or
 * answers something else, is the provider's failure (QUOTE_UPSTREAM_FAILED).
 */
export async function readOsmosisPools(
  restUrl: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<OsmosisBalancerPool[]> {
  let response: Response;
  try {
    response = await fetch(`${restUrl}/osmosis/poolmanager/v1beta1/all-pools`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
  } catch (error) {
    throw new CodedError(ErrorCodes.QUOTE_UPSTREAM_FAILED, 'The Osmosis REST API did not answer', {
      reason: (error as Error).message,
    });
  }
  if (!response.ok)
    throw new CodedError(
      ErrorCodes.QUOTE_UPSTREAM_FAILED,
      `The Osmosis REST API answered HTTP ${response.status}`,
      {
        status: response.status,
      },
    );
  return balancerPoolsOf(await response.json());
}
