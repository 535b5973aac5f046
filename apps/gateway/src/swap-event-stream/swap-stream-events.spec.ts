import { ErrorCodes, SwapEventTypes } from '@swapgw/contracts';
import { syncResponseOf } from '../swap/swap-responses';
import type { SwapViewEntity } from '../swap/swap-view.entity';
import { swapViewOf } from '../swap/swap-view.fixture';
import {
  parseLastEventId,
  SSE_KEEP_ALIVE,
  sseFrame,
  streamEventDataOf,
  TERMINAL_STREAM_EVENTS,
} from './swap-stream-events';

const SWAP_ID = '6f1c0f3e-5a4b-4c2d-9e8f-0a1b2c3d4e5f';

function view(overrides: Partial<SwapViewEntity> = {}): SwapViewEntity {
  return swapViewOf({
    swapId: SWAP_ID,
    owner: 'alice',
    createdAtMs: 1_000,
    updatedAtMs: 2_000,
    ...overrides,
  });
}

/** What an SSE client parses out of one frame. */
function parseFrame(frame: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of frame.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    fields[line.slice(0, colon)] =
      (fields[line.slice(0, colon)] ? fields[line.slice(0, colon)] + '\n' : '') + line.slice(colon + 2);
  }
  return fields;
}

describe('sseFrame', () => {
  it('writes id, event and one data line of JSON, ended by a blank line', () => {
    const data = { swapId: SWAP_ID, note: 'two\nlines', nested: { a: [1, 2] } };
    const frame = sseFrame('42', 'swap.completed', data);
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(frame.slice(0, -2)).not.toContain('\n\n');
    const fields = parseFrame(frame);
    expect(fields).toEqual({ id: '42', event: 'swap.completed', data: expect.any(String) });
    expect(JSON.parse(fields.data)).toEqual(data);
  });

  it('keep-alive is a comment a client ignores', () => {
    expect(SSE_KEEP_ALIVE).toBe(': keep-alive\n\n');
    expect(parseFrame(SSE_KEEP_ALIVE)).toEqual({});
  });
});

describe('parseLastEventId', () => {
  it('starts at the beginning without a header', () => {
    expect(parseLastEventId(undefined)).toBe('0');
    expect(parseLastEventId('')).toBe('0');
    expect(parseLastEventId('  ')).toBe('0');
  });

  it('accepts a non-negative integer up to bigint, normalised', () => {
    expect(parseLastEventId('17')).toBe('17');
    expect(parseLastEventId(' 0017 ')).toBe('17');
    expect(parseLastEventId(['5', '9'])).toBe('5');
    expect(parseLastEventId('9223372036854775807')).toBe('9223372036854775807');
  });

  it.each(['-1', '1.5', 'abc', '1e3', '0x10', '9223372036854775808', '12345678901234567890'])(
    'refuses %p with VALIDATION_FAILED on Last-Event-ID',
    (value) => {
      expect(() => parseLastEventId(value)).toThrow(
        expect.objectContaining({ code: ErrorCodes.VALIDATION_FAILED, details: { field: 'Last-Event-ID' } }),
      );
    },
  );
});

describe('streamEventDataOf', () => {
  it('signing-ready carries the body the signing endpoint answers 200 with', () => {
    const ready = view({
      status: 'awaiting_signature',
      payload: { type: 'evm-transaction', transaction: { to: '0xabc' } },
      expiresAtMs: 9_000,
      readyAtMs: 1_500,
      executionHints: { gas: '21000' },
      clientHints: { action: 'approve' },
    });
    const data = streamEventDataOf(SwapEventTypes.signingReady, ready);
    const { swapId, status, mode, nextAction, signing } = syncResponseOf(ready);
    expect(data).toEqual({
      swapId,
      status,
      mode,
      nextAction,
      signing,
      step: { current: 1, total: 2 },
      atMs: 2_000,
    });
  });

  it('step-confirming carries the transaction and its confirmations', () => {
    const data = streamEventDataOf(
      SwapEventTypes.stepConfirming,
      view({ status: 'confirming', lastTxHash: '0xfeed', confirmations: 1, confirmationsRequired: 3 }),
    );
    expect(data).toMatchObject({
      status: 'confirming',
      transaction: { txHash: '0xfeed', confirmations: 1, confirmationsRequired: 3 },
    });
  });

  it('names the chain of the transaction in flight: a Bitcoin txid is on bitcoin-devnet', () => {
    const txid = 'ab'.repeat(32);
    const step = (index: number, chain: string, txHash: string | null) => ({
      index,
      chain,
      kind: 'bridge' as const,
      status: 'submitted' as const,
      txHash,
      submittedAtMs: 1_500,
      confirmedAtMs: null,
    });
    const data = streamEventDataOf(
      SwapEventTypes.stepSubmitted,
      view({
        status: 'submitted',
        lastTxHash: txid,
        confirmations: 0,
        steps: [step(1, 'bitcoin-devnet', txid), step(2, 'devnet-a', null)],
      }),
    );
    expect(data.transaction).toEqual({
      chain: 'bitcoin-devnet',
      txHash: txid,
      confirmations: 0,
      confirmationsRequired: null,
    });
  });

  it('failed and expired carry the reason code and details', () => {
    expect(
      streamEventDataOf(
        SwapEventTypes.failed,
        view({ status: 'failed', failureReason: 'TX_REVERTED', failureDetails: { txHash: '0x1' } }),
      ),
    ).toMatchObject({
      status: 'failed',
      reason: 'TX_REVERTED',
      details: { txHash: '0x1' },
    });
    const expired = streamEventDataOf(
      SwapEventTypes.expired,
      view({ status: 'expired', failureReason: 'SWAP_DEADLINE_PASSED' }),
    );
    expect(expired).toMatchObject({ status: 'expired', reason: 'SWAP_DEADLINE_PASSED' });
    expect(expired).not.toHaveProperty('details');
  });

  it('signing-pending carries the reason and the readiness estimate; step is null before the steps are counted', () => {
    expect(
      streamEventDataOf(
        SwapEventTypes.signingPending,
        view({ stepTotal: null, readyAtMs: 5_000, pendingReason: 'awaiting bridged funds' }),
      ),
    ).toEqual({
      swapId: SWAP_ID,
      status: 'planning',
      step: null,
      atMs: 2_000,
      readyAtMs: 5_000,
      pendingReason: 'awaiting bridged funds',
    });
  });

  it('only completed, failed and expired end a stream', () => {
    expect([...TERMINAL_STREAM_EVENTS].sort()).toEqual(
      [SwapEventTypes.completed, SwapEventTypes.expired, SwapEventTypes.failed].sort(),
    );
  });
});

describe('streamEventDataOf(swap.step-packet)', () => {
  it("sends the current step's transaction and its IBC packet as the view holds them", () => {
    const packet = {
      state: 'received' as const,
      sequence: '3',
      sourceChannel: 'channel-0',
      destinationChain: 'osmosis-devnet',
      destinationChannel: 'channel-0',
      timeoutAtMs: 9_000,
      receivedTxHash: 'BB'.repeat(32),
      settledTxHash: null,
      acknowledgementError: null,
      refunded: false,
    };
    const hash = 'AA'.repeat(32);
    const data = streamEventDataOf(
      SwapEventTypes.stepPacket,
      view({
        status: 'confirming',
        stepCurrent: 1,
        stepTotal: 1,
        lastTxHash: hash,
        steps: [
          {
            index: 1,
            chain: 'cosmoshub-devnet',
            kind: 'bridge',
            status: 'confirmed',
            txHash: hash,
            submittedAtMs: 1,
            confirmedAtMs: null,
            packet,
          },
        ],
      }),
    );
    expect(data).toEqual({
      swapId: SWAP_ID,
      status: 'confirming',
      step: { current: 1, total: 1 },
      atMs: 2_000,
      transaction: { chain: 'cosmoshub-devnet', txHash: hash },
      packet,
    });
  });
});
