import { DeliverTxResponse, SigningStargateClient } from '@cosmjs/stargate';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { CROSSCHAIN_SWAPS_ADDRESS } from './cosmos-crosschain-swaps';
import { escrowAddress, ibcDenom } from './cosmos-ibc';
import { OSMOSIS_ATOM, OSMOSIS_USDC, poolAddress } from './cosmos-osmosis';
import { pfmIntermediateReceiver } from './cosmos-pfm';
import { attribute, cosmosDevnetForSpec, sequenceOf } from './cosmos-test-support';

/** ATOM on Noble when it came through Osmosis: Noble's channel-0 to Osmosis, then Osmosis's channel-0 to the Hub. */
const ATOM_ON_NOBLE_VIA_OSMOSIS = ibcDenom('transfer/channel-0/transfer/channel-0/uatom');

/**
 * The memos real routes carry, as a wallet sends them: a cosmjs-signed MsgTransfer on the Hub with a packet-forward-middleware `forward` memo or an ibc-hooks `wasm` memo for Osmosis's
 * crosschain-swaps, then every balance the route touched read on every chain over RPC, and the
 * packets' progress read from the relayer txs' events.
 */
describe('local Cosmos devnet: IBC memos (packet-forward-middleware, ibc-hooks swaps on Osmosis)', () => {
  const devnet = cosmosDevnetForSpec();
  const { wallet, rest, balance, packetTx } = devnet.clients;
  const noble = () => devnet.chain('noble-devnet');

  /** A MsgTransfer of uatom from the Hub to Osmosis (channel-0) with a packet memo; the fee it cost, read back. */
  async function sendAtomToOsmosis(
    sender: { address: string; client: SigningStargateClient },
    receiver: string,
    amount: bigint,
    memo: string,
  ): Promise<{ sent: DeliverTxResponse; fee: bigint }> {
    const before = await balance(devnet.hub, sender.address, 'uatom');
    // cosmjs's sendIbcTokens puts its memo on the tx, not the packet: the MsgTransfer is built here.
    const msg = {
      typeUrl: '/ibc.applications.transfer.v1.MsgTransfer',
      value: MsgTransfer.fromPartial({
        sourcePort: 'transfer',
        sourceChannel: devnet.hub.ibcChannels['osmosis-devnet'],
        sender: sender.address,
        receiver,
        token: { denom: 'uatom', amount: amount.toString() },
        timeoutTimestamp: BigInt(Date.now() + 600_000) * 1_000_000n,
        memo,
      }),
    };
    const sent = await sender.client.signAndBroadcast(sender.address, [msg], 'auto');
    expect(sent.code).toBe(0);
    const fee = before - amount - (await balance(devnet.hub, sender.address, 'uatom'));
    expect(fee).toBeGreaterThan(0n);
    return { sent, fee };
  }

  /** Osmosis's estimate of a swap over one pool, read over REST as a front end does. */
  async function estimate(tokenIn: string, poolId: number, outDenom: string): Promise<bigint> {
    const { json } = await rest(
      devnet.osmosis,
      `/osmosis/poolmanager/v1beta1/${poolId}/estimate/swap_exact_amount_in_with_primitive_types?token_in=${tokenIn}&routes_pool_id=${poolId}&routes_token_out_denom=${encodeURIComponent(outDenom)}`,
    );
    return BigInt(json.token_out_amount);
  }

  const swapMemo = (osmosisSwap: Record<string, unknown>) =>
    JSON.stringify({ wasm: { contract: CROSSCHAIN_SWAPS_ADDRESS, msg: { osmosis_swap: osmosisSwap } } });

  it('names the crosschain-swaps contract in the Osmosis manifest entry only', () => {
    expect(devnet.osmosis.crosschainSwapsContract).toBe(CROSSCHAIN_SWAPS_ADDRESS);
    expect(devnet.hub.crosschainSwapsContract).toBeUndefined();
  });

  it('forwards ATOM hub → osmosis → noble with a forward memo, acknowledged on the Hub only once Noble has it', async () => {
    const sender = await wallet(devnet.hub, 1);
    const receiver = noble().accounts[0].address;
    const amount = 4_000_000n;
    const hubEscrow = escrowAddress('cosmos', 'channel-0');
    const osmosisEscrow = escrowAddress('osmo', 'channel-1');
    const intermediate = pfmIntermediateReceiver('osmo', 'channel-0', sender.address);
    const hubBefore = await balance(devnet.hub, sender.address, 'uatom');
    const hubEscrowBefore = await balance(devnet.hub, hubEscrow, 'uatom');
    const osmosisEscrowBefore = await balance(devnet.osmosis, osmosisEscrow, OSMOSIS_ATOM);
    const memo = JSON.stringify({
      forward: { receiver, port: 'transfer', channel: 'channel-1', timeout: '10m', retries: 2 },
    });

    const { sent, fee } = await sendAtomToOsmosis(sender, 'pfm', amount, memo);
    const sequence = sequenceOf(sent);
    const received = await packetTx(devnet.osmosis, 'recv_packet', sequence, 'channel-0');
    expect(received.code).toBe(0);
    // PFM answers later: no acknowledgement written with the receive, the forward sent instead.
    expect(attribute(received, 'write_acknowledgement', 'packet_ack')).toBeUndefined();
    expect(attribute(received, 'send_packet', 'packet_src_channel')).toBe('channel-1');
    const forwardSequence = attribute(received, 'send_packet', 'packet_sequence')!;
    const onNoble = await packetTx(noble(), 'recv_packet', forwardSequence, 'channel-1');
    expect(attribute(onNoble, 'write_acknowledgement', 'packet_ack')).toBe('{"result":"AQ=="}');
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequence, 'channel-0');
    expect(attribute(acked, 'fungible_token_packet', 'acknowledgement')).toBe('{"result":"AQ=="}');

    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - amount - fee);
    expect(await balance(devnet.hub, hubEscrow, 'uatom')).toBe(hubEscrowBefore + amount);
    expect(await balance(devnet.osmosis, intermediate, OSMOSIS_ATOM)).toBe(0n);
    expect(await balance(devnet.osmosis, osmosisEscrow, OSMOSIS_ATOM)).toBe(osmosisEscrowBefore + amount);
    expect(await balance(noble(), receiver, ATOM_ON_NOBLE_VIA_OSMOSIS)).toBe(amount);
    const trace = await rest(
      noble(),
      `/ibc/apps/transfer/v1/denom_traces/${ATOM_ON_NOBLE_VIA_OSMOSIS.slice(4)}`,
    );
    expect(trace.json).toEqual({
      denom_trace: { path: 'transfer/channel-0/transfer/channel-0', base_denom: 'uatom' },
    });
  });

  it('refunds the Hub sender when the forward names a channel Osmosis does not have', async () => {
    const sender = await wallet(devnet.hub, 2);
    const hubEscrow = escrowAddress('cosmos', 'channel-0');
    const hubBefore = await balance(devnet.hub, sender.address, 'uatom');
    const escrowBefore = await balance(devnet.hub, hubEscrow, 'uatom');
    const intermediate = pfmIntermediateReceiver('osmo', 'channel-0', sender.address);
    const memo = JSON.stringify({
      forward: { receiver: noble().accounts[1].address, port: 'transfer', channel: 'channel-9' },
    });
    const { sent, fee } = await sendAtomToOsmosis(sender, 'pfm', 3_000n, memo);
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(acked, 'fungible_token_packet', 'error')).toBe(
      'packet-forward-middleware error: failed to forward transfer packet: port ID (transfer) channel ID (channel-9): channel not found: insufficient funds',
    );
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - fee);
    expect(await balance(devnet.hub, hubEscrow, 'uatom')).toBe(escrowBefore);
    expect(await balance(devnet.osmosis, intermediate, OSMOSIS_ATOM)).toBe(0n);
  });

  it('swaps ATOM into OSMO on arrival with a wasm memo (crosschain-swaps), the OSMO in the receiver account', async () => {
    const sender = await wallet(devnet.hub, 3);
    const receiver = devnet.osmosis.accounts[2].address;
    const amount = 2_000_000n;
    const pool = poolAddress(1n);
    const hubEscrow = escrowAddress('cosmos', 'channel-0');
    const expected = await estimate(`${amount}${OSMOSIS_ATOM}`, 1, 'uosmo');
    const [hubBefore, escrowBefore, osmoBefore, poolAtom, poolOsmo] = await Promise.all([
      balance(devnet.hub, sender.address, 'uatom'),
      balance(devnet.hub, hubEscrow, 'uatom'),
      balance(devnet.osmosis, receiver, 'uosmo'),
      balance(devnet.osmosis, pool, OSMOSIS_ATOM),
      balance(devnet.osmosis, pool, 'uosmo'),
    ]);
    const memo = swapMemo({
      output_denom: 'uosmo',
      slippage: { min_output_amount: expected.toString() },
      receiver,
      on_failed_delivery: 'do_nothing',
    });
    const { sent, fee } = await sendAtomToOsmosis(sender, CROSSCHAIN_SWAPS_ADDRESS, amount, memo);
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(acked, 'fungible_token_packet', 'success')).toBe('\u0001');

    expect(await balance(devnet.osmosis, receiver, 'uosmo')).toBe(osmoBefore + expected);
    expect(await balance(devnet.osmosis, pool, OSMOSIS_ATOM)).toBe(poolAtom + amount);
    expect(await balance(devnet.osmosis, pool, 'uosmo')).toBe(poolOsmo - expected);
    expect(await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_ATOM)).toBe(0n);
    expect(await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, 'uosmo')).toBe(0n);
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - amount - fee);
    expect(await balance(devnet.hub, hubEscrow, 'uatom')).toBe(escrowBefore + amount);
  });

  it('swaps ATOM into USDC on Osmosis and sends it on to a Noble receiver, arriving as native uusdc', async () => {
    const sender = await wallet(devnet.hub, 4);
    const receiver = noble().accounts[2].address;
    const amount = 1_000_000n;
    const pool = poolAddress(2n);
    const nobleEscrow = escrowAddress('noble', 'channel-0');
    const expected = await estimate(`${amount}${OSMOSIS_ATOM}`, 2, OSMOSIS_USDC);
    const [hubBefore, usdcBefore, escrowBefore, poolAtom, poolUsdc] = await Promise.all([
      balance(devnet.hub, sender.address, 'uatom'),
      balance(noble(), receiver, 'uusdc'),
      balance(noble(), nobleEscrow, 'uusdc'),
      balance(devnet.osmosis, pool, OSMOSIS_ATOM),
      balance(devnet.osmosis, pool, OSMOSIS_USDC),
    ]);
    const memo = swapMemo({
      output_denom: OSMOSIS_USDC,
      slippage: { min_output_amount: expected.toString() },
      receiver,
      on_failed_delivery: { local_recovery_addr: devnet.osmosis.accounts[3].address },
    });
    const { sent, fee } = await sendAtomToOsmosis(sender, CROSSCHAIN_SWAPS_ADDRESS, amount, memo);
    const received = await packetTx(devnet.osmosis, 'recv_packet', sequenceOf(sent), 'channel-0');
    const onward = attribute(received, 'send_packet', 'packet_sequence')!;
    expect(attribute(received, 'send_packet', 'packet_src_channel')).toBe('channel-1');
    await packetTx(devnet.osmosis, 'acknowledge_packet', onward, 'channel-1');
    await packetTx(devnet.hub, 'acknowledge_packet', sequenceOf(sent), 'channel-0');

    expect(await balance(noble(), receiver, 'uusdc')).toBe(usdcBefore + expected);
    expect(await balance(noble(), nobleEscrow, 'uusdc')).toBe(escrowBefore - expected);
    expect(await balance(devnet.osmosis, pool, OSMOSIS_ATOM)).toBe(poolAtom + amount);
    expect(await balance(devnet.osmosis, pool, OSMOSIS_USDC)).toBe(poolUsdc - expected);
    expect(await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_USDC)).toBe(0n);
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - amount - fee);
  });

  it('refunds ATOM on the Hub when the swap would give less than min_output_amount', async () => {
    const sender = await wallet(devnet.hub, 5);
    const receiver = devnet.osmosis.accounts[4].address;
    const amount = 1_000_000n;
    const pool = poolAddress(1n);
    const hubEscrow = escrowAddress('cosmos', 'channel-0');
    const expected = await estimate(`${amount}${OSMOSIS_ATOM}`, 1, 'uosmo');
    const [hubBefore, escrowBefore, osmoBefore, poolAtom, poolOsmo] = await Promise.all([
      balance(devnet.hub, sender.address, 'uatom'),
      balance(devnet.hub, hubEscrow, 'uatom'),
      balance(devnet.osmosis, receiver, 'uosmo'),
      balance(devnet.osmosis, pool, OSMOSIS_ATOM),
      balance(devnet.osmosis, pool, 'uosmo'),
    ]);
    const memo = swapMemo({
      output_denom: 'uosmo',
      slippage: { min_output_amount: (expected + 1n).toString() },
      receiver,
      on_failed_delivery: 'do_nothing',
    });
    const { sent, fee } = await sendAtomToOsmosis(sender, CROSSCHAIN_SWAPS_ADDRESS, amount, memo);
    const received = await packetTx(devnet.osmosis, 'recv_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(received, 'fungible_token_packet', 'error')).toBe(
      'cannot execute contract: uosmo token is lesser than min amount: calculated amount is lesser than min amount: wasm error',
    );
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(acked, 'fungible_token_packet', 'acknowledgement')).toBe(
      '{"error":"ABCI code: 6: error handling packet: see events for details"}',
    );
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - fee);
    expect(await balance(devnet.hub, hubEscrow, 'uatom')).toBe(escrowBefore);
    expect(await balance(devnet.osmosis, receiver, 'uosmo')).toBe(osmoBefore);
    expect(await balance(devnet.osmosis, pool, OSMOSIS_ATOM)).toBe(poolAtom);
    expect(await balance(devnet.osmosis, pool, 'uosmo')).toBe(poolOsmo);
    expect(await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_ATOM)).toBe(0n);
  });
});
