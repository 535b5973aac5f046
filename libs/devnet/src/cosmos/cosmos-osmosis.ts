import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';
import { Coin as ProtoCoin } from 'cosmjs-types/cosmos/base/v1beta1/coin';
import { CosmosTxError } from './cosmos-errors';
import type { CosmosChain } from './cosmos-chain';
import {
  COSMOS_DEVNET_CHAINS,
  COSMOS_DEVNET_CHANNELS,
  CosmosChainRole,
  CosmosChainSpec,
  CosmosNetwork,
} from './cosmos-chain-spec';
import { escrowAddress, IBC_CHANNELS, ibcDenom, recordDenomTrace, TRANSFER_PORT } from './cosmos-ibc';
import {
  checkAddress,
  CosmosMessageHandler,
  parseCoins,
  transferEvents,
  messageEvent,
} from './cosmos-messages';
import type { Coin, CosmosState } from './cosmos-state';

/**
 * Osmosis's constant-product (balancer, equal weights) pools on osmosis-devnet and the poolmanager's
 * `MsgSwapExactAmountIn`. cosmjs-types has no Osmosis types: the protobuf is coded by hand from
 * osmosis/poolmanager/v1beta1/tx.proto. A pool's reserves are the bank balances of its account.
 */

export interface SwapAmountInRoute {
  poolId: bigint;
  tokenOutDenom: string;
}

export interface MsgSwapExactAmountIn {
  sender: string;
  routes: SwapAmountInRoute[];
  tokenIn: ProtoCoin;
  tokenOutMinAmount: string;
}

export const MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL = '/osmosis.poolmanager.v1beta1.MsgSwapExactAmountIn';

/** MsgSwapExactAmountIn { sender=1, routes=2 (SwapAmountInRoute{pool_id=1, token_out_denom=2}), token_in=3, token_out_min_amount=4 }. */
export const MsgSwapExactAmountInCodec = {
  typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  encode(message: MsgSwapExactAmountIn, writer: BinaryWriter = BinaryWriter.create()): BinaryWriter {
    if (message.sender !== '') writer.uint32(10).string(message.sender);
    for (const route of message.routes) {
      const inner = writer.uint32(18).fork();
      if (route.poolId !== 0n) inner.uint32(8).uint64(route.poolId);
      if (route.tokenOutDenom !== '') inner.uint32(18).string(route.tokenOutDenom);
      inner.ldelim();
    }
    ProtoCoin.encode(message.tokenIn, writer.uint32(26).fork()).ldelim();
    if (message.tokenOutMinAmount !== '') writer.uint32(34).string(message.tokenOutMinAmount);
    return writer;
  },
  decode(input: BinaryReader | Uint8Array, length?: number): MsgSwapExactAmountIn {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const end = length === undefined ? reader.len : reader.pos + length;
    const message = MsgSwapExactAmountInCodec.fromPartial({});
    while (reader.pos < end) {
      const tag = reader.uint32();
      switch (tag >>> 3) {
        case 1:
          message.sender = reader.string();
          break;
        case 2:
          message.routes.push(decodeRoute(reader, reader.uint32()));
          break;
        case 3:
          message.tokenIn = ProtoCoin.decode(reader, reader.uint32());
          break;
        case 4:
          message.tokenOutMinAmount = reader.string();
          break;
        default:
          reader.skipType(tag & 7);
      }
    }
    return message;
  },
  fromPartial(object: Partial<MsgSwapExactAmountIn>): MsgSwapExactAmountIn {
    return {
      sender: object.sender ?? '',
      routes: (object.routes ?? []).map((r) => ({
        poolId: BigInt(r.poolId ?? 0),
        tokenOutDenom: r.tokenOutDenom ?? '',
      })),
      tokenIn: ProtoCoin.fromPartial(object.tokenIn ?? {}),
      tokenOutMinAmount: object.tokenOutMinAmount ?? '',
    };
  },
};

function decodeRoute(reader: BinaryReader, length: number): SwapAmountInRoute {
  const end = reader.pos + length;
  const route: SwapAmountInRoute = { poolId: 0n, tokenOutDenom: '' };
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) route.poolId = reader.uint64();
    else if (tag >>> 3 === 2) route.tokenOutDenom = reader.string();
    else reader.skipType(tag & 7);
  }
  return route;
}

/** MsgSwapExactAmountInResponse { token_out_amount=1 }. */
function encodeSwapResponse(tokenOutAmount: bigint): Uint8Array {
  return BinaryWriter.create().uint32(10).string(tokenOutAmount.toString()).finish();
}

/** A pool: two assets of equal weight and a spread factor (Osmosis's swap fee), in 18-decimal units. */
export interface OsmosisPool {
  id: bigint;
  denoms: [string, string];
  /** The spread factor × 10^18 (0.2% = 2·10^15). */
  spreadFactor: bigint;
}

const DEC = 10n ** 18n;

/** A voucher on Osmosis: its denom, its path and the chain and base denom it comes from. */
export interface OsmosisVoucher {
  denom: string;
  path: string;
  home: CosmosChainSpec;
}

/**
 * Osmosis's ATOM and USDC in a network: the vouchers of the Hub's and Noble's native coins over
 * Osmosis's channel toward each (on the mainnets `ibc/2739…` over channel-0 and `ibc/498A…` over
 * channel-750).
 */
export function osmosisVouchers(
  chains: CosmosNetwork['chains'],
  channels: CosmosNetwork['channels'],
): { atom: OsmosisVoucher; usdc: OsmosisVoucher } {
  const osmosis = chains.find((chain) => chain.role === 'osmosis');
  const voucher = (role: CosmosChainRole): OsmosisVoucher => {
    const home = chains.find((chain) => chain.role === role);
    const channel = osmosis && home && channels[osmosis.id]?.[home.id];
    if (!home || !channel) throw new Error(`no channel from Osmosis to the ${role} chain`);
    const path = `${TRANSFER_PORT}/${channel}/${home.denom}`;
    return { denom: ibcDenom(path), path, home };
  };
  return { atom: voucher('hub'), usdc: voucher('noble') };
}

/** The pools seeded at start (ATOM at 5 USDC, OSMO at 0.5 USDC), each with a 0.2% spread factor. */
export function osmosisPools(
  chains: CosmosNetwork['chains'],
  channels: CosmosNetwork['channels'],
): (OsmosisPool & { reserves: [bigint, bigint] })[] {
  const { atom, usdc } = osmosisVouchers(chains, channels);
  const spreadFactor = 2n * 10n ** 15n;
  return [
    { id: 1n, denoms: [atom.denom, 'uosmo'], spreadFactor, reserves: [200_000_000_000n, 2_000_000_000_000n] },
    {
      id: 2n,
      denoms: [atom.denom, usdc.denom],
      spreadFactor,
      reserves: [200_000_000_000n, 1_000_000_000_000n],
    },
    {
      id: 3n,
      denoms: ['uosmo', usdc.denom],
      spreadFactor,
      reserves: [2_000_000_000_000n, 1_000_000_000_000n],
    },
  ];
}

const DEVNET_VOUCHERS = osmosisVouchers(COSMOS_DEVNET_CHAINS, COSMOS_DEVNET_CHANNELS);
/** The devnet Osmosis's ATOM and USDC: the vouchers of uatom (over its channel-0 to the Hub) and uusdc (channel-1 to Noble). */
export const OSMOSIS_ATOM = DEVNET_VOUCHERS.atom.denom;
export const OSMOSIS_USDC = DEVNET_VOUCHERS.usdc.denom;
/** The devnet's pools. */
export const OSMOSIS_DEVNET_POOLS = osmosisPools(COSMOS_DEVNET_CHAINS, COSMOS_DEVNET_CHANNELS);

/** The pool's account (a module-derived address, as Osmosis's NewPoolAddress: `gamm` module, key `pool<id>`). */
export function poolAddress(id: bigint): string {
  const typeHash = sha256(new TextEncoder().encode('module'));
  const key = new TextEncoder().encode(`gamm\0pool${id}`);
  return bech32.encode('osmo', bech32.toWords(sha256(new Uint8Array([...typeHash, ...key]))));
}

const poolKey = (id: bigint) => `gamm/pools/${id}`;

export function createPool(state: CosmosState, pool: OsmosisPool, reserves: [bigint, bigint]): void {
  state.set(
    poolKey(pool.id),
    JSON.stringify({
      id: pool.id.toString(),
      denoms: pool.denoms,
      spreadFactor: pool.spreadFactor.toString(),
    }),
  );
  state.mint(poolAddress(pool.id), [
    { denom: pool.denoms[0], amount: reserves[0] },
    { denom: pool.denoms[1], amount: reserves[1] },
  ]);
}

export function getPool(state: CosmosState, id: bigint): OsmosisPool | undefined {
  const json = state.get(poolKey(id));
  if (json === undefined) return undefined;
  const stored = JSON.parse(json) as { id: string; denoms: [string, string]; spreadFactor: string };
  return { id: BigInt(stored.id), denoms: stored.denoms, spreadFactor: BigInt(stored.spreadFactor) };
}

export function allPools(state: CosmosState): OsmosisPool[] {
  return state.entries('gamm/pools/').flatMap(([, json]) => {
    const pool = getPool(state, BigInt((JSON.parse(json) as { id: string }).id));
    return pool ? [pool] : [];
  });
}

/**
 * Balancer's out-given-in for equal weights: out = balanceOut × (1 − balanceIn / (balanceIn + in × (1 − spread))),
 * truncated, computed exactly (Osmosis's 18-decimal arithmetic may differ by one unit at most).
 */
export function swapOutGivenIn(
  state: CosmosState,
  pool: OsmosisPool,
  tokenIn: Coin,
  tokenOutDenom: string,
): bigint {
  if (
    !pool.denoms.includes(tokenIn.denom) ||
    !pool.denoms.includes(tokenOutDenom) ||
    tokenIn.denom === tokenOutDenom
  ) {
    throw new CosmosTxError(
      'invalidRequest',
      `denom ${tokenIn.denom} or ${tokenOutDenom} not found in pool ${pool.id}`,
    );
  }
  const address = poolAddress(pool.id);
  const balanceIn = state.balance(address, tokenIn.denom);
  const balanceOut = state.balance(address, tokenOutDenom);
  const inAfterFee = tokenIn.amount * (DEC - pool.spreadFactor);
  const out = (balanceOut * inAfterFee) / (balanceIn * DEC + inAfterFee);
  if (out <= 0n) throw new CosmosTxError('gammInvalidMathApprox', 'token amount must be positive');
  return out;
}

/** The routes' output for `tokenIn` (EstimateSwapExactAmountIn), run on `state` when `execute`. */
export function routeSwap(
  state: CosmosState,
  sender: string | undefined,
  tokenIn: Coin,
  routes: SwapAmountInRoute[],
): { out: bigint; hops: { pool: OsmosisPool; tokenIn: Coin; tokenOut: Coin }[] } {
  if (routes.length === 0) throw new CosmosTxError('invalidRequest', 'routes not defined');
  let current = tokenIn;
  const hops: { pool: OsmosisPool; tokenIn: Coin; tokenOut: Coin }[] = [];
  for (const route of routes) {
    const pool = getPool(state, route.poolId);
    if (!pool) throw new CosmosTxError('gammPoolNotFound', `pool with ID ${route.poolId} does not exist`);
    const out = {
      denom: route.tokenOutDenom,
      amount: swapOutGivenIn(state, pool, current, route.tokenOutDenom),
    };
    if (sender !== undefined) {
      state.send(sender, poolAddress(pool.id), [current]);
      state.send(poolAddress(pool.id), sender, [out]);
    }
    hops.push({ pool, tokenIn: current, tokenOut: out });
    current = out;
  }
  return { out: current.amount, hops };
}

/** Gas of a swap beyond the ante handler's, per route hop. */
export const SWAP_GAS_PER_HOP = 50_000;

export const msgSwapExactAmountInHandler: CosmosMessageHandler<MsgSwapExactAmountIn> = {
  typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  aminoType: 'osmosis/poolmanager/swap-exact-amount-in',
  decode: (bytes) => MsgSwapExactAmountInCodec.decode(bytes),
  signers: (msg) => [msg.sender],
  validate(msg, spec) {
    checkAddress(spec, msg.sender, 'sender');
    if (msg.routes.length === 0) throw new CosmosTxError('invalidRequest', 'routes not defined');
    parseCoins([msg.tokenIn], false);
    if (!/^[1-9][0-9]*$/.test(msg.tokenOutMinAmount)) {
      throw new CosmosTxError(
        'invalidRequest',
        `token_out_min_amount must be positive: ${msg.tokenOutMinAmount}`,
      );
    }
  },
  gas: (msg) => SWAP_GAS_PER_HOP * Math.max(msg.routes.length, 1),
  execute(msg, ctx) {
    const [tokenIn] = parseCoins([msg.tokenIn], false);
    const last = msg.routes[msg.routes.length - 1].tokenOutDenom;
    const { out, hops } = routeSwap(ctx.state, msg.sender, tokenIn, msg.routes);
    if (out < BigInt(msg.tokenOutMinAmount)) {
      throw new CosmosTxError('gammLimitMinAmount', `${last} token is lesser than min amount`);
    }
    ctx.events.push(messageEvent(MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, msg.sender, 'poolmanager'));
    for (const hop of hops) {
      const address = poolAddress(hop.pool.id);
      ctx.events.push(...transferEvents(msg.sender, address, [hop.tokenIn]).slice(0, 3));
      ctx.events.push(...transferEvents(address, msg.sender, [hop.tokenOut]).slice(0, 3));
      ctx.events.push({
        type: 'token_swapped',
        attributes: [
          { key: 'module', value: 'gamm' },
          { key: 'sender', value: msg.sender },
          { key: 'pool_id', value: hop.pool.id.toString() },
          { key: 'tokens_in', value: `${hop.tokenIn.amount}${hop.tokenIn.denom}` },
          { key: 'tokens_out', value: `${hop.tokenOut.amount}${hop.tokenOut.denom}` },
        ],
      });
    }
    return {
      typeUrl: '/osmosis.poolmanager.v1beta1.MsgSwapExactAmountInResponse',
      value: encodeSwapResponse(out),
    };
  },
  toJson: (msg) => swapJson(msg),
  toAmino: (msg) => swapJson(msg),
};

/** The amino JSON of a swap as Osmosis writes it. */
type AminoSwap = {
  sender: string;
  routes: { pool_id: string; token_out_denom: string }[];
  token_in: { denom: string; amount: string };
  token_out_min_amount: string;
};

/** cosmjs's AminoConverter of the swap, for a wallet signing it in amino (a Ledger). */
export const MSG_SWAP_EXACT_AMOUNT_IN_AMINO_CONVERTER = {
  aminoType: 'osmosis/poolmanager/swap-exact-amount-in',
  toAmino: (msg: MsgSwapExactAmountIn): AminoSwap => swapJson(msg),
  fromAmino: (value: AminoSwap): MsgSwapExactAmountIn =>
    MsgSwapExactAmountInCodec.fromPartial({
      sender: value.sender,
      routes: value.routes.map((r) => ({ poolId: BigInt(r.pool_id), tokenOutDenom: r.token_out_denom })),
      tokenIn: value.token_in,
      tokenOutMinAmount: value.token_out_min_amount,
    }),
};

function swapJson(msg: MsgSwapExactAmountIn): AminoSwap {
  return {
    sender: msg.sender,
    routes: msg.routes.map((r) => ({ pool_id: r.poolId.toString(), token_out_denom: r.tokenOutDenom })),
    token_in: { denom: msg.tokenIn.denom, amount: msg.tokenIn.amount },
    token_out_min_amount: msg.tokenOutMinAmount,
  };
}

/** A pool as Osmosis's gamm Pool JSON (`/osmosis/poolmanager/v1beta1/all-pools`). */
export function poolJson(state: CosmosState, pool: OsmosisPool): Record<string, unknown> {
  const address = poolAddress(pool.id);
  const dec = (v: bigint) => `${v / DEC}.${(v % DEC).toString().padStart(18, '0')}`;
  return {
    '@type': '/osmosis.gamm.v1beta1.Pool',
    address,
    id: pool.id.toString(),
    pool_params: { swap_fee: dec(pool.spreadFactor), exit_fee: dec(0n), smooth_weight_change_params: null },
    future_pool_governor: '',
    total_shares: { denom: `gamm/pool/${pool.id}`, amount: '100000000000000000000' },
    pool_assets: pool.denoms.map((denom) => ({
      token: { denom, amount: state.balance(address, denom).toString() },
      weight: '1073741824',
    })),
    total_weight: '2147483648',
  };
}

/**
 * Genesis of the Osmosis chain's pools: their ATOM and USDC vouchers minted (traces recorded) and the
 * same amounts put in the Hub's and Noble's escrow toward Osmosis, so every voucher can go home.
 */
export function seedOsmosisPools(chains: ReadonlyMap<string, CosmosChain>): void {
  const specs = [...chains.values()].map((chain) => chain.spec);
  const osmosis = [...chains.values()].find((chain) => chain.spec.role === 'osmosis');
  if (!osmosis) return;
  const backing = new Map<string, bigint>();
  for (const pool of osmosisPools(specs, IBC_CHANNELS)) {
    osmosis.genesis((state) => createPool(state, pool, pool.reserves));
    pool.denoms.forEach((denom, i) => backing.set(denom, (backing.get(denom) ?? 0n) + pool.reserves[i]));
  }
  const { atom, usdc } = osmosisVouchers(specs, IBC_CHANNELS);
  for (const voucher of [atom, usdc]) {
    osmosis.genesis((state) => recordDenomTrace(state, voucher.path));
    const home = chains.get(voucher.home.id);
    const channel = home && IBC_CHANNELS[home.spec.id]?.[osmosis.spec.id];
    if (!home || !channel) continue;
    home.fund(escrowAddress(home.spec.bech32Prefix, channel), [
      { denom: voucher.home.denom, amount: backing.get(voucher.denom) ?? 0n },
    ]);
  }
}
