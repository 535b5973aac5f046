import { SystemClock } from '@swapgw/runtime';
import { CodedError, RoutePlan } from '@swapgw/contracts';
import type { CommandPublisher } from '@swapgw/messaging';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config/gateway.config';
import type { ServiceClient } from '../messaging/service-client';
import { HeldIdempotencyClaim } from '../idempotency';
import type { ClaimCompletion } from '../idempotency';
import type { ServedQuotes, ServedRoute } from '../quote/served-quotes.repository';
import type { BuildPriceChecker, PricedPlan } from './build-price-check';
import { swapViewOf } from './swap-view.fixture';
import { BuildPreflight } from './build-preflight';
import { SwapService } from './swap.service';
import { SwapViewChanges } from './swap-view-changes';
import type { SwapViewEntity } from './swap-view.entity';
import type { SwapViewRepository } from './swap-view.repository';

const OWNER = 'alice';
const payload = { type: 'evm-transaction', transaction: { chainId: '31337' } };

function view(overrides: Partial<SwapViewEntity>): SwapViewEntity {
  return swapViewOf({ swapId: 'will-be-set', owner: OWNER, ...overrides });
}

/** A read model row the test changes as the projector would (then it notifies, as the projector's NOTIFY does). */
class FakeViews implements Pick<SwapViewRepository, 'findOwned' | 'ensureCreated' | 'markSubmitted'> {
  reads = 0;
  created: string[] = [];
  submitted: Array<[string, number, string]> = [];
  /** `createsRow`: ensureCreated wrote the row (else the projector had written it first). */
  constructor(
    public row: Partial<SwapViewEntity> | null,
    private readonly createsRow = false,
  ) {}
  async findOwned(swapId: string, owner: string) {
    this.reads += 1;
    return this.row && owner === OWNER ? view({ ...this.row, swapId }) : null;
  }
  quoted: unknown[] = [];
  async ensureCreated(
    swapId: string,
    _owner: string,
    _status: string,
    _total: number | null,
    _now: number,
    _manager?: unknown,
    quoted?: unknown,
    completing?: ClaimCompletion,
  ) {
    this.created.push(swapId);
    this.quoted.push(quoted);
    // The statement completes the claim only with the row it creates.
    if (completing) {
      const parameters: unknown[] = [];
      this.completions.push({ sql: completing.completeFor('created', parameters), parameters });
      if (this.createsRow) completing.completed();
    }
    return this.createsRow;
  }
  /** The claim completions sent with ensureCreated, as SQL and values. */
  completions: Array<{ sql: string; parameters: unknown[] }> = [];
  async markSubmitted(swapId: string, step: number, txHash: string) {
    this.submitted.push([swapId, step, txHash]);
  }
}

class FakeServices implements Pick<ServiceClient, 'call' | 'unordered'> {
  calls: Array<{ type: string; payload: unknown }> = [];
  constructor(private readonly answer: (type: string) => unknown) {}
  unordered<T>(topic: string, type: string, payload: unknown): Promise<T> {
    return this.call<T>(topic, type, 'fresh-key', payload);
  }
  async call<T>(_topic: string, type: string, _key: string, payload: unknown): Promise<T> {
    this.calls.push({ type, payload });
    const answer = this.answer(type);
    if (answer instanceof Error) throw answer;
    return answer as T;
  }
}

class FakeCommands implements Pick<CommandPublisher, 'send'> {
  sent: Array<{ topic: string; type: string; key: string; payload: unknown }> = [];
  constructor(private readonly refusal?: CodedError) {}
  async send<P>(topic: string, type: string, key: string, payload: P) {
    if (this.refusal) throw this.refusal;
    this.sent.push({ topic, type, key, payload });
    return { eventId: 'e', type, version: 1, occurredAtMs: 0, aggregateId: key, payload };
  }
}

const USDC = {
  chain: 'devnet-a',
  symbol: 'USDC',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  decimals: 6,
};
const WETH = { chain: 'devnet-a', symbol: 'WETH', address: null, decimals: 18 };
const PLAN = {
  quoteId: 'q',
  routeId: 'r',
  expiresAtMs: Date.now() + 60_000,
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: USDC,
  tokenOut: WETH,
  amountIn: '25000000',
  expectedAmountOut: '1000',
  legs: [{ minAmountOut: '990' }],
} as RoutePlan;
/** Served quotes: quote q with route r only. */
const served = {
  planFor: async (_owner: string, quoteId: string, routeId: string) => {
    if (quoteId !== 'q') throw new CodedError('QUOTE_NOT_FOUND', 'unknown quote');
    if (routeId !== 'r') throw new CodedError('UNKNOWN_ROUTE', 'unknown route');
    return PLAN;
  },
} as unknown as ServedQuotes;

/** The notification hub without its LISTEN connection (never started here): tests call notify(). */
const changesHub = () =>
  new SwapViewChanges(
    {} as DataSource,
    { SWAP_VIEW_CACHE_ENTRIES: 100, SWAP_VIEW_CACHE_TTL_MS: 10_000 } as GatewayConfig,
  );

/** The build's price check: the quoted plan, as when the first leg has no price to check. */
const unchecked = { check: async (plan: RoutePlan): Promise<PricedPlan> => ({ plan }) };

function serviceOf(
  services: FakeServices,
  views: FakeViews,
  commands = new FakeCommands(),
  changes = changesHub(),
  prices: Pick<BuildPriceChecker, 'check'> = unchecked,
) {
  return new SwapService(
    services as unknown as ServiceClient,
    views as unknown as SwapViewRepository,
    changes,
    served,
    commands as unknown as CommandPublisher,
    prices as BuildPriceChecker,
    new BuildPreflight(services as unknown as ServiceClient),
    new SystemClock(),
  );
}
const noServices = () => new FakeServices(() => new Error('must not be called'));
const buildBody = { quoteId: 'q', routeId: 'r', userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };
const later = (ms: number, fn: () => void) => setTimeout(fn, ms);

describe('SwapService', () => {
  it("adds the preflight's issues of the route against the build's wallet to the answer", async () => {
    const issue = {
      code: 'INSUFFICIENT_BALANCE',
      severity: 'blocking',
      message: 'holds 10 USDC',
      chain: 'devnet-a',
      leg: 0,
      needed: '25',
      held: '10',
    };
    const services = new FakeServices((type) =>
      type === 'quote.preflight' ? { issues: [issue] } : new Error('must not be called'),
    );
    const views = new FakeViews({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 });
    const { httpStatus, body } = await serviceOf(services, views).build(OWNER, 'key-p', {
      ...buildBody,
      recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      waitForTxRequestMs: 5000,
    });
    expect(httpStatus).toBe(200);
    expect(body.issues).toEqual([issue]);
    expect(services.calls).toEqual([
      {
        type: 'quote.preflight',
        payload: {
          plan: PLAN,
          userAddress: buildBody.userAddress,
          recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
          userPaysGas: false,
        },
      },
    ]);
  });

  it('asks the preflight of a user-paid build when gasPayment is user or the build carries its own permit', async () => {
    const asked = async (body: Record<string, unknown>) => {
      const services = new FakeServices(() => ({ issues: [] }));
      const ready = { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 };
      const answer = await serviceOf(services, new FakeViews(ready)).build(OWNER, 'key-u', {
        ...buildBody,
        ...body,
      });
      expect(answer.body.issues).toEqual([]);
      return (services.calls[0].payload as { userPaysGas: boolean }).userPaysGas;
    };
    expect(await asked({ gasPayment: 'user' })).toBe(true);
    expect(await asked({ permitType: 'permit2' })).toBe(true);
    expect(await asked({ gasPayment: 'sponsored' })).toBe(false);
    expect(await asked({})).toBe(false);
  });

  it('does not ask the preflight of a build that waits for nothing (waitForTxRequestMs 0): its answer could not wait for it', async () => {
    const services = new FakeServices(() => ({ issues: [] }));
    const answer = await serviceOf(services, new FakeViews({ status: 'planning' })).build(OWNER, 'key-0', {
      ...buildBody,
      waitForTxRequestMs: 0,
    });
    expect(answer.httpStatus).toBe(202);
    expect(answer.body).not.toHaveProperty('issues');
    expect(services.calls).toEqual([]);
  });

  it('answers without issues when the preflight fails, or has not answered when the wait is over', async () => {
    const failing = new FakeServices(() => new CodedError('SERVICE_UNAVAILABLE', 'down'));
    const ready = { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 };
    const failed = await serviceOf(failing, new FakeViews(ready)).build(OWNER, 'key-f', buildBody);
    expect(failed.httpStatus).toBe(200);
    expect(failed.body).not.toHaveProperty('issues');

    const slow = new FakeServices(() => undefined);
    slow.call = () => new Promise(() => undefined);
    const started = Date.now();
    const at202 = await serviceOf(slow, new FakeViews({ status: 'planning' })).build(OWNER, 'key-s', {
      ...buildBody,
      waitForTxRequestMs: 0,
    });
    expect(at202.httpStatus).toBe(202);
    expect(at202.body).not.toHaveProperty('issues');
    expect(Date.now() - started).toBeLessThan(500);

    // A ready payload waits for a silent preflight 3 s after the build started, not its whole wait.
    const sync = Date.now();
    const at200 = await serviceOf(slow, new FakeViews(ready)).build(OWNER, 'key-r', {
      ...buildBody,
      waitForTxRequestMs: 20_000,
    });
    expect(at200.httpStatus).toBe(200);
    expect(at200.body).not.toHaveProperty('issues');
    expect(Date.now() - sync).toBeGreaterThanOrEqual(2_900);
    expect(Date.now() - sync).toBeLessThan(4_500);
  });

  it('sends nothing when the price check refuses the build (409 QUOTE_PRICE_CHANGED)', async () => {
    const views = new FakeViews(null);
    const commands = new FakeCommands();
    const refusing = {
      check: async (): Promise<PricedPlan> => {
        throw new CodedError('QUOTE_PRICE_CHANGED', 'moved', { expectedAmountOut: '0.0000000000000009' });
      },
    };
    await expect(
      serviceOf(noServices(), views, commands, changesHub(), refusing).build(OWNER, 'key-p', buildBody),
    ).rejects.toMatchObject({ code: 'QUOTE_PRICE_CHANGED' });
    expect(commands.sent).toEqual([]);

    // A retry of a build whose command went out before (its swap exists) reaches that swap.
    views.row = { status: 'planning' };
    const retried = await serviceOf(noServices(), views, commands, changesHub(), refusing).build(
      OWNER,
      'key-p',
      {
        ...buildBody,
        waitForTxRequestMs: 0,
      },
    );
    expect(retried.httpStatus).toBe(202);
    expect(commands.sent[0].payload).toMatchObject({ plan: PLAN });
  });

  it('sends the accepted plan and reports the price check in the build answer', async () => {
    const views = new FakeViews({ status: 'planning' });
    const commands = new FakeCommands();
    const repriced = { ...PLAN, expectedAmountOut: '900', legs: [{ minAmountOut: '891' }] } as RoutePlan;
    const priceCheck = {
      outcome: 'accepted' as const,
      expectedAmountOut: '0.0000000000000009',
      minAmountOut: '0.000000000000000891',
      quotedExpectedAmountOut: '0.000000000000001',
      quotedMinAmountOut: '0.00000000000000099',
      checkedAtMs: 1,
    };
    const accepting = { check: async (): Promise<PricedPlan> => ({ plan: repriced, priceCheck }) };
    const { httpStatus, body } = await serviceOf(
      noServices(),
      views,
      commands,
      changesHub(),
      accepting,
    ).build(OWNER, 'key-a', {
      ...buildBody,
      acceptedMinAmountOut: '0.000000000000000891',
      waitForTxRequestMs: 0,
    });
    expect(httpStatus).toBe(202);
    expect(body).toMatchObject({ mode: 'async', priceCheck });
    expect(commands.sent[0].payload).toMatchObject({ plan: repriced });
  });

  it('sends the build command with the route plan and answers 200 sync when the payload is projected, re-reading only when told', async () => {
    const views = new FakeViews({ status: 'planning' });
    const commands = new FakeCommands();
    const changes = changesHub();
    const answer = serviceOf(noServices(), views, commands, changes).build(OWNER, 'key-1', {
      ...buildBody,
      waitForTxRequestMs: 5000,
    });
    later(50, () => {
      views.row = { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000, readyAtMs: 1 };
      changes.notify(commands.sent[0].key);
    });

    const { httpStatus, body } = await answer;
    expect(httpStatus).toBe(200);
    expect(body).toMatchObject({
      mode: 'sync',
      nextAction: 'sign',
      signing: { step: { current: 1, total: 2 }, payload },
    });
    expect(commands.sent).toEqual([
      {
        topic: 'swap.commands',
        type: 'swap.build',
        key: body.swapId,
        payload: expect.objectContaining({
          owner: OWNER,
          quoteId: 'q',
          swapId: body.swapId,
          plan: PLAN,
          acceptedAtMs: expect.any(Number),
        }),
      },
    ]);
    expect(views.created).toEqual([body.swapId]);
    // What the quote promised is recorded with the row, for GET /swap/{swapId}.
    expect(views.quoted).toEqual([
      {
        quoteId: 'q',
        routeId: 'r',
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: USDC,
        tokenOut: WETH,
        amountIn: '25000000',
        expectedAmountOut: '1000',
        minAmountOut: '990',
      },
    ]);
    expect(views.reads).toBe(2); // once before waiting, once when notified: no polling in between
    expect(changes.waiting).toBe(0);
  });

  it('answers 202 async with a pending envelope when the wait runs out, without polling the read model', async () => {
    const views = new FakeViews({ status: 'planning' });
    const started = Date.now();
    const answer = await serviceOf(noServices(), views).build(OWNER, 'key-2', {
      ...buildBody,
      waitForTxRequestMs: 300,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer).toMatchObject({
      httpStatus: 202,
      body: {
        mode: 'async',
        nextAction: 'poll',
        signing: { step: null, expiresAtMs: null, readyAtMs: null },
      },
    });
    expect(views.reads).toBe(1); // at the start only: nothing changed until the deadline
  });

  it('reads nothing when it created the row itself, until the row changes', async () => {
    const quiet = new FakeViews({ status: 'planning' }, true);
    const answer = await serviceOf(noServices(), quiet).build(OWNER, 'key-4', {
      ...buildBody,
      waitForTxRequestMs: 200,
    });
    expect(answer).toMatchObject({ httpStatus: 202, body: { status: 'planning', mode: 'async' } });
    expect(quiet.reads).toBe(0);

    const views = new FakeViews({ status: 'planning' }, true);
    const commands = new FakeCommands();
    const changes = changesHub();
    const ready = serviceOf(noServices(), views, commands, changes).build(OWNER, 'key-5', {
      ...buildBody,
      waitForTxRequestMs: 5000,
    });
    later(50, () => {
      views.row = { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000, readyAtMs: 1 };
      changes.notify(commands.sent[0].key);
    });
    expect(await ready).toMatchObject({ httpStatus: 200 });
    expect(views.reads).toBe(1);
  });

  it('reads the row again after a second without a notification, so a lost one cannot hold the build for the whole wait', async () => {
    const views = new FakeViews({ status: 'planning' });
    const commands = new FakeCommands();
    later(100, () => {
      views.row = { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000, readyAtMs: 1 };
      // No notify: as if the LISTEN connection had died without anyone noticing.
    });
    const started = Date.now();
    const answer = await serviceOf(noServices(), views, commands).build(OWNER, 'key-lost', {
      ...buildBody,
      waitForTxRequestMs: 10_000,
    });
    expect(answer).toMatchObject({ httpStatus: 200 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(views.reads).toBe(2);
  });

  it('answers an unknown quote, an unknown route and a refused command without a view row', async () => {
    const views = new FakeViews(null);
    const commands = new FakeCommands();
    await expect(
      serviceOf(noServices(), views, commands).build(OWNER, 'k', { ...buildBody, quoteId: 'other' }),
    ).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' });
    await expect(
      serviceOf(noServices(), views, commands).build(OWNER, 'k', { ...buildBody, routeId: 'other' }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_ROUTE' });
    const kafkaDown = new FakeCommands(
      new CodedError('SERVICE_UNAVAILABLE', 'Kafka did not take the swap.build command'),
    );
    await expect(
      serviceOf(noServices(), views, kafkaDown).build(OWNER, 'k', buildBody),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(commands.sent).toEqual([]);
    expect(views.created).toEqual([]);
  });

  it('turns a build the planner refused during the wait into its reason’s error, once the reason is projected', async () => {
    // swap.created of a refused build is projected a moment before swap.failed brings the reason.
    const views = new FakeViews({ status: 'failed' });
    const commands = new FakeCommands();
    const changes = changesHub();
    const answer = serviceOf(noServices(), views, commands, changes).build(OWNER, 'key-3', {
      ...buildBody,
      waitForTxRequestMs: 5000,
    });
    later(50, () => {
      views.row = {
        status: 'failed',
        failureReason: 'VALIDATION_FAILED',
        failureDetails: { field: 'permitDeadline', message: 'permitDeadline is in the past' },
      };
      changes.notify(commands.sent[0].key);
    });
    await expect(answer).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'permitDeadline is in the past',
      details: { field: 'permitDeadline', status: 'failed', message: 'permitDeadline is in the past' },
    });
  });

  it('answers a poll of a build refused after its 202 with the build’s error, and of a swap that failed later with EXECUTION_TERMINAL', async () => {
    const refused = new FakeViews({
      status: 'failed',
      failureReason: 'SIGNING_SURFACE_UNAVAILABLE',
      failureDetails: { chains: ['ethereum'] },
    });
    await expect(serviceOf(noServices(), refused).signing(OWNER, 's')).rejects.toMatchObject({
      code: 'SIGNING_SURFACE_UNAVAILABLE',
      details: { chains: ['ethereum'] },
    });
    const failedLater = new FakeViews({
      status: 'failed',
      failureReason: 'TX_REVERTED',
      stepCurrent: 2,
      lastTxHash: '0x' + '11'.repeat(32),
    });
    await expect(serviceOf(noServices(), failedLater).signing(OWNER, 's')).rejects.toMatchObject({
      code: 'EXECUTION_TERMINAL',
    });
  });

  it('asks for a fresh payload when the ready one expired, and answers 202', async () => {
    const views = new FakeViews({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() - 1 });
    const services = new FakeServices(() => ({ swapId: 's', refreshRequested: true, status: 'planning' }));
    const answer = await serviceOf(services, views).signing(OWNER, 's');
    expect(answer).toMatchObject({ httpStatus: 202, body: { status: 'planning', mode: 'async' } });
    expect(services.calls).toEqual([
      { type: 'swap.signing.refresh', payload: { swapId: 's', owner: OWNER } },
    ]);
  });

  describe('a poll that waits (waitForTxRequestMs)', () => {
    it('answers the payload as soon as the row changes to it, reading the row once before and once after', async () => {
      const views = new FakeViews({ status: 'planning' });
      const changes = changesHub();
      const startedAt = Date.now();
      const polled = serviceOf(noServices(), views, undefined, changes).signing(OWNER, 's', 20_000);
      setTimeout(() => {
        views.row = { status: 'awaiting_signature', payload, stepCurrent: 1, stepTotal: 1 };
        changes.notify('s');
      }, 200);
      expect(await polled).toMatchObject({ httpStatus: 200, body: { mode: 'sync', signing: { payload } } });
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(views.reads).toBe(2);
      expect(changes.waiting).toBe(0);
    });

    it('answers the verdict of a build refused while it waited', async () => {
      const views = new FakeViews({ status: 'planning' });
      const changes = changesHub();
      const polled = serviceOf(noServices(), views, undefined, changes).signing(OWNER, 's', 20_000);
      setTimeout(() => {
        views.row = {
          status: 'failed',
          failureReason: 'SIGNING_SURFACE_UNAVAILABLE',
          failureDetails: { chains: ['ethereum'] },
        };
        changes.notify('s');
      }, 100);
      await expect(polled).rejects.toMatchObject({ code: 'SIGNING_SURFACE_UNAVAILABLE' });
      expect(changes.waiting).toBe(0);
    });

    it('answers 202 at the end of its wait when nothing changed, and at once without a wait', async () => {
      const views = new FakeViews({ status: 'planning' });
      const changes = changesHub();
      const service = serviceOf(noServices(), views, undefined, changes);
      const startedAt = Date.now();
      expect(await service.signing(OWNER, 's', 300)).toMatchObject({
        httpStatus: 202,
        body: { mode: 'async', nextAction: 'poll' },
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
      expect(changes.waiting).toBe(0);

      const readsBefore = views.reads;
      expect(await service.signing(OWNER, 's')).toMatchObject({ httpStatus: 202 });
      expect(views.reads - readsBefore).toBe(1);
    });

    it('answers what it has at once when the instance starts shutting down, and waits no more after', async () => {
      const views = new FakeViews({ status: 'planning' });
      const changes = changesHub();
      const service = serviceOf(noServices(), views, undefined, changes);
      const startedAt = Date.now();
      const polled = service.signing(OWNER, 's', 20_000);
      setTimeout(() => void changes.onModuleDestroy(), 100);
      expect(await polled).toMatchObject({ httpStatus: 202, body: { mode: 'async' } });
      expect(await service.signing(OWNER, 's', 20_000)).toMatchObject({ httpStatus: 202 });
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect(changes.waiting).toBe(0);
    });

    it('asks for a fresh payload of an expired one once, and answers the fresh one when it comes', async () => {
      const views = new FakeViews({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() - 1 });
      const services = new FakeServices(() => ({ swapId: 's', refreshRequested: true, status: 'planning' }));
      const changes = changesHub();
      const polled = serviceOf(services, views, undefined, changes).signing(OWNER, 's', 20_000);
      // A change that is not the fresh payload yet (the row still expired) asks nothing more.
      setTimeout(() => changes.notify('s'), 50);
      setTimeout(() => {
        views.row = {
          status: 'awaiting_signature',
          payload,
          expiresAtMs: Date.now() + 60_000,
          stepCurrent: 1,
          stepTotal: 1,
        };
        changes.notify('s');
      }, 200);
      expect(await polled).toMatchObject({ httpStatus: 200, body: { mode: 'sync' } });
      expect(services.calls.map((c) => c.type)).toEqual(['swap.signing.refresh']);
    });
  });

  it('shows the transaction in flight, with its confirmations, while the swap is submitted or confirming', async () => {
    const txHash = '0x' + 'cd'.repeat(32);
    const services = new FakeServices(() => new Error('must not be called'));
    const confirming = new FakeViews({
      status: 'confirming',
      lastTxHash: txHash,
      confirmations: 1,
      confirmationsRequired: 3,
    });
    expect(await serviceOf(services, confirming).signing(OWNER, 's')).toMatchObject({
      httpStatus: 202,
      body: {
        status: 'confirming',
        signing: { step: null },
        transaction: { txHash, confirmations: 1, confirmationsRequired: 3 },
      },
    });
    const submitted = new FakeViews({ status: 'submitted', lastTxHash: txHash });
    expect((await serviceOf(services, submitted).signing(OWNER, 's')).body).toMatchObject({
      status: 'submitted',
      transaction: { txHash, confirmations: 0, confirmationsRequired: null },
    });
    // The next step is being built: the previous step's transaction is history, not shown.
    const planning = new FakeViews({ status: 'planning', stepCurrent: 2, lastTxHash: txHash });
    expect((await serviceOf(services, planning).signing(OWNER, 's')).body).not.toHaveProperty('transaction');
  });

  it('answers 404 for another owner’s swap and 409 EXECUTION_TERMINAL for a completed one, without calling the services', async () => {
    const services = new FakeServices(() => new Error('must not be called'));
    await expect(serviceOf(services, new FakeViews(null)).signing(OWNER, 's')).rejects.toMatchObject({
      code: 'SWAP_NOT_FOUND',
    });
    const completed = new FakeViews({ status: 'completed' });
    const error = await serviceOf(services, completed)
      .submit(OWNER, 's', { rawTx: '0x01' })
      .catch((e: CodedError) => e);
    expect(error).toMatchObject({
      code: 'EXECUTION_TERMINAL',
      details: { status: 'completed', reason: null },
    });
    expect(services.calls).toEqual([]);
  });

  it('marks the submitted step spent in the read model and answers the step', async () => {
    const views = new FakeViews({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 });
    const txHash = '0x' + 'ab'.repeat(32);
    const services = new FakeServices(() => ({ swapId: 's', stepIndex: 1, txHash, status: 'submitted' }));
    const answer = await serviceOf(services, views).submit(OWNER, 's', { rawTx: '0x02' });
    expect(answer).toMatchObject({
      swapId: 's',
      txHash,
      step: { current: 1, total: 2 },
      status: 'submitted',
      nextAction: 'poll',
    });
    expect(views.submitted).toEqual([['s', 1, txHash]]);
  });

  it('forwards the hash of a transaction the wallet sent itself, without a rawTx', async () => {
    const views = new FakeViews({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 });
    const txHash = '0x' + 'cd'.repeat(32);
    const services = new FakeServices(() => ({ swapId: 's', stepIndex: 1, txHash, status: 'submitted' }));
    const answer = await serviceOf(services, views).submit(OWNER, 's', { txHash });
    expect(services.calls).toEqual([{ type: 'signing.submit', payload: { swapId: 's', txHash } }]);
    expect(answer).toMatchObject({ txHash, status: 'submitted' });
  });
});

describe('SwapService: the round trips of a build held by its Idempotency-Key claim (issue 44)', () => {
  const claim = { id: '7', claimedAt: '2026-11-29 23:00:00.123456+00' };
  const route: ServedRoute = { expiresAtMs: PLAN.expiresAtMs, plan: PLAN };
  /** Served quotes that must not be read: the route came with the claim. */
  const unread = {
    planFor: async () => {
      throw new Error('the served route was read again');
    },
  } as unknown as ServedQuotes;
  const serviceReading = (views: FakeViews, services = noServices()) =>
    new SwapService(
      services as unknown as ServiceClient,
      views as unknown as SwapViewRepository,
      changesHub(),
      unread,
      new FakeCommands() as unknown as CommandPublisher,
      unchecked as unknown as BuildPriceChecker,
      new BuildPreflight(services as unknown as ServiceClient),
      new SystemClock(),
    );
  /** A build that waits for nothing, holding `held`. */
  const zeroWaitBuild = (views: FakeViews, held: HeldIdempotencyClaim, body = buildBody) =>
    serviceReading(views).build(OWNER, 'key-0', { ...body, waitForTxRequestMs: 0 }, held);

  it('judges the route read with the claim and reads no served quote of its own', async () => {
    const views = new FakeViews(null, true);
    const held = new HeldIdempotencyClaim(claim, route);

    const answer = await zeroWaitBuild(views, held);

    expect(answer.httpStatus).toBe(202);
    expect(views.created).toHaveLength(1);
  });

  it('answers 404, 400 and 410 from the route read with the claim, as from its own read', async () => {
    const build = (read: ServedRoute | null, body = buildBody) =>
      zeroWaitBuild(new FakeViews(null, true), new HeldIdempotencyClaim(claim, read), body);

    await expect(build(null)).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' });
    await expect(build({ ...route, plan: null }, { ...buildBody, routeId: 'other' })).rejects.toMatchObject({
      code: 'UNKNOWN_ROUTE',
    });
    await expect(build({ ...route, expiresAtMs: Date.now() - 1 })).rejects.toMatchObject({
      code: 'QUOTE_EXPIRED',
    });
  });

  it('a zero-wait build completes its claim in the statement that creates its row, with the 202 it answers', async () => {
    const views = new FakeViews(null, true);
    const held = new HeldIdempotencyClaim(claim, route);

    const answer = await zeroWaitBuild(views, held);

    expect(answer.httpStatus).toBe(202);
    expect(held.completed).toBe(true);
    const [completion] = views.completions;
    expect(completion.sql).toContain('EXISTS (SELECT 1 FROM "created")');
    expect(completion.parameters).toEqual([
      claim.id,
      claim.claimedAt,
      202,
      JSON.stringify({ kind: 'data', data: answer.body }),
    ]);
  });

  it('leaves the claim to be completed after the answer when its row was there already (the projector wrote it first)', async () => {
    const views = new FakeViews({ status: 'planning' }, false);
    const held = new HeldIdempotencyClaim(claim, route);

    const answer = await zeroWaitBuild(views, held);

    expect(answer.httpStatus).toBe(202);
    expect(held.completed).toBe(false);
    expect(views.reads).toBe(1);
  });

  it('a build that waits completes nothing with its row: its answer is not known yet', async () => {
    const views = new FakeViews(
      { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 },
      true,
    );
    const held = new HeldIdempotencyClaim(claim, route);
    const preflightless = serviceReading(views, new FakeServices(() => ({ issues: [] })));

    const answer = await preflightless.build(
      OWNER,
      'key-w',
      { ...buildBody, waitForTxRequestMs: 1_000 },
      held,
    );

    expect(answer.httpStatus).toBe(202);
    expect(views.completions).toEqual([]);
    expect(held.completed).toBe(false);
  });
});
