import { CROSSCHAIN_SWAPS_ADDRESS, parseOsmosisSwapMsg, swapRoute } from './cosmos-crosschain-swaps';
import { escrowAddress } from './cosmos-ibc';
import { classicContractAddress, ibcHooksIntermediateSender, parseWasmMemo } from './cosmos-ibc-hooks';
import { createPool, OSMOSIS_ATOM, OSMOSIS_DEVNET_POOLS, OSMOSIS_USDC, routeSwap } from './cosmos-osmosis';
import { CosmosState } from './cosmos-state';
import { cosmosDevnetInProcess } from './cosmos-test-support';

const swapMemo = (osmosisSwap: Record<string, unknown>) =>
  JSON.stringify({ wasm: { contract: CROSSCHAIN_SWAPS_ADDRESS, msg: { osmosis_swap: osmosisSwap } } });

describe('ibc-hooks wasm memos and the crosschain-swaps stand-in', () => {
  it("derives wasmd's classic contract addresses and ibc-hooks' 32-byte intermediary senders", () => {
    // The first contract of any wasmd chain, as every wasmd testnet shows it.
    expect(classicContractAddress('wasm', 1n, 1n)).toBe(
      'wasm14hj2tavq8fpesdwxxcu44rty3hh90vhujrvcmstl4zr3txmfvw9s0phg4d',
    );
    expect(CROSSCHAIN_SWAPS_ADDRESS).toBe('osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8');
    expect(CROSSCHAIN_SWAPS_ADDRESS).toBe(classicContractAddress('osmo', 3n, 3n));
    expect(ibcHooksIntermediateSender('osmo', 'channel-0', 'cosmos1sender')).toMatch(/^osmo1[0-9a-z]{58}$/);
  });

  it('routes a memo with a wasm key to the hook, the packet receiver being the contract', () => {
    const memo = swapMemo({});
    expect(parseWasmMemo(memo, CROSSCHAIN_SWAPS_ADDRESS)?.contract).toBe(CROSSCHAIN_SWAPS_ADDRESS);
    expect(parseWasmMemo('{"forward":{}}', CROSSCHAIN_SWAPS_ADDRESS)).toBeUndefined();
    expect(() => parseWasmMemo(memo, 'osmo1someoneelse')).toThrow(
      'should be the same as the receiver of the packet',
    );
  });

  it('reads osmosis_swap with min_output_amount slippage only, and both on_failed_delivery forms', () => {
    const base = { output_denom: 'uosmo', receiver: 'osmo1x', on_failed_delivery: 'do_nothing' };
    expect(
      parseOsmosisSwapMsg({
        osmosis_swap: { ...base, slippage: { min_output_amount: '5' }, next_memo: { a: 1 } },
      }),
    ).toEqual({ outputDenom: 'uosmo', minOutputAmount: 5n, receiver: 'osmo1x', nextMemo: { a: 1 } });
    expect(() =>
      parseOsmosisSwapMsg({
        osmosis_swap: { ...base, slippage: { twap: { slippage_percentage: '5', window_seconds: 10 } } },
      }),
    ).toThrow('slippage `twap` is not modelled');
    expect(() =>
      parseOsmosisSwapMsg({
        osmosis_swap: { ...base, slippage: { min_output_amount: '5' }, on_failed_delivery: 'burn' },
      }),
    ).toThrow('on_failed_delivery must be');
  });

  it('takes the direct pool with the lowest id, else two pools through a middle denom', () => {
    const state = CosmosState.empty();
    OSMOSIS_DEVNET_POOLS.forEach((pool) => createPool(state, pool, pool.reserves));
    expect(swapRoute(state, OSMOSIS_ATOM, 'uosmo')).toEqual([{ poolId: 1n, tokenOutDenom: 'uosmo' }]);
    expect(swapRoute(state, 'uosmo', OSMOSIS_USDC)).toEqual([{ poolId: 3n, tokenOutDenom: OSMOSIS_USDC }]);
    const twoPools = CosmosState.empty();
    [OSMOSIS_DEVNET_POOLS[0], OSMOSIS_DEVNET_POOLS[1]].forEach((p) => createPool(twoPools, p, p.reserves));
    expect(swapRoute(twoPools, 'uosmo', OSMOSIS_USDC)).toEqual([
      { poolId: 1n, tokenOutDenom: OSMOSIS_ATOM },
      { poolId: 2n, tokenOutDenom: OSMOSIS_USDC },
    ]);
    expect(() => swapRoute(state, 'uosmo', 'ufoo')).toThrow('no route from uosmo to ufoo');
  });

  it('swaps ATOM arriving from the hub into OSMO for a local receiver, with an ibc-hooks success ack', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 1);
    const receiver = net.address('osmosis-devnet', 1);
    const expected = routeSwap(
      net.chain('osmosis-devnet').queryState.branch(),
      undefined,
      {
        denom: OSMOSIS_ATOM,
        amount: 2_000_000n,
      },
      [{ poolId: 1n, tokenOutDenom: 'uosmo' }],
    ).out;
    const memo = swapMemo({
      output_denom: 'uosmo',
      slippage: { min_output_amount: expected.toString() },
      receiver,
      on_failed_delivery: 'do_nothing',
    });
    net.send(
      'cosmoshub-devnet',
      'osmosis-devnet',
      sender,
      CROSSCHAIN_SWAPS_ADDRESS,
      'uatom',
      2_000_000n,
      memo,
    );
    net.run();
    expect(net.balance('osmosis-devnet', receiver, 'uosmo')).toBe(expected);
    expect(net.balance('osmosis-devnet', CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_ATOM)).toBe(0n);
    const intermediary = ibcHooksIntermediateSender('osmo', 'channel-0', sender);
    expect(net.balance('osmosis-devnet', intermediary, OSMOSIS_ATOM)).toBe(0n);
    const { ack } = JSON.parse(net.chain('osmosis-devnet').queryState.get('ibc/acks/channel-0/1')!);
    const result = JSON.parse(Buffer.from(JSON.parse(ack).result, 'base64').toString());
    expect(Buffer.from(result.ibc_ack, 'base64').toString()).toBe('{"result":"AQ=="}');
    expect(JSON.parse(Buffer.from(result.contract_result, 'base64').toString())).toEqual({
      sent_amount: expected.toString(),
      denom: 'uosmo',
      receiver,
    });
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(0n);
  });

  it('refunds the hub sender when the swap gives less than min_output_amount', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 2);
    const escrow = escrowAddress('cosmos', 'channel-0');
    const escrowed = net.balance('cosmoshub-devnet', escrow, 'uatom');
    const memo = swapMemo({
      output_denom: 'uosmo',
      slippage: { min_output_amount: '999999999999' },
      receiver: net.address('osmosis-devnet', 2),
      on_failed_delivery: 'do_nothing',
    });
    net.send(
      'cosmoshub-devnet',
      'osmosis-devnet',
      sender,
      CROSSCHAIN_SWAPS_ADDRESS,
      'uatom',
      1_000_000n,
      memo,
    );
    net.run();
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(1_000_000n);
    expect(net.balance('cosmoshub-devnet', escrow, 'uatom')).toBe(escrowed);
    const { ack } = JSON.parse(net.chain('osmosis-devnet').queryState.get('ibc/acks/channel-0/1')!);
    expect(ack).toBe('{"error":"ABCI code: 6: error handling packet: see events for details"}');
  });

  it('sends the swap output on to another chain with next_memo, and to the recovery address if it fails', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 3);
    const nobleReceiver = net.address('noble-devnet', 1);
    const recovery = net.address('osmosis-devnet', 3);
    const expected = routeSwap(
      net.chain('osmosis-devnet').queryState.branch(),
      undefined,
      {
        denom: OSMOSIS_ATOM,
        amount: 1_000_000n,
      },
      [{ poolId: 2n, tokenOutDenom: OSMOSIS_USDC }],
    ).out;
    const memo = swapMemo({
      output_denom: OSMOSIS_USDC,
      slippage: { min_output_amount: '1' },
      receiver: nobleReceiver,
      on_failed_delivery: { local_recovery_addr: recovery },
    });
    net.send(
      'cosmoshub-devnet',
      'osmosis-devnet',
      sender,
      CROSSCHAIN_SWAPS_ADDRESS,
      'uatom',
      1_000_000n,
      memo,
    );
    net.run();
    // USDC went home to Noble over Osmosis's channel-1: native uusdc, out of Noble's escrow.
    expect(net.balance('noble-devnet', nobleReceiver, 'uusdc')).toBe(expected);

    // The same with a next_memo forwarding on to a channel Noble does not have: the output comes back
    // to the contract and on to the recovery address; the hub's packet stays a success.
    const failing = swapMemo({
      output_denom: OSMOSIS_USDC,
      slippage: { min_output_amount: '1' },
      receiver: nobleReceiver,
      on_failed_delivery: { local_recovery_addr: recovery },
      next_memo: { forward: { receiver: 'cosmos1x', port: 'transfer', channel: 'channel-9' } },
    });
    net.send(
      'cosmoshub-devnet',
      'osmosis-devnet',
      sender,
      CROSSCHAIN_SWAPS_ADDRESS,
      'uatom',
      1_000_000n,
      failing,
    );
    net.run();
    expect(net.balance('osmosis-devnet', recovery, OSMOSIS_USDC)).toBeGreaterThan(0n);
    expect(net.balance('osmosis-devnet', CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_USDC)).toBe(0n);
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(0n);
  });
});
