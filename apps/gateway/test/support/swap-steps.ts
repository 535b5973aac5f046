import { parseUnits, TransactionRequest, Wallet } from 'ethers';
import { ethersTypedDataArgs, TypedDataV4 } from '@swapgw/chains';
import type { EvmTransactionPayload, RouteGasCoverage } from '@swapgw/contracts';
import { ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import type { E2eApi } from './e2e-api';

// The steps of a swap through HTTP that the e2e suites share: quote, build, poll the signing
// endpoint, submit what the wallet signed. How a wallet signs stays with each suite.

/**
 * Who a suite's swap calls go through: `client`; `poller` for the signing polls (default client:
 * the second gateway instance when the stack runs two); `documented` checks each answer against
 * the OpenAPI document the gateway serves (default: no check).
 */
export interface SwapCaller {
  client: ApiClient;
  poller?: ApiClient;
  documented?: E2eApi['documented'];
}

const unchecked = (_method: string, _path: string, res: ApiResponse): ApiResponse => res;
const documentedBy = (caller: SwapCaller) => caller.documented ?? unchecked;

/** What the suites read of a quote's route; each may read more (pass its own type). */
export interface FirstRoute {
  routeId: string;
  /** In units of tokenOut, as every amount of the API. */
  expectedAmountOut: string;
  tokenOutDecimals: number;
}

/** One entry of a route's `integratorFee` (amount in units of the input token). */
export interface RouteIntegratorFee {
  bps: number;
  amount: string;
  token: string;
  chain: string;
  recipient: string;
}

/** What the integrator-fee suites read of a route. */
export interface FeeRoute {
  routeId: string;
  provider?: string;
  amountIn: string;
  expectedAmountOut: string;
  minAmountOut: string;
  slippageBps: number;
  tokenOutDecimals: number;
  integratorFee: RouteIntegratorFee[];
  gasCoverage: RouteGasCoverage;
}

/** A route's expected output in base units of tokenOut, to compare with balances read on chain. */
export function expectedOutBaseUnits(
  route: Pick<FirstRoute, 'expectedAmountOut' | 'tokenOutDecimals'>,
): bigint {
  return parseUnits(route.expectedAmountOut, route.tokenOutDecimals);
}

/** A quote that must succeed (200, at least one route), and its first route. */
export async function quoteFirstRoute<Route = FirstRoute>(
  caller: SwapCaller,
  body: Record<string, unknown>,
  options: { timeoutMs?: number } = {},
): Promise<{ quoteId: string; route: Route }> {
  const res = documentedBy(caller)('POST', '/quote', await caller.client.post('/quote', body, options));
  expect(res.status).toBe(200);
  expect(res.body.data.routes.length).toBeGreaterThan(0);
  return { quoteId: res.body.data.quoteId as string, route: res.body.data.routes[0] as Route };
}

/** POST /swap/build that must be accepted (200, or 202 while the payload is still planned); the swap id. */
export async function buildSwapId(caller: SwapCaller, body: Record<string, unknown>): Promise<string> {
  const res = documentedBy(caller)('POST', '/swap/build', await caller.client.post('/swap/build', body));
  expect([200, 202]).toContain(res.status);
  return res.body.data.swapId as string;
}

/**
 * Polls GET /swap/{id}/signing (through the poller) until it offers a step after `afterStep` (200)
 * or the swap is terminal (409); anything else than 200 or 202 meanwhile fails the test.
 */
export function nextSigning(
  caller: SwapCaller,
  swapId: string,
  afterStep = 0,
  timeoutMs = 120_000,
): Promise<ApiResponse> {
  const poller = caller.poller ?? caller.client;
  return waitFor(
    async () => {
      const path = `/swap/${swapId}/signing`;
      const res = documentedBy(caller)('GET', path, await poller.get(path));
      if (res.status === 200 && res.body.data.signing.step.current > afterStep) return res;
      if (res.status === 409) return res;
      expect([200, 202]).toContain(res.status);
      return null;
    },
    { timeoutMs, intervalMs: 300, description: `swap ${swapId} to offer step ${afterStep + 1} or end` },
  );
}

/** POST /swap/{id}/signing with what the wallet signed (a raw transaction or a signature). */
export async function submitSigned(caller: SwapCaller, swapId: string, rawTx: string): Promise<ApiResponse> {
  const path = `/swap/${swapId}/signing`;
  return documentedBy(caller)('POST', path, await caller.client.post(path, { rawTx }));
}

/** A step GET /swap/{id}/signing offers (`data.signing`), as the suites read it. */
export interface OfferedSigning {
  step: { current: number; total: number };
  payload: {
    type: string;
    transaction?: EvmTransactionPayload;
    typedData?: TypedDataV4;
    [field: string]: unknown;
  };
  executionHints: Record<string, string>;
  clientHints: Record<string, string>;
}

/** The payload's transaction as ethers signs it: as the API gives it (nonce and amounts as decimal strings). */
export function signableTransaction(signing: OfferedSigning): TransactionRequest {
  expect(signing.payload.type).toBe('evm-transaction');
  return signing.payload.transaction as unknown as TransactionRequest;
}

/**
 * Goes through a swap's steps as the wallet does: each step offered after the previous one goes to
 * `handle` (which signs or sends it and submits it), until the swap is terminal (409
 * EXECUTION_TERMINAL) with `terminal` among its details (default: completed). The steps handled, in
 * order.
 */
export async function handleEveryStep(
  caller: SwapCaller,
  swapId: string,
  handle: (signing: OfferedSigning) => Promise<void>,
  terminal: Record<string, unknown> = { status: 'completed' },
): Promise<OfferedSigning[]> {
  const handled: OfferedSigning[] = [];
  let step = 0;
  for (;;) {
    const res = await nextSigning(caller, swapId, step);
    if (res.status === 409) {
      expect(res.body.error).toMatchObject({ code: 'EXECUTION_TERMINAL', details: terminal });
      return handled;
    }
    const signing = res.body.data.signing as OfferedSigning;
    await handle(signing);
    handled.push(signing);
    step = signing.step.current;
  }
}

/**
 * Sends every step of a swap whose steps are the wallet's own EVM transactions, as the wallet does:
 * each `evm-transaction` signed by `sign` and submitted (200), until the swap is terminal with
 * `terminal` (default: completed). The transactions signed, in order.
 */
export async function signEveryTransaction(
  caller: SwapCaller,
  swapId: string,
  sign: (transaction: TransactionRequest) => Promise<string>,
  terminal?: Record<string, unknown>,
): Promise<TransactionRequest[]> {
  const handled = await handleEveryStep(
    caller,
    swapId,
    async (signing) => {
      const submitted = await submitSigned(caller, swapId, await sign(signableTransaction(signing)));
      expect(submitted.status).toBe(200);
    },
    terminal,
  );
  return handled.map(signableTransaction);
}

/**
 * Signs every step of a gas-covered swap as typed data until the swap completes: each must be
 * `evm-typed-data` the service pays for (`gasPaidBy: service`, `userPaysWei: 0`). The typed data
 * signed, in order.
 */
export async function signTypedDataUntilCompleted(
  caller: SwapCaller,
  swapId: string,
  wallet: Wallet,
): Promise<TypedDataV4[]> {
  const handled = await handleEveryStep(caller, swapId, async (signing) => {
    expect(signing.payload.type).toBe('evm-typed-data');
    expect(signing.executionHints).toMatchObject({ gasPaidBy: 'service', userPaysWei: '0' });
    const { domain, types, value } = ethersTypedDataArgs(signing.payload.typedData as TypedDataV4);
    const submitted = await submitSigned(caller, swapId, await wallet.signTypedData(domain, types, value));
    expect(submitted.status).toBe(200);
  });
  return handled.map((signing) => signing.payload.typedData as TypedDataV4);
}

/** A small same-chain quote (1 USDC → DAI on devnet-a) that any stack answers. */
export const SMALL_QUOTE = {
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'USDC',
  tokenOut: 'DAI',
  amount: '1',
};

export interface QuotedRoute {
  quoteId: string;
  routeId: string;
}

/** SMALL_QUOTE, which must succeed, and its first route as a build names it. */
export async function freshQuote(client: ApiClient): Promise<QuotedRoute> {
  const { quoteId, route } = await quoteFirstRoute({ client }, SMALL_QUOTE, { timeoutMs: 60_000 });
  return { quoteId, routeId: route.routeId };
}

/**
 * POST /swap/build with an Idempotency-Key, waiting up to `waitForTxRequestMs` for the payload; the
 * answer as it is. The wallet pays its own gas (gasPayment user): the fault suites count its nonces
 * to prove each step was broadcast once.
 */
export function buildSwap(
  client: ApiClient,
  key: string,
  route: QuotedRoute,
  userAddress: string,
  waitForTxRequestMs: number,
): Promise<ApiResponse> {
  return client.post(
    '/swap/build',
    { ...route, userAddress, gasPayment: 'user', waitForTxRequestMs },
    { idempotencyKey: key, timeoutMs: 60_000 },
  );
}

/** Polls a swap's signing payload until it is ready (200). */
export async function untilSigningReady(client: ApiClient, swapId: string): Promise<ApiResponse> {
  return waitFor(
    async () => {
      const res = await client.get(`/swap/${swapId}/signing`);
      return res.status === 200 ? res : undefined;
    },
    { timeoutMs: 150_000, intervalMs: 500, description: `swap ${swapId} signing payload ready` },
  );
}

/**
 * The balance a payout makes once it is there (a bridge release, a destination swap), for a
 * recipient that starts at 0: `read` polled until it is above 0.
 */
export function firstPayment(read: () => Promise<bigint>, description: string): Promise<bigint> {
  return waitFor(
    async () => {
      const balance = await read();
      return balance > 0n ? balance : null;
    },
    { timeoutMs: 60_000, intervalMs: 300, description },
  );
}
