import type { ServerResponse } from 'node:http';
import type { ChainDescriptor } from '@swapgw/chains';
import { ibcVoucherDenom } from '@swapgw/chains/families';
import type { SkipOperation, SkipRoute } from '../../src/providers/skip-go/skip-go-api';
import { json, UpstreamRequest } from './local-upstream';

/**
 * The Skip Go API's answers as its API reference documents them (docs.skip.build: POST
 * /v2/fungible/route, POST /v2/fungible/msgs, GET /v2/tx/status, and the {code, message, details}
 * error body), for a LocalUpstream standing in for api.skip.build in the skip-go specs.
 */

/** A Cosmos chain descriptor as a real network's would be (the tests build their own). */
export function cosmosChain(
  id: string,
  chainId: string,
  bech32Prefix: string,
  nativeDenom: string,
  ibcChannels: Record<string, string> = {},
): ChainDescriptor {
  return {
    id,
    name: id,
    family: 'cosmos',
    network: 'mainnet',
    caip2: `cosmos:${chainId}`,
    nativeSymbol: nativeDenom.slice(1).toUpperCase(),
    nativeDecimals: 6,
    devnet: false,
    cosmos: {
      chainId,
      bech32Prefix,
      nativeDenom,
      restUrl: `https://rest.${id}.invalid`,
      minGasPrice: `0.0025${nativeDenom}`,
      ibcChannels,
    },
  };
}

/** An ICS-20 hop of a route (operation `transfer`), with the amounts current answers give each operation. */
export function skipTransferOp(input: {
  fromChainId: string;
  toChainId: string;
  channel: string;
  denomIn: string;
  denomOut: string;
  amount: string;
  txIndex?: number;
}) {
  return {
    transfer: {
      port: 'transfer',
      channel: input.channel,
      from_chain_id: input.fromChainId,
      to_chain_id: input.toChainId,
      pfm_enabled: true,
      supports_memo: true,
      denom_in: input.denomIn,
      denom_out: input.denomOut,
      bridge_id: 'IBC',
      smart_relay: false,
      chain_id: input.fromChainId,
      dest_denom: input.denomOut,
    },
    tx_index: input.txIndex ?? 0,
    amount_in: input.amount,
    amount_out: input.amount,
  };
}

/** A swap of a route on Osmosis's poolmanager (operation `swap`, swap_in). */
export function skipSwapOp(input: {
  chainId: string;
  pools: { pool: string; denomIn: string; denomOut: string }[];
  amountIn: string;
  amountOut: string;
  priceImpactPercent?: string;
}) {
  const denomIn = input.pools[0].denomIn;
  const denomOut = input.pools[input.pools.length - 1].denomOut;
  return {
    swap: {
      swap_in: {
        swap_venue: { name: 'osmosis-poolmanager', chain_id: input.chainId, logo_uri: '' },
        swap_operations: input.pools.map((p) => ({
          pool: p.pool,
          denom_in: p.denomIn,
          denom_out: p.denomOut,
        })),
        swap_amount_in: input.amountIn,
        price_impact_percent: input.priceImpactPercent ?? '0.12',
      },
      estimated_affiliate_fee: `0${denomOut}`,
      from_chain_id: input.chainId,
      chain_id: input.chainId,
      denom_in: denomIn,
      denom_out: denomOut,
      swap_venues: [{ name: 'osmosis-poolmanager', chain_id: input.chainId }],
    },
    tx_index: 0,
    amount_in: input.amountIn,
    amount_out: input.amountOut,
  };
}

/** A /v2/fungible/route answer for the body asked, over `operations`. */
export function skipRouteAnswer(
  asked: Record<string, unknown>,
  operations: SkipOperation[],
  amountOut: string,
  patch: Partial<SkipRoute> = {},
): SkipRoute {
  const chainIds = [asked.source_asset_chain_id as string];
  for (const op of operations) {
    const next = op.transfer?.to_chain_id ?? op.swap?.chain_id;
    if (next && chainIds[chainIds.length - 1] !== next) chainIds.push(next);
  }
  const doesSwap = operations.some((op) => op.swap);
  return {
    source_asset_denom: String(asked.source_asset_denom),
    source_asset_chain_id: String(asked.source_asset_chain_id),
    dest_asset_denom: String(asked.dest_asset_denom),
    dest_asset_chain_id: String(asked.dest_asset_chain_id),
    amount_in: String(asked.amount_in),
    amount_out: amountOut,
    operations,
    chain_ids: chainIds,
    required_chain_addresses: chainIds,
    does_swap: doesSwap,
    estimated_amount_out: amountOut,
    swap_venues: doesSwap ? [{ name: 'osmosis-poolmanager', chain_id: 'osmosis-1' }] : [],
    txs_required: 1,
    usd_amount_in: '10.02',
    usd_amount_out: '10.00',
    swap_price_impact_percent: doesSwap ? '0.12' : null,
    estimated_fees: [],
    estimated_route_duration_seconds: 30,
    warning: null,
    ...patch,
  };
}

/** Skip's error body (a gRPC status: 5 NOT_FOUND for "no routes found", 3 INVALID_ARGUMENT...). */
export function skipError(res: ServerResponse, status: number, code: number, message: string): void {
  json(res, status, { code, message, details: [] });
}

/** The three real networks the specs route between, their channels as on mainnet. */
export const HUB = cosmosChain('cosmoshub', 'cosmoshub-4', 'cosmos', 'uatom', { osmosis: 'channel-141' });
export const OSMOSIS = cosmosChain('osmosis', 'osmosis-1', 'osmo', 'uosmo', {
  cosmoshub: 'channel-0',
  noble: 'channel-750',
});
export const NOBLE = cosmosChain('noble', 'noble-1', 'noble', 'ustake', { osmosis: 'channel-1' });
/** ATOM on Osmosis (transfer/channel-0/uatom) and USDC on Osmosis (transfer/channel-750/uusdc). */
export const OSMOSIS_ATOM = ibcVoucherDenom('transfer/channel-0/uatom');
export const OSMOSIS_USDC = ibcVoucherDenom('transfer/channel-750/uusdc');

/** ATOM on the Hub → USDC on Noble: to Osmosis, swapped there, forwarded to Noble (one transaction). */
export function hubAtomToNobleUsdc(asked: Record<string, unknown>, amountOut: string): SkipRoute {
  const amount = asked.amount_in as string;
  return skipRouteAnswer(
    asked,
    [
      skipTransferOp({
        fromChainId: 'cosmoshub-4',
        toChainId: 'osmosis-1',
        channel: 'channel-141',
        denomIn: 'uatom',
        denomOut: OSMOSIS_ATOM,
        amount,
      }),
      skipSwapOp({
        chainId: 'osmosis-1',
        pools: [{ pool: '1251', denomIn: OSMOSIS_ATOM, denomOut: OSMOSIS_USDC }],
        amountIn: amount,
        amountOut,
      }),
      skipTransferOp({
        fromChainId: 'osmosis-1',
        toChainId: 'noble-1',
        channel: 'channel-750',
        denomIn: OSMOSIS_USDC,
        denomOut: 'uusdc',
        amount: amountOut,
      }),
    ],
    amountOut,
  );
}

/** The body of a recorded request, typed for the assertions. */
export function bodyOf(request: UpstreamRequest): Record<string, unknown> {
  if (!request.body) throw new Error(`${request.method} ${request.url.pathname} had no body`);
  return request.body;
}
