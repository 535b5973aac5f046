import { json, LocalUpstream } from '../../../test/support/local-upstream';
import { skipError } from '../../../test/support/skip-go-upstream';
import { SkipGoApi } from './skip-go-api';
import { skipRouteStatus, SkipGoStatusReader } from './skip-go-status';

const HASH = 'EEC65138E6A7BDD047ED0D4BBA249A754F0BBBC7AA976568C4F35A32CD7FB8EB';

/** A /v2/tx/status answer with one tracked transfer, as Skip documents it. */
function statusAnswer(state: string, extra: Record<string, unknown> = {}) {
  const transfer = {
    state,
    transfer_sequence: [
      {
        ibc_transfer: {
          from_chain_id: 'cosmoshub-4',
          to_chain_id: 'osmosis-1',
          state: state === 'STATE_COMPLETED_SUCCESS' ? 'TRANSFER_SUCCESS' : 'TRANSFER_PENDING',
          packet_txs: {
            send_tx: { chain_id: 'cosmoshub-4', tx_hash: HASH, explorer_link: 'https://example.invalid' },
            receive_tx: null,
            acknowledge_tx: null,
            timeout_tx: null,
            error: null,
          },
        },
      },
    ],
    next_blocking_transfer: null,
    transfer_asset_release: null,
    error: null,
    ...extra,
  };
  return { transfers: [transfer], ...transfer };
}

describe('skipRouteStatus: every state of /v2/tx/status', () => {
  it.each([
    ['STATE_SUBMITTED', 'pending'],
    ['STATE_PENDING', 'pending'],
    ['STATE_RECEIVED', 'pending'],
    ['STATE_PENDING_ERROR', 'pending'],
    ['STATE_COMPLETED_SUCCESS', 'confirmed'],
    ['STATE_COMPLETED_ERROR', 'failed'],
    ['STATE_ABANDONED', 'failed'],
    ['STATE_UNKNOWN', 'failed'],
  ])('%s is %s', (state, status) => {
    expect(skipRouteStatus(statusAnswer(state))).toMatchObject({ state, status });
  });

  it('gives the reason of a failure and where the funds were released', () => {
    const failed = statusAnswer('STATE_COMPLETED_ERROR', {
      error: {
        code: 1,
        message: 'swap failed: slippage exceeded',
        type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      },
      transfer_asset_release: { chain_id: 'osmosis-1', denom: 'uosmo', released: true },
    });
    expect(skipRouteStatus(failed)).toEqual({
      status: 'failed',
      state: 'STATE_COMPLETED_ERROR',
      reason: 'The route failed: swap failed: slippage exceeded',
      released: { chainId: 'osmosis-1', denom: 'uosmo' },
    });
    expect(skipRouteStatus(statusAnswer('STATE_ABANDONED')).reason).toMatch(/stopped tracking/);
    expect(skipRouteStatus(statusAnswer('STATE_COMPLETED_SUCCESS')).reason).toBeUndefined();
  });

  it('reads the older answer (the transfer at the top level) and refuses a state Skip does not document', () => {
    const { transfers: _transfers, ...older } = statusAnswer('STATE_PENDING');
    expect(skipRouteStatus(older).status).toBe('pending');
    expect(() => skipRouteStatus(statusAnswer('STATE_SOMETHING_NEW'))).toThrow(/STATE_SOMETHING_NEW/);
  });
});

describe('SkipGoStatusReader against a local server speaking the Skip Go API', () => {
  const skip = new LocalUpstream();
  let reader: SkipGoStatusReader;
  beforeAll(async () => {
    await skip.start();
    reader = new SkipGoStatusReader(new SkipGoApi({ baseUrl: skip.url, apiKey: 'k' }));
  });
  afterAll(() => skip.stop());

  it('GETs /v2/tx/status?tx_hash&chain_id', async () => {
    skip.handler = (_request, res) => json(res, 200, statusAnswer('STATE_COMPLETED_SUCCESS'));
    expect(await reader.statusOf(HASH, 'cosmoshub-4', AbortSignal.timeout(5_000))).toEqual({
      status: 'confirmed',
      state: 'STATE_COMPLETED_SUCCESS',
    });
    const [request] = skip.requests;
    expect(request.method).toBe('GET');
    expect(request.url.pathname).toBe('/v2/tx/status');
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ tx_hash: HASH, chain_id: 'cosmoshub-4' });
    expect(request.headers.authorization).toBe('k');
  });

  it('fails on an error answer (a transaction Skip does not track)', async () => {
    skip.handler = (_request, res) => skipError(res, 404, 5, 'tx not found');
    await expect(reader.statusOf(HASH, 'cosmoshub-4', AbortSignal.timeout(5_000))).rejects.toThrow(
      /tx not found/,
    );
  });
});
