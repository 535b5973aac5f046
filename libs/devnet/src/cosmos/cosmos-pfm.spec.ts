import { escrowAddress, ibcDenom } from './cosmos-ibc';
import { parseForwardMemo, parseGoDuration, pfmIntermediateReceiver } from './cosmos-pfm';
import { cosmosDevnetInProcess } from './cosmos-test-support';

describe('packet-forward-middleware memos', () => {
  it('reads the forward metadata PFM reads: Go durations, retries, next as an object or a JSON string', () => {
    expect(parseGoDuration('10m')).toBe(600_000_000_000n);
    expect(parseGoDuration('1h30m5s')).toBe(5_405_000_000_000n);
    expect(parseGoDuration(42)).toBe(42n);
    expect(() => parseGoDuration('ten minutes')).toThrow('invalid duration');
    const next = { forward: { receiver: 'noble1x', port: 'transfer', channel: 'channel-1' } };
    const memo = {
      forward: {
        receiver: 'osmo1x',
        port: 'transfer',
        channel: 'channel-0',
        timeout: '10m',
        retries: 2,
        next,
      },
    };
    expect(parseForwardMemo(JSON.stringify(memo))).toEqual({
      receiver: 'osmo1x',
      port: 'transfer',
      channel: 'channel-0',
      timeout: 600_000_000_000n,
      retries: 2,
      next: JSON.stringify(next),
    });
    expect(parseForwardMemo(JSON.stringify({ forward: { ...memo.forward, next: '{"a":1}' } }))?.next).toBe(
      '{"a":1}',
    );
    expect(parseForwardMemo('a plain memo')).toBeUndefined();
    expect(parseForwardMemo('{"wasm":{}}')).toBeUndefined();
    expect(() => parseForwardMemo('{"forward":{"port":"transfer","channel":"channel-0"}}')).toThrow(
      'failed to validate metadata: receiver cannot be empty',
    );
  });

  it('derives the intermediate receiver from the forward channel and the original sender, 20 bytes', () => {
    const a = pfmIntermediateReceiver('osmo', 'channel-1', 'cosmos1sender');
    expect(a).toMatch(/^osmo1[0-9a-z]{38}$/);
    expect(a).not.toBe(pfmIntermediateReceiver('osmo', 'channel-1', 'cosmos1other'));
    expect(a).not.toBe(pfmIntermediateReceiver('osmo', 'channel-0', 'cosmos1sender'));
  });

  it('forwards hub → osmosis → noble, the first ack written only once the forward is acknowledged', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 1);
    const receiver = net.address('noble-devnet', 1);
    const memo = JSON.stringify({
      forward: { receiver, port: 'transfer', channel: 'channel-1', timeout: '10m' },
    });
    net.send('cosmoshub-devnet', 'osmosis-devnet', sender, 'pfm', 'uatom', 1_000n, memo);
    net.run(2);
    // Received on Osmosis and forwarded; its acknowledgement waits for Noble's.
    const osmosis = net.chain('osmosis-devnet').queryState;
    expect(osmosis.get('ibc/receipts/channel-0/1')).toBe('1');
    expect(osmosis.get('ibc/acks/channel-0/1')).toBeUndefined();
    net.run();
    expect(JSON.parse(osmosis.get('ibc/acks/channel-0/1')!).ack).toBe('{"result":"AQ=="}');
    // Noble's uatom came over its channel-0 from Osmosis, which had it over its channel-0 from the Hub.
    expect(
      net.balance('noble-devnet', receiver, ibcDenom('transfer/channel-0/transfer/channel-0/uatom')),
    ).toBe(1_000n);
    const intermediate = pfmIntermediateReceiver('osmo', 'channel-0', sender);
    expect(net.balance('osmosis-devnet', intermediate, ibcDenom('transfer/channel-0/uatom'))).toBe(0n);
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(0n);
    expect(net.chain('cosmoshub-devnet').queryState.entries('ibc/commitments/')).toEqual([]);
  });

  it('unwinds a voucher forwarded back to its origin: ATOM hub → osmosis → hub arrives as uatom', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 4);
    const receiver = net.address('cosmoshub-devnet', 5);
    const escrow = escrowAddress('cosmos', 'channel-0');
    const escrowed = net.balance('cosmoshub-devnet', escrow, 'uatom');
    const memo = JSON.stringify({ forward: { receiver, port: 'transfer', channel: 'channel-0' } });
    net.send('cosmoshub-devnet', 'osmosis-devnet', sender, 'pfm', 'uatom', 500n, memo);
    net.run();
    expect(net.balance('cosmoshub-devnet', receiver, 'uatom')).toBe(500n);
    expect(net.balance('cosmoshub-devnet', escrow, 'uatom')).toBe(escrowed);
    const intermediate = pfmIntermediateReceiver('osmo', 'channel-0', sender);
    expect(net.balance('osmosis-devnet', intermediate, ibcDenom('transfer/channel-0/uatom'))).toBe(0n);
  });

  it('refunds the sender when the next hop fails (no such channel), the receive on the middle chain undone', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 2);
    const memo = JSON.stringify({ forward: { receiver: 'noble1x', port: 'transfer', channel: 'channel-9' } });
    const escrow = escrowAddress('cosmos', 'channel-0');
    const escrowed = net.balance('cosmoshub-devnet', escrow, 'uatom');
    net.send('cosmoshub-devnet', 'osmosis-devnet', sender, 'pfm', 'uatom', 700n, memo);
    net.run();
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(700n);
    expect(net.balance('cosmoshub-devnet', escrow, 'uatom')).toBe(escrowed);
    const intermediate = pfmIntermediateReceiver('osmo', 'channel-0', sender);
    expect(net.balance('osmosis-devnet', intermediate, ibcDenom('transfer/channel-0/uatom'))).toBe(0n);
  });

  it('refunds along the whole path when the last hop fails: hub → osmosis → noble → (channel-9)', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 3);
    const memo = JSON.stringify({
      forward: {
        receiver: 'pfm',
        port: 'transfer',
        channel: 'channel-1',
        next: { forward: { receiver: 'cosmos1x', port: 'transfer', channel: 'channel-9' } },
      },
    });
    const osmosisEscrow = escrowAddress('osmo', 'channel-1');
    const atomOnOsmosis = ibcDenom('transfer/channel-0/uatom');
    net.send('cosmoshub-devnet', 'osmosis-devnet', sender, 'pfm', 'uatom', 900n, memo);
    net.run(20);
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(900n);
    // Osmosis's escrow toward Noble let go of the voucher it held for the failed forward (burnt, as minted on receive).
    expect(net.balance('osmosis-devnet', osmosisEscrow, atomOnOsmosis)).toBe(0n);
  });

  it('retries a forward that timed out as many times as the memo says, then refunds the sender', () => {
    const net = cosmosDevnetInProcess();
    const sender = net.address('cosmoshub-devnet', 6);
    const receiver = net.address('noble-devnet', 3);
    const memo = JSON.stringify({
      forward: { receiver, port: 'transfer', channel: 'channel-1', timeout: '1ns', retries: 1 },
    });
    const osmosisEscrow = escrowAddress('osmo', 'channel-1');
    const atomOnOsmosis = ibcDenom('transfer/channel-0/uatom');
    net.send('cosmoshub-devnet', 'osmosis-devnet', sender, 'pfm', 'uatom', 300n, memo);
    net.run(20);
    const osmosis = net.chain('osmosis-devnet').queryState;
    // Sequences 1 and 2 on Osmosis's channel-1: the forward and its retry, both timed out.
    expect(osmosis.get('ibc/nextSequenceSend/channel-1')).toBe('3');
    expect(JSON.parse(osmosis.get('ibc/acks/channel-0/1')!).ack).toBe(
      '{"error":"packet-forward-middleware error: giving up on packet on channel (channel-1) port (transfer) after max retries"}',
    );
    expect(net.balance('cosmoshub-devnet', sender, 'uatom')).toBe(300n);
    expect(net.balance('osmosis-devnet', osmosisEscrow, atomOnOsmosis)).toBe(0n);
    expect(
      net.balance('noble-devnet', receiver, ibcDenom('transfer/channel-0/transfer/channel-0/uatom')),
    ).toBe(0n);
  });
});
