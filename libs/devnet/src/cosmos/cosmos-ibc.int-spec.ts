import { DeliverTxResponse, SigningStargateClient, StdFee } from '@cosmjs/stargate';
import { escrowAddress } from './cosmos-ibc';
import { attribute, cosmosDevnetForSpec, sequenceOf, waitFor } from './cosmos-test-support';

/** Osmosis's ATOM: the voucher of uatom received over Osmosis's channel-0 to the Hub, as on mainnet. */
const ATOM_ON_OSMOSIS = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';

/**
 * IBC transfers between the devnet's Cosmos chains as a wallet makes and follows them: an unmodified
 * cosmjs `sendIbcTokens`, balances read on both chains, and the packet's progress read from the
 * events of the txs (send_packet, recv_packet, acknowledge_packet, timeout_packet).
 */
describe('local Cosmos devnet: IBC transfers (MsgTransfer, relayer, acknowledgements, timeouts)', () => {
  const devnet = cosmosDevnetForSpec();
  const { wallet, reader, rest, balance, packetTx } = devnet.clients;

  const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

  /** An unmodified cosmjs sendIbcTokens on port `transfer`, timing out by timestamp (seconds) as wallets do. */
  function transfer(
    sender: { address: string; client: SigningStargateClient },
    receiver: string,
    token: { denom: string; amount: string },
    channel: string,
    timeoutSeconds: number,
    fee: StdFee | 'auto',
    memo = '',
  ): Promise<DeliverTxResponse> {
    const { address, client } = sender;
    return client.sendIbcTokens(
      address,
      receiver,
      token,
      'transfer',
      channel,
      undefined,
      timeoutSeconds,
      fee,
      memo,
    );
  }

  it('names its channels in the manifest as the chains name them', () => {
    expect(devnet.hub.ibcChannels).toEqual({ 'osmosis-devnet': 'channel-0', 'noble-devnet': 'channel-1' });
    expect(devnet.osmosis.ibcChannels).toEqual({
      'cosmoshub-devnet': 'channel-0',
      'noble-devnet': 'channel-1',
    });
  });

  it('sends ATOM from the Hub to Osmosis and back with sendIbcTokens, DIRECT and amino signers', async () => {
    const sender = await wallet(devnet.hub, 1);
    const receiver = devnet.osmosis.accounts[0].address;
    const amount = 12_345_678n;
    const hubBefore = await balance(devnet.hub, sender.address, 'uatom');
    const escrow = escrowAddress('cosmos', 'channel-0');
    // Already holds what backs the ATOM of Osmosis's pools.
    const escrowed = await balance(devnet.hub, escrow, 'uatom');

    const sent = await transfer(
      sender,
      receiver,
      { denom: 'uatom', amount: amount.toString() },
      devnet.hub.ibcChannels['osmosis-devnet'],
      inTenMinutes(),
      'auto',
      'to osmosis',
    );
    expect(sent.code).toBe(0);
    const sequence = sequenceOf(sent);
    const hubTx = await (await reader(devnet.hub)).getTx(sent.transactionHash);
    const fee = hubBefore - amount - (await balance(devnet.hub, sender.address, 'uatom'));
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThan(10_000n);
    expect(hubTx?.code).toBe(0);
    expect(await balance(devnet.hub, escrow, 'uatom')).toBe(escrowed + amount);

    const received = await packetTx(devnet.osmosis, 'recv_packet', sequence, 'channel-0');
    expect(received.code).toBe(0);
    expect(attribute(received, 'write_acknowledgement', 'packet_ack')).toBe('{"result":"AQ=="}');
    expect(await balance(devnet.osmosis, receiver, ATOM_ON_OSMOSIS)).toBe(amount);
    const trace = await rest(
      devnet.osmosis,
      `/ibc/apps/transfer/v1/denom_traces/${ATOM_ON_OSMOSIS.slice(4)}`,
    );
    expect(trace.json).toEqual({ denom_trace: { path: 'transfer/channel-0', base_denom: 'uatom' } });
    const denom = await rest(devnet.osmosis, `/ibc/apps/transfer/v1/denoms/${ATOM_ON_OSMOSIS}`);
    expect(denom.json).toEqual({
      denom: { base: 'uatom', trace: [{ port_id: 'transfer', channel_id: 'channel-0' }] },
    });
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequence, 'channel-0');
    expect(acked.code).toBe(0);
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - amount - fee);

    // Back home from a Ledger-style amino signer: the voucher burnt on Osmosis, the escrow released.
    const back = await wallet(devnet.osmosis, 1, 'amino');
    expect(back.address).toBe(receiver);
    const returned = await transfer(
      back,
      sender.address,
      { denom: ATOM_ON_OSMOSIS, amount: '345678' },
      devnet.osmosis.ibcChannels['cosmoshub-devnet'],
      inTenMinutes(),
      'auto',
    );
    expect(returned.code).toBe(0);
    expect(await balance(devnet.osmosis, receiver, ATOM_ON_OSMOSIS)).toBe(amount - 345_678n);
    await packetTx(devnet.hub, 'recv_packet', sequenceOf(returned), 'channel-0');
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(hubBefore - amount - fee + 345_678n);
    expect(await balance(devnet.hub, escrow, 'uatom')).toBe(escrowed + amount - 345_678n);
    const { json } = await rest(devnet.osmosis, `/cosmos/bank/v1beta1/balances/${receiver}`);
    expect(json.balances).toContainEqual({ denom: ATOM_ON_OSMOSIS, amount: (amount - 345_678n).toString() });
  });

  it('refunds the sender when the packet times out (relayer down past the timeout)', async () => {
    const sender = await wallet(devnet.hub, 2);
    const receiver = devnet.osmosis.accounts[1].address;
    const before = await balance(devnet.hub, sender.address, 'uatom');
    devnet.handle.relayer.stop();
    const timeout = Math.floor(Date.now() / 1000) + 2;
    let sent: DeliverTxResponse | undefined;
    let fee: bigint | undefined;
    try {
      sent = await transfer(
        sender,
        receiver,
        { denom: 'uatom', amount: '5000000' },
        'channel-0',
        timeout,
        'auto',
      );
      expect(sent.code).toBe(0);
      fee = before - 5_000_000n - (await balance(devnet.hub, sender.address, 'uatom'));
      expect(fee).toBeGreaterThan(0n);
      const client = await reader(devnet.osmosis);
      await waitFor(async () => {
        const block = await client.getBlock();
        return new Date(block.header.time).getTime() >= timeout * 1000 ? true : undefined;
      });
    } finally {
      devnet.handle.relayer.start();
    }
    const timedOut = await packetTx(devnet.hub, 'timeout_packet', sequenceOf(sent!), 'channel-0');
    expect(timedOut.code).toBe(0);
    expect(attribute(timedOut, 'timeout', 'refund_amount')).toBe('5000000');
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(before - (fee ?? 0n));
    expect(await balance(devnet.osmosis, receiver, ATOM_ON_OSMOSIS)).toBe(0n);
  });

  it('refunds the sender on an error acknowledgement (a receiver Osmosis cannot decode)', async () => {
    const sender = await wallet(devnet.hub, 3);
    const before = await balance(devnet.hub, sender.address, 'uatom');
    const sent = await transfer(
      sender,
      devnet.hub.accounts[3].address,
      { denom: 'uatom', amount: '777' },
      'channel-0',
      inTenMinutes(),
      'auto',
    );
    expect(sent.code).toBe(0);
    const fee = before - 777n - (await balance(devnet.hub, sender.address, 'uatom'));
    const received = await packetTx(devnet.osmosis, 'recv_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(received, 'fungible_token_packet', 'success')).toBe('false');
    const acked = await packetTx(devnet.hub, 'acknowledge_packet', sequenceOf(sent), 'channel-0');
    expect(attribute(acked, 'fungible_token_packet', 'acknowledgement')).toMatch(
      /^\{"error":"ABCI code: \d+: error handling packet: see events for details"\}$/,
    );
    expect(await balance(devnet.hub, sender.address, 'uatom')).toBe(before - fee);
  });

  it('refuses a transfer over a channel the chain does not have, and an unknown voucher', async () => {
    const sender = await wallet(devnet.hub, 4);
    const fee = { amount: [{ denom: 'uatom', amount: '2000' }], gas: '400000' };
    const noChannel = await transfer(
      sender,
      devnet.osmosis.accounts[2].address,
      { denom: 'uatom', amount: '1' },
      'channel-9',
      inTenMinutes(),
      fee,
    );
    expect(noChannel.code).toBe(3);
    const included = await rest(devnet.hub, `/cosmos/tx/v1beta1/txs/${noChannel.transactionHash}`);
    expect(included.json.tx_response).toMatchObject({
      code: 3,
      codespace: 'channel',
      raw_log:
        'failed to execute message; message index: 0: port ID (transfer) channel ID (channel-9): channel not found',
    });
    const noTrace = await transfer(
      sender,
      devnet.osmosis.accounts[2].address,
      { denom: ATOM_ON_OSMOSIS, amount: '1' },
      'channel-0',
      inTenMinutes(),
      fee,
    );
    expect(noTrace.code).toBe(6);
    expect(noTrace.rawLog).toMatch(/: denomination trace not found$/);
    const missing = await rest(devnet.hub, `/ibc/apps/transfer/v1/denom_traces/${ATOM_ON_OSMOSIS.slice(4)}`);
    expect(missing.status).toBe(404);
  });
});
