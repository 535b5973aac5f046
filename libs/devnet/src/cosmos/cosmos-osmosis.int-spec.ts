import { Registry } from '@cosmjs/proto-signing';
import { AminoTypes, createDefaultAminoConverters, defaultRegistryTypes } from '@cosmjs/stargate';
import {
  MSG_SWAP_EXACT_AMOUNT_IN_AMINO_CONVERTER,
  MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  MsgSwapExactAmountInCodec,
  OSMOSIS_ATOM,
  OSMOSIS_USDC,
} from './cosmos-osmosis';
import { cosmosDevnetForSpec } from './cosmos-test-support';

/**
 * Osmosis's pools as a wallet uses them: the pool list and a swap estimate read over REST, then
 * poolmanager's MsgSwapExactAmountIn signed by cosmjs with the message's protobuf and amino forms
 * registered, as an Osmosis front end does.
 */
describe('local Cosmos devnet: Osmosis pools (poolmanager MsgSwapExactAmountIn)', () => {
  const devnet = cosmosDevnetForSpec();
  const { reader, rest } = devnet.clients;
  const registry = new Registry([
    ...defaultRegistryTypes,
    [MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, MsgSwapExactAmountInCodec],
  ]);
  const aminoTypes = new AminoTypes({
    ...createDefaultAminoConverters(),
    [MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL]: MSG_SWAP_EXACT_AMOUNT_IN_AMINO_CONVERTER,
  });
  const osmosisWallet = (index: number, mode: 'direct' | 'amino') =>
    devnet.clients.wallet(devnet.osmosis, index, mode, { registry, aminoTypes });

  function swapMsg(
    sender: string,
    tokenIn: { denom: string; amount: string },
    routes: [number, string][],
    min: string,
  ) {
    return {
      typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
      value: MsgSwapExactAmountInCodec.fromPartial({
        sender,
        routes: routes.map(([poolId, tokenOutDenom]) => ({ poolId: BigInt(poolId), tokenOutDenom })),
        tokenIn,
        tokenOutMinAmount: min,
      }),
    };
  }

  async function balance(address: string, denom: string): Promise<bigint> {
    return BigInt((await (await reader(devnet.osmosis)).getBalance(address, denom)).amount);
  }

  it('lists the three pools, ATOM and USDC as the vouchers of the Hub and Noble', async () => {
    const { json } = await rest(devnet.osmosis, '/osmosis/poolmanager/v1beta1/all-pools');
    expect(
      json.pools.map((p: { id: string; pool_assets: { token: { denom: string } }[] }) => [
        p.id,
        p.pool_assets.map((a) => a.token.denom),
      ]),
    ).toEqual([
      ['1', [OSMOSIS_ATOM, 'uosmo']],
      ['2', [OSMOSIS_ATOM, OSMOSIS_USDC]],
      ['3', ['uosmo', OSMOSIS_USDC]],
    ]);
    expect(json.pools[0].pool_params.swap_fee).toBe('0.002000000000000000');
    const usdc = await rest(devnet.osmosis, `/ibc/apps/transfer/v1/denom_traces/${OSMOSIS_USDC.slice(4)}`);
    expect(usdc.json.denom_trace).toEqual({ path: 'transfer/channel-1', base_denom: 'uusdc' });
  });

  it('swaps exactly what the estimate said, over one pool (DIRECT) and two (amino), and refuses below the minimum', async () => {
    const trader = await osmosisWallet(1, 'direct');
    const estimate = await rest(
      devnet.osmosis,
      `/osmosis/poolmanager/v1beta1/1/estimate/swap_exact_amount_in_with_primitive_types?token_in=10000000uosmo&routes_pool_id=1&routes_token_out_denom=${encodeURIComponent(OSMOSIS_ATOM)}`,
    );
    const expected = BigInt(estimate.json.token_out_amount);
    // 10 OSMO at 0.1 ATOM, less the 0.2% spread factor and the price impact.
    expect(expected).toBeGreaterThan(990_000n);
    expect(expected).toBeLessThan(998_000n);
    const before = await balance(trader.address, 'uosmo');
    const result = await trader.client.signAndBroadcast(
      trader.address,
      [
        swapMsg(
          trader.address,
          { denom: 'uosmo', amount: '10000000' },
          [[1, OSMOSIS_ATOM]],
          expected.toString(),
        ),
      ],
      'auto',
    );
    expect(result.code).toBe(0);
    expect(await balance(trader.address, OSMOSIS_ATOM)).toBe(expected);
    expect(await balance(trader.address, 'uosmo')).toBeLessThan(before - 10_000_000n);

    const amino = await osmosisWallet(2, 'amino');
    const twoHops = await rest(
      devnet.osmosis,
      `/osmosis/poolmanager/v1beta1/3/estimate/swap_exact_amount_in?token_in=20000000uosmo&routes.pool_id=3&routes.token_out_denom=${encodeURIComponent(OSMOSIS_USDC)}&routes.pool_id=2&routes.token_out_denom=${encodeURIComponent(OSMOSIS_ATOM)}`,
    );
    const viaUsdc = BigInt(twoHops.json.token_out_amount);
    const swapped = await amino.client.signAndBroadcast(
      amino.address,
      [
        swapMsg(
          amino.address,
          { denom: 'uosmo', amount: '20000000' },
          [
            [3, OSMOSIS_USDC],
            [2, OSMOSIS_ATOM],
          ],
          viaUsdc.toString(),
        ),
      ],
      'auto',
    );
    expect(swapped.code).toBe(0);
    expect(await balance(amino.address, OSMOSIS_ATOM)).toBe(viaUsdc);

    const greedy = await trader.client.signAndBroadcast(
      trader.address,
      [swapMsg(trader.address, { denom: 'uosmo', amount: '1000000' }, [[1, OSMOSIS_ATOM]], '1000000')],
      { amount: [{ denom: 'uosmo', amount: '1000' }], gas: '300000' },
    );
    expect(greedy.code).toBe(7);
    expect(greedy.rawLog).toBe(
      `failed to execute message; message index: 0: ${OSMOSIS_ATOM} token is lesser than min amount: calculated amount is lesser than min amount`,
    );
  });
});
