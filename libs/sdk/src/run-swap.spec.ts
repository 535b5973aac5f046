import { createHash } from 'node:crypto';
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { base64 } from '@scure/base';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test code: the gateway's issuer and verifier (see cosmos-signers.spec.ts)
import * as gateway from '../../chains/src/families/cosmos';
import { createGatewayClient } from './client';
import { cosmosSigner } from './cosmos-signers';
import { RunSwapEvent, runSwap } from './run-swap';
import { customSigner, SigningPayload } from './signers';

// runSwap against a scripted gateway (a fake fetch answering as the API does): the route chosen,
// the build's Idempotency-Key, 202 polls, a payload still offered just after its submission (not
// signed twice), a payload that expired while signing (signed again, fresh), the end at 409
// EXECUTION_TERMINAL, then the swap read.
describe('runSwap', () => {
  const meta = { requestId: 'r', timestamp: '2026-01-01T00:00:00.000Z' };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const payload = (data: string): SigningPayload => ({
    type: 'evm-transaction',
    transaction: {
      chainId: '1',
      from: '0x1',
      to: '0x2',
      data,
      value: '0',
      nonce: '0',
      gasLimit: '1',
      maxFeePerGas: '1',
      maxPriorityFeePerGas: '1',
    },
  });
  const ready = (current: number, p: SigningPayload) =>
    json(200, {
      data: {
        swapId: 's1',
        status: 'awaiting_signature',
        mode: 'sync',
        nextAction: 'sign',
        signing: {
          step: { current, total: 2 },
          payload: p,
          clientHints: {},
          executionHints: {},
          expiresAtMs: 1,
          readyAtMs: 1,
        },
      },
      meta,
    });
  const pending = () =>
    json(202, {
      data: {
        swapId: 's1',
        status: 'planning',
        mode: 'async',
        nextAction: 'poll',
        pollAfterMs: 1,
        signing: { readyAtMs: null },
      },
      meta,
    });

  it('quotes, builds, signs each payload once, re-signs an expired one, and returns the ended swap', async () => {
    const requests: string[] = [];
    let buildKey: string | null = null;
    let buildBody: Record<string, unknown> = {};
    const polls = [
      pending,
      () => ready(1, payload('0xa')),
      () => ready(1, payload('0xa')), // just submitted: the read model has not moved on
      pending,
      () => ready(2, payload('0xb')),
      () => ready(2, payload('0xc')), // after tx_request_expired: a fresh payload for step 2
      () =>
        json(409, {
          error: { code: 'EXECUTION_TERMINAL', message: 'ended', details: { status: 'completed' } },
          meta,
        }),
    ];
    const submits = [
      () =>
        json(200, {
          data: {
            swapId: 's1',
            status: 'submitted',
            nextAction: 'poll',
            pollAfterMs: 1,
            step: { current: 1, total: 2 },
            txHash: '0x11',
          },
          meta,
        }),
      () => json(409, { error: { code: 'tx_request_expired', message: 'expired' }, meta }),
      () =>
        json(200, {
          data: {
            swapId: 's1',
            status: 'submitted',
            nextAction: 'poll',
            pollAfterMs: 1,
            step: { current: 2, total: 2 },
            txHash: '0x22',
          },
          meta,
        }),
    ];
    const pollQueries: string[] = [];
    const fetch = async (request: Request) => {
      const url = new URL(request.url);
      const path = url.pathname;
      requests.push(`${request.method} ${path}`);
      if (request.method === 'GET' && path === '/api/v1/swap/s1/signing') pollQueries.push(url.search);
      if (request.method === 'POST' && path === '/api/v1/quote')
        return json(200, { data: { quoteId: 'q1', routes: [{ routeId: 'r1' }, { routeId: 'r2' }] }, meta });
      if (request.method === 'POST' && path === '/api/v1/swap/build') {
        buildKey = request.headers.get('idempotency-key');
        buildBody = (await request.json()) as Record<string, unknown>;
        return json(202, {
          data: {
            swapId: 's1',
            status: 'planning',
            mode: 'async',
            nextAction: 'poll',
            pollAfterMs: 1,
            signing: { readyAtMs: null },
          },
          meta,
        });
      }
      if (request.method === 'GET' && path === '/api/v1/swap/s1/signing') return polls.shift()!();
      if (request.method === 'POST' && path === '/api/v1/swap/s1/signing') return submits.shift()!();
      if (request.method === 'GET' && path === '/api/v1/swap/s1')
        return json(200, { data: { swapId: 's1', status: 'completed', failure: null, steps: [] }, meta });
      return json(404, { error: { code: 'NOT_FOUND', message: path }, meta });
    };
    const client = createGatewayClient({ baseUrl: 'http://gw/api/v1', apiKey: 'k', fetch: fetch as never });
    const signed: string[] = [];
    const events: RunSwapEvent['type'][] = [];
    const result = await runSwap({
      client,
      quoteRequest: { fromChain: 'a', toChain: 'a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' },
      route: 'r2',
      userAddress: '0xuser',
      build: { gasPayment: 'user' },
      idempotencyKey: 'key-1',
      signers: [
        customSigner(['evm-transaction'], async (p) => {
          const data = p.type === 'evm-transaction' ? p.transaction.data : '';
          signed.push(data);
          return `signed-${data}`;
        }),
      ],
      pollIntervalMs: 1,
      onEvent: (e) => events.push(e.type),
    });

    expect(buildKey).toBe('key-1');
    expect(buildBody).toEqual({ gasPayment: 'user', quoteId: 'q1', routeId: 'r2', userAddress: '0xuser' });
    expect(signed).toEqual(['0xa', '0xb', '0xc']);
    expect(result.submitted.map((s) => s.txHash)).toEqual(['0x11', '0x22']);
    expect(result.swap).toMatchObject({ swapId: 's1', status: 'completed' });
    expect(events).toEqual([
      'quoted',
      'built',
      'waiting',
      'signing',
      'submitted',
      'waiting',
      'signing',
      'signing',
      'submitted',
      'finished',
    ]);
    expect(requests.at(-1)).toBe('GET /api/v1/swap/s1');
    // Each poll waits for the next payload at the gateway (20 s by default).
    expect(pollQueries.length).toBeGreaterThan(0);
    expect(new Set(pollQueries)).toEqual(new Set(['?waitForTxRequestMs=20000']));
  });

  it('throws the error answer as GatewayApiError, and refuses a payload no signer handles', async () => {
    const fetch = async (request: Request) =>
      new URL(request.url).pathname === '/api/v1/quote'
        ? json(200, { data: { quoteId: 'q1', routes: [{ routeId: 'r1' }] }, meta })
        : new URL(request.url).pathname === '/api/v1/swap/build'
          ? json(200, { data: { swapId: 's1', mode: 'sync' }, meta })
          : ready(1, { type: 'solana-versioned-transaction', transaction: 'AA==' });
    const client = createGatewayClient({ baseUrl: 'http://gw/api/v1', apiKey: 'k', fetch: fetch as never });
    await expect(
      runSwap({
        client,
        quoteRequest: { fromChain: 'a', toChain: 'a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' },
        userAddress: '0xuser',
        signers: [customSigner(['evm-transaction'], async () => '0x')],
      }),
    ).rejects.toThrow('no signer for a solana-versioned-transaction payload (step 1/2)');

    const failing = createGatewayClient({
      baseUrl: 'http://gw/api/v1',
      apiKey: 'k',
      fetch: (async () =>
        json(400, { error: { code: 'UNKNOWN_CHAIN', message: 'no such chain' }, meta })) as never,
    });
    await expect(
      runSwap({
        client: failing,
        quoteRequest: { fromChain: 'x', toChain: 'a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' },
        userAddress: '0xuser',
        signers: [],
      }),
    ).rejects.toMatchObject({ name: 'GatewayApiError', status: 400, code: 'UNKNOWN_CHAIN' });
  });

  it('signs a cosmos-sign-direct payload with the Cosmos signer and submits the TxRaw the gateway verifies', async () => {
    // A key wallet: signing is under test, not BIP-39 derivation (PBKDF2, seconds on a loaded machine).
    const wallet = await DirectSecp256k1Wallet.fromKey(
      createHash('sha256').update('swapgw run-swap spec').digest(),
      'cosmos',
    );
    const [account] = await wallet.getAccounts();
    const built = gateway.buildCosmosSignDoc({
      chainId: 'cosmoshub-devnet',
      bech32Prefix: 'cosmos',
      signerAddress: account.address,
      signerPubkey: base64.encode(account.pubkey),
      accountNumber: '12',
      sequence: '0',
      msgs: [
        {
          typeUrl: gateway.MSG_SEND_TYPE_URL,
          value: {
            fromAddress: account.address,
            toAddress: account.address,
            amount: [{ denom: 'uatom', amount: '1' }],
          },
        },
      ],
      gasLimit: '100000',
      fee: [{ denom: 'uatom', amount: '500' }],
    });
    if (built.kind !== 'ready') throw new Error(built.reason);
    const cosmos = built.payload;
    const polls = [
      () => ready(1, cosmos),
      () => json(409, { error: { code: 'EXECUTION_TERMINAL', message: 'ended' }, meta }),
    ];
    const bodies: Array<{ rawTx?: string }> = [];
    const fetch = async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/v1/swap/build') return json(200, { data: { swapId: 's1', mode: 'sync' }, meta });
      if (request.method === 'GET' && path === '/api/v1/swap/s1/signing') return polls.shift()!();
      if (request.method === 'POST' && path === '/api/v1/swap/s1/signing') {
        bodies.push((await request.json()) as { rawTx?: string });
        const data = { swapId: 's1', status: 'submitted', nextAction: 'poll', pollAfterMs: 1 };
        return json(200, { data: { ...data, step: { current: 1, total: 1 }, txHash: 'AB' }, meta });
      }
      return json(200, { data: { swapId: 's1', status: 'completed', failure: null, steps: [] }, meta });
    };
    const client = createGatewayClient({ baseUrl: 'http://gw/api/v1', apiKey: 'k', fetch: fetch as never });
    const signing: SigningPayload[] = [];
    const result = await runSwap({
      client,
      quote: { quoteId: 'q1', routes: [{ routeId: 'r1' }] } as never,
      userAddress: account.address,
      // The first signer handling the payload's type signs it: the EVM one is passed over.
      signers: [customSigner(['evm-transaction'], async () => '0x'), cosmosSigner(wallet)],
      onEvent: (e) => e.type === 'signing' && signing.push(e.payload),
    });

    expect(signing).toEqual([cosmos]);
    expect(bodies).toHaveLength(1);
    expect(gateway.verifySignedCosmosTx(cosmos, bodies[0].rawTx!).signMode).toBe('direct');
    expect(result.submitted.map((s) => s.txHash)).toEqual(['AB']);
    expect(result.swap.status).toBe('completed');
  });
});
