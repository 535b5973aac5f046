// runSwap: a whole swap for a wallet, quote → build → poll the signing endpoint → sign each payload
// with the given signers → submit → follow the swap to a terminal status.
import { GatewayApiError } from './errors';
import type { components } from './gateway-api';
import type { GatewayClient } from './client';
import type { SigningContext, SigningPayload, SubmitSignedRequest, SwapSigner } from './signers';

type Schemas = components['schemas'];
type Quote = Schemas['QuoteResponse'];
type QuoteRoute = Schemas['QuoteRouteSummaryDto'];
type QuoteRequest = Schemas['CreateQuoteDto'];
type BuildSwapRequest = Schemas['BuildSwapDto'];
type Swap = Schemas['SwapResourceDto'];
type SubmittedSigning = Schemas['SubmittedSigningResponseDto'];

export const TERMINAL_SWAP_STATUSES = ['completed', 'failed', 'expired'] as const;

/** What runSwap reports as it goes (for a progress UI or logs). */
export type RunSwapEvent =
  | { type: 'quoted'; quote: Quote; route: QuoteRoute }
  | { type: 'built'; swapId: string; mode: 'sync' | 'async' }
  | { type: 'signing'; swapId: string; step: SigningContext['step']; payload: SigningPayload }
  | { type: 'submitted'; swapId: string; step: SigningContext['step']; txHash: string }
  | { type: 'waiting'; swapId: string; status: string; pollAfterMs: number }
  | { type: 'finished'; swap: Swap };

export interface RunSwapOptions {
  client: GatewayClient;
  /** A quote you already have, or the terms to quote (exactly one). */
  quote?: Quote;
  quoteRequest?: QuoteRequest;
  /** The route: its routeId, a chooser, or the first route (the gateway ranks them) by default. */
  route?: string | ((routes: QuoteRoute[]) => QuoteRoute | undefined);
  /** The wallet that signs (and, unless the quote names another recipient, receives). */
  userAddress: string;
  /** Other fields of POST /swap/build (gasPayment, permit, waitForTxRequestMs, ...). */
  build?: Omit<BuildSwapRequest, 'quoteId' | 'routeId' | 'userAddress'>;
  /** The signers; for each payload the first whose `handles` has its type signs it. */
  signers: SwapSigner[];
  /** The build's Idempotency-Key: a random UUID by default. Reuse it to resume a build after a crash. */
  idempotencyKey?: string;
  onEvent?: (event: RunSwapEvent) => void;
  /** Longest wait for the whole swap; 15 minutes by default. */
  timeoutMs?: number;
  /** Poll interval when the gateway suggests none (a payload already submitted); 500 ms by default. */
  pollIntervalMs?: number;
  /**
   * How long each signing poll may wait for the next payload (its `waitForTxRequestMs`): the poll
   * answers as soon as the payload exists. 20 s by default; 0 polls every `pollAfterMs` instead.
   */
  pollWaitMs?: number;
  signal?: AbortSignal;
}

export interface RunSwapResult {
  swapId: string;
  /** The swap as GET /swap/{swapId} reads it at the end: `status` is completed, failed or expired. */
  swap: Swap;
  /** Every submission's answer, in step order. */
  submitted: SubmittedSigning[];
}

/** The body of a success; throws GatewayApiError for an error answer. */
function dataOf<D extends { data: unknown }>(result: {
  data?: D;
  error?: unknown;
  response: Response;
}): D['data'] {
  if (result.data !== undefined) return result.data.data;
  const body = result.error as {
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
  throw new GatewayApiError(
    result.response.status,
    body?.error ?? { code: 'HTTP_ERROR', message: result.response.statusText },
  );
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

function chooseRoute(quote: Quote, route: RunSwapOptions['route']): QuoteRoute {
  const chosen =
    typeof route === 'string'
      ? quote.routes.find((r) => r.routeId === route)
      : typeof route === 'function'
        ? route(quote.routes)
        : quote.routes[0];
  if (!chosen)
    throw new Error(`no route ${typeof route === 'string' ? route : 'chosen'} in quote ${quote.quoteId}`);
  return chosen;
}

/**
 * Runs a swap to its end and returns it. A payload is signed once per step (a fresh payload for the
 * same step, after the first expired unsigned, is signed again); the swap's end is the signing
 * endpoint's 409 EXECUTION_TERMINAL, after which the swap is read. A swap that ends `failed` or
 * `expired` is returned, not thrown: read `swap.status` and `swap.failure`. Error answers of the
 * gateway throw GatewayApiError (its `code` is the catalog's).
 */
export async function runSwap(options: RunSwapOptions): Promise<RunSwapResult> {
  const { client, signal } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
  const emit = (event: RunSwapEvent) => options.onEvent?.(event);
  const { quoteRequest } = options;
  if (!options.quote === !quoteRequest) throw new Error('give exactly one of quote and quoteRequest');

  const quote =
    options.quote ?? dataOf(await client.POST('/quote', { body: quoteRequest as QuoteRequest, signal }));
  const route = chooseRoute(quote, options.route);
  emit({ type: 'quoted', quote, route });

  const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  const built = dataOf(
    await client.POST('/swap/build', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: {
        ...options.build,
        quoteId: quote.quoteId,
        routeId: route.routeId,
        userAddress: options.userAddress,
      },
      signal,
    }),
  );
  const { swapId } = built;
  emit({ type: 'built', swapId, mode: built.mode });

  const pollWaitMs = options.pollWaitMs ?? 20_000;
  const submitted: SubmittedSigning[] = [];
  let lastSubmitted = { step: 0, payload: '' };
  for (;;) {
    if (Date.now() > deadline) throw new Error(`swap ${swapId} did not end within the timeout`);
    const polledAt = Date.now();
    const polled = await client.GET('/swap/{swapId}/signing', {
      params: { path: { swapId }, query: pollWaitMs > 0 ? { waitForTxRequestMs: pollWaitMs } : {} },
      signal,
    });
    if (polled.error) {
      const error = (polled.error as { error?: { code: string } }).error;
      if (polled.response.status === 409 && error?.code === 'EXECUTION_TERMINAL') break;
    }
    const answer = dataOf(polled);
    if (answer.mode === 'async') {
      emit({ type: 'waiting', swapId, status: answer.status, pollAfterMs: answer.pollAfterMs });
      // A poll that waited has waited already; one answered at once waits the rest of pollAfterMs.
      await sleep(Math.max(0, answer.pollAfterMs - (Date.now() - polledAt)), signal);
      continue;
    }
    const { step } = answer.signing;
    // Typed as the SDK's payloads: those of the API's types, and cosmos-sign-direct (see signers.ts).
    const payload: SigningPayload = answer.signing.payload;
    const same = step.current === lastSubmitted.step && JSON.stringify(payload) === lastSubmitted.payload;
    if (step.current < lastSubmitted.step || same) {
      // Submitted a moment ago; the read model has not moved on yet. (A new payload for the same
      // step, the previous one having been replaced, is signed.)
      await sleep(options.pollIntervalMs ?? 500, signal);
      continue;
    }
    const signer = options.signers.find((s) => s.handles.includes(payload.type));
    if (!signer)
      throw new Error(`no signer for a ${payload.type} payload (step ${step.current}/${step.total})`);
    emit({ type: 'signing', swapId, step, payload });
    const body: SubmitSignedRequest = await signer.sign(payload, { swapId, step });
    const result = await client.POST('/swap/{swapId}/signing', {
      params: { path: { swapId } },
      body,
      signal,
    });
    // The payload expired while the wallet signed: the next poll offers a fresh one for this step.
    if ((result.error as { error?: { code: string } } | undefined)?.error?.code === 'tx_request_expired')
      continue;
    const sent = dataOf(result);
    submitted.push(sent);
    lastSubmitted = { step: step.current, payload: JSON.stringify(payload) };
    emit({ type: 'submitted', swapId, step: sent.step, txHash: sent.txHash });
  }

  const swap = dataOf(await client.GET('/swap/{swapId}', { params: { path: { swapId } }, signal }));
  emit({ type: 'finished', swap });
  return { swapId, swap, submitted };
}
