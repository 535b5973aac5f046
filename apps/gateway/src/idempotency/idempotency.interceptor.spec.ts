import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, Observable, of } from 'rxjs';
import type { GatewayReply, GatewayRequest } from '../common/http/gateway-request';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import type {
  ClaimOutcome,
  IdempotencyClaim,
  IdempotentResponseRepository,
  ClaimRead,
  ReadWithClaim,
  StoredResponse,
} from './idempotent-response.repository';
import { IDEMPOTENT_ROUTE, IdempotentOptions } from './idempotent-route';

const CLAIM: IdempotencyClaim = { id: '1', claimedAt: '2026-11-29 23:00:00+00' };

/** The records' store as the interceptor uses it: one outcome for every claim, and what was stored. */
class FakeStore implements Pick<IdempotentResponseRepository, 'claim' | 'complete' | 'release'> {
  reads: Array<ReadWithClaim | undefined> = [];
  completed: Array<{ status: number; response: StoredResponse }> = [];
  released = 0;
  constructor(private readonly outcome: ClaimOutcome) {}
  async claim(_scope: unknown, _fingerprint: string, read?: ReadWithClaim): Promise<ClaimOutcome> {
    this.reads.push(read);
    return this.outcome;
  }
  async complete(_claim: IdempotencyClaim, status: number, response: StoredResponse): Promise<void> {
    this.completed.push({ status, response });
  }
  async release(): Promise<void> {
    this.released += 1;
  }
}

function intercepted(
  store: FakeStore,
  options: IdempotentOptions,
  handle: (request: GatewayRequest) => unknown,
) {
  const handler = () => undefined;
  Reflect.defineMetadata(IDEMPOTENT_ROUTE, options, handler);
  const request = {
    headers: { 'idempotency-key': 'key-1' },
    owner: 'alice',
    method: 'POST',
    routeOptions: { url: '/api/v1/swap/build' },
    body: { quoteId: 'q', routeId: 'r' },
    params: {},
  } as unknown as GatewayRequest;
  const reply = { statusCode: 202, header: jest.fn(), status: jest.fn() } as unknown as GatewayReply;
  const context = {
    getType: () => 'http',
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of(handle(request)) };
  const interceptor = new IdempotencyInterceptor(
    new Reflector(),
    store as unknown as IdempotentResponseRepository,
  );
  return interceptor.intercept(context, next).then((answer: Observable<unknown>) => lastValueFrom(answer));
}

/** A read as a route declares one (its SQL is not run here: the store is a fake). */
const ONE_READ: ClaimRead = { name: 'one', arity: 1, sql: (row) => `SELECT ${row}."arg1"` };

describe('IdempotencyInterceptor', () => {
  it("sends the route's read with the claim and hands its answer to the handler with the claim", async () => {
    const store = new FakeStore({ outcome: 'claimed', claim: CLAIM, readWithClaim: { plan: 'p' } });
    const read: ReadWithClaim = { read: ONE_READ, args: ['a'] };
    let seen: unknown;

    await intercepted(store, { required: false, readWithClaim: () => read }, (request) => {
      seen = request.idempotencyClaim?.readWithClaim;
      return { ok: true };
    });

    expect(store.reads).toEqual([read]);
    expect(seen).toEqual({ plan: 'p' });
  });

  it('stores the answer after the handler, unless the handler completed the claim in its own statement', async () => {
    const store = new FakeStore({ outcome: 'claimed', claim: CLAIM });

    expect(await intercepted(store, { required: false }, () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(store.completed).toEqual([{ status: 202, response: { kind: 'data', data: { n: 1 } } }]);

    const answer = await intercepted(store, { required: false }, (request) => {
      request.idempotencyClaim?.completionWith(202, { n: 2 }).completed();
      return { n: 2 };
    });

    expect(answer).toEqual({ n: 2 });
    expect(store.completed).toHaveLength(1);
  });

  it('stores the answer after the handler when its statement did not complete the claim (taken over meanwhile)', async () => {
    const store = new FakeStore({ outcome: 'claimed', claim: CLAIM });

    await intercepted(store, { required: false }, (request) => {
      request.idempotencyClaim?.completionWith(202, { n: 3 }); // sent, but the statement completed nothing
      return { n: 3 };
    });

    expect(store.completed).toEqual([{ status: 202, response: { kind: 'data', data: { n: 3 } } }]);
  });

  it('replays a stored answer without running the handler or using what was read with the claim', async () => {
    const store = new FakeStore({
      outcome: 'replay',
      status: 202,
      response: { kind: 'data', data: { replayed: true } },
    });
    const handle = jest.fn();

    const answer = await intercepted(
      store,
      { required: false, readWithClaim: () => ({ read: ONE_READ, args: ['a'] }) },
      handle,
    );

    expect(answer).toEqual({ replayed: true });
    expect(handle).not.toHaveBeenCalled();
  });
});
