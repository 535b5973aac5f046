import { CosmosState } from './cosmos-state';
import {
  createPool,
  MsgSwapExactAmountInCodec,
  OSMOSIS_ATOM,
  OSMOSIS_DEVNET_POOLS,
  routeSwap,
} from './cosmos-osmosis';

describe('Osmosis pools on the devnet', () => {
  it('prices a swap as balancer equal-weight math with the spread factor taken from the input, truncated', () => {
    const state = CosmosState.empty();
    const [pool] = OSMOSIS_DEVNET_POOLS;
    createPool(state, pool, pool.reserves);
    // 200,000 ATOM / 2,000,000 OSMO, 0.2%: 10 OSMO → 200e9 × 9.98e6 / (2e12 + 9.98e6) uatom, truncated.
    const { out } = routeSwap(state, undefined, { denom: 'uosmo', amount: 10_000_000n }, [
      { poolId: 1n, tokenOutDenom: OSMOSIS_ATOM },
    ]);
    expect(out).toBe(997_995n);
  });

  it("round-trips the message through the hand-written protobuf of Osmosis's tx.proto", () => {
    const msg = MsgSwapExactAmountInCodec.fromPartial({
      sender: 'osmo1sender',
      routes: [
        { poolId: 3n, tokenOutDenom: 'ibc/X' },
        { poolId: 2n, tokenOutDenom: 'uosmo' },
      ],
      tokenIn: { denom: 'uosmo', amount: '5' },
      tokenOutMinAmount: '1',
    });
    const bytes = MsgSwapExactAmountInCodec.encode(msg).finish();
    expect(bytes[0]).toBe(0x0a); // field 1, length-delimited
    expect(MsgSwapExactAmountInCodec.decode(bytes)).toEqual(msg);
  });
});
