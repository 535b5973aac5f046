import { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge-endpoint';
import { BridgeRelayer, RelayerLogger } from './bridge-relayer';

class FakeEndpoint implements BridgeEndpoint {
  deposits: BridgeTransfer[] = [];
  released: BridgeTransfer[] = [];
  failNextReleases = 0;
  closed = false;

  constructor(
    readonly chain: string,
    readonly bridgeChainId: bigint,
  ) {}

  async pollDeposits(): Promise<BridgeTransfer[]> {
    const batch = this.deposits;
    this.deposits = [];
    return batch;
  }

  async release(transfer: BridgeTransfer): Promise<ReleaseOutcome> {
    if (this.failNextReleases > 0) {
      this.failNextReleases -= 1;
      throw new Error('rpc down');
    }
    this.released.push(transfer);
    return { status: 'released', txHash: `0x${this.released.length}` };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

class RecordingLogger implements RelayerLogger {
  lines: { level: string; message: unknown }[] = [];
  log(message: unknown) {
    this.lines.push({ level: 'log', message });
  }
  warn(message: unknown) {
    this.lines.push({ level: 'warn', message });
  }
  error(message: unknown) {
    this.lines.push({ level: 'error', message });
  }
}

const transfer = (source: FakeEndpoint, destination: bigint, nonce: bigint): BridgeTransfer => ({
  sourceChain: source.chain,
  sourceBridgeChainId: source.bridgeChainId,
  nonce,
  destinationBridgeChainId: destination,
  recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amount: 999_500_000n,
  depositTxHash: `0xdeposit${nonce}`,
});

describe('BridgeRelayer', () => {
  let a: FakeEndpoint;
  let b: FakeEndpoint;
  let logger: RecordingLogger;
  let relayer: BridgeRelayer;

  beforeEach(() => {
    a = new FakeEndpoint('devnet-a', 31337n);
    b = new FakeEndpoint('devnet-b', 31338n);
    logger = new RecordingLogger();
    relayer = new BridgeRelayer([a, b], { pollIntervalMs: 60_000, logger });
  });

  it('releases each deposit on the endpoint its destination chain id names', async () => {
    a.deposits.push(transfer(a, 31338n, 0n));
    b.deposits.push(transfer(b, 31337n, 0n), transfer(b, 31337n, 1n));

    await relayer.pollOnce();

    expect(b.released.map((t) => [t.sourceChain, t.nonce])).toEqual([['devnet-a', 0n]]);
    expect(a.released.map((t) => [t.sourceChain, t.nonce])).toEqual([
      ['devnet-b', 0n],
      ['devnet-b', 1n],
    ]);
    expect(relayer.pendingTransfers()).toHaveLength(0);
  });

  it('keeps a transfer whose release failed and releases it on a later poll', async () => {
    a.deposits.push(transfer(a, 31338n, 7n));
    b.failNextReleases = 1;

    await relayer.pollOnce();
    expect(b.released).toHaveLength(0);
    expect(relayer.pendingTransfers()).toHaveLength(1);
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);

    await relayer.pollOnce();
    expect(b.released.map((t) => t.nonce)).toEqual([7n]);
    expect(relayer.pendingTransfers()).toHaveLength(0);
  });

  it('drops, with an error log, a deposit to a chain no endpoint serves', async () => {
    a.deposits.push(transfer(a, 999n, 3n));

    await relayer.pollOnce();

    expect(a.released).toHaveLength(0);
    expect(b.released).toHaveLength(0);
    expect(relayer.pendingTransfers()).toHaveLength(0);
    expect(logger.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: expect.objectContaining({ destinationChainId: '999' }),
      }),
    ]);
  });

  it('closes every endpoint on stop', async () => {
    await relayer.start();
    await relayer.stop();
    expect([a.closed, b.closed]).toEqual([true, true]);
  });
});
