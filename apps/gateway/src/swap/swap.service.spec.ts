import { CodedError } from '@swapgw/contracts';
import type { ServiceClient } from '../messaging/service-client';
import { SwapService } from './swap.service';
import type { SwapViewEntity } from './swap-view.entity';
import type { SwapViewStore } from './swap-view.store';

const OWNER = 'alice';
const payload = { type: 'evm-transaction', transaction: { chainId: '31337' } };

function view(overrides: Partial<SwapViewEntity>): SwapViewEntity {
  return {
    swapId: 'will-be-set',
    owner: OWNER,
    status: 'planning',
    stepCurrent: 1,
    stepTotal: 2,
    payload: null,
    expiresAtMs: null,
    readyAtMs: null,
    executionHints: null,
    clientHints: null,
    pendingReason: null,
    lastTxHash: null,
    confirmations: null,
    confirmationsRequired: null,
    failureReason: null,
    failureDetails: null,
    createdAtMs: 0,
    updatedAtMs: 0,
    ...overrides,
  };
}

/** A read model whose row changes after `readsBeforeChange` reads, as the projector would change it. */
class FakeViews implements Pick<SwapViewStore, 'findOwned' | 'ensureCreated' | 'markSubmitted'> {
  reads = 0;
  created: string[] = [];
  submitted: Array<[string, number, string]> = [];
  constructor(private readonly rows: (reads: number) => Partial<SwapViewEntity> | null) {}
  async findOwned(swapId: string, owner: string) {
    this.reads += 1;
    const row = this.rows(this.reads);
    return row && owner === OWNER ? view({ ...row, swapId }) : null;
  }
  async ensureCreated(swapId: string) {
    this.created.push(swapId);
  }
  async markSubmitted(swapId: string, step: number, txHash: string) {
    this.submitted.push([swapId, step, txHash]);
  }
}

class FakeServices implements Pick<ServiceClient, 'call'> {
  calls: Array<{ type: string; payload: unknown }> = [];
  constructor(private readonly answer: (type: string) => unknown) {}
  async call<T>(_topic: string, type: string, _key: string, payload: unknown): Promise<T> {
    this.calls.push({ type, payload });
    const answer = this.answer(type);
    if (answer instanceof Error) throw answer;
    return answer as T;
  }
}

const serviceOf = (services: FakeServices, views: FakeViews) =>
  new SwapService(services as unknown as ServiceClient, views as unknown as SwapViewStore);
const built = () => ({ swapId: 'x', status: 'planning', stepCount: 2, created: true });
const buildBody = { quoteId: 'q', routeId: 'r', userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' };

describe('SwapService', () => {
  it('answers 200 sync as soon as the first payload lands in the read model', async () => {
    const views = new FakeViews((reads) => (reads < 3 ? { status: 'planning' } : { status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000, readyAtMs: 1 }));
    const services = new FakeServices(built);

    const answer = await serviceOf(services, views).build(OWNER, 'key-1', { ...buildBody, waitForTxRequestMs: 5000 });

    expect(answer.httpStatus).toBe(200);
    expect(answer.body).toMatchObject({ mode: 'sync', nextAction: 'sign', signing: { step: { current: 1, total: 2 }, payload } });
    expect(services.calls[0]).toMatchObject({ type: 'swap.build', payload: { owner: OWNER, quoteId: 'q', swapId: answer.body.swapId } });
    expect(views.created).toEqual([answer.body.swapId]);
  });

  it('answers 202 async with a pending envelope when the wait runs out', async () => {
    const views = new FakeViews(() => ({ status: 'planning' }));
    const started = Date.now();
    const answer = await serviceOf(new FakeServices(built), views).build(OWNER, 'key-2', { ...buildBody, waitForTxRequestMs: 200 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer).toMatchObject({ httpStatus: 202, body: { mode: 'async', nextAction: 'poll', signing: { step: null, expiresAtMs: null, readyAtMs: null } } });
  });

  it('turns a swap that failed during the wait into its reason’s error', async () => {
    const views = new FakeViews(() => ({ status: 'failed', failureReason: 'SIGNING_SURFACE_UNAVAILABLE', failureDetails: { chain: 'devnet-a' } }));
    await expect(serviceOf(new FakeServices(built), views).build(OWNER, 'key-3', buildBody)).rejects.toMatchObject({
      code: 'SIGNING_SURFACE_UNAVAILABLE',
      details: { chain: 'devnet-a', status: 'failed' },
    });
  });

  it('asks for a fresh payload when the ready one expired, and answers 202', async () => {
    const views = new FakeViews(() => ({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() - 1 }));
    const services = new FakeServices(() => ({ swapId: 's', refreshRequested: true, status: 'planning' }));
    const answer = await serviceOf(services, views).signing(OWNER, 's');
    expect(answer).toMatchObject({ httpStatus: 202, body: { status: 'planning', mode: 'async' } });
    expect(services.calls).toEqual([{ type: 'swap.signing.refresh', payload: { swapId: 's', owner: OWNER } }]);
  });

  it('shows the transaction in flight, with its confirmations, while the swap is submitted or confirming', async () => {
    const txHash = '0x' + 'cd'.repeat(32);
    const services = new FakeServices(() => new Error('must not be called'));
    const confirming = new FakeViews(() => ({ status: 'confirming', lastTxHash: txHash, confirmations: 1, confirmationsRequired: 3 }));
    expect(await serviceOf(services, confirming).signing(OWNER, 's')).toMatchObject({
      httpStatus: 202,
      body: { status: 'confirming', signing: { step: null }, transaction: { txHash, confirmations: 1, confirmationsRequired: 3 } },
    });
    const submitted = new FakeViews(() => ({ status: 'submitted', lastTxHash: txHash }));
    expect((await serviceOf(services, submitted).signing(OWNER, 's')).body).toMatchObject({
      status: 'submitted',
      transaction: { txHash, confirmations: 0, confirmationsRequired: null },
    });
    // The next step is being built: the previous step's transaction is history, not shown.
    const planning = new FakeViews(() => ({ status: 'planning', stepCurrent: 2, lastTxHash: txHash }));
    expect((await serviceOf(services, planning).signing(OWNER, 's')).body).not.toHaveProperty('transaction');
  });

  it('answers 404 for another owner’s swap and 409 EXECUTION_TERMINAL for a completed one, without calling the services', async () => {
    const services = new FakeServices(() => new Error('must not be called'));
    await expect(serviceOf(services, new FakeViews(() => null)).signing(OWNER, 's')).rejects.toMatchObject({ code: 'SWAP_NOT_FOUND' });
    const completed = new FakeViews(() => ({ status: 'completed' }));
    const error = await serviceOf(services, completed).submit(OWNER, 's', '0x01').catch((e: CodedError) => e);
    expect(error).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed', reason: null } });
    expect(services.calls).toEqual([]);
  });

  it('marks the submitted step spent in the read model and answers the step', async () => {
    const views = new FakeViews(() => ({ status: 'awaiting_signature', payload, expiresAtMs: Date.now() + 60_000 }));
    const txHash = '0x' + 'ab'.repeat(32);
    const services = new FakeServices(() => ({ swapId: 's', stepIndex: 1, txHash, status: 'submitted' }));
    const answer = await serviceOf(services, views).submit(OWNER, 's', '0x02');
    expect(answer).toMatchObject({ swapId: 's', txHash, step: { current: 1, total: 2 }, status: 'submitted', nextAction: 'poll' });
    expect(views.submitted).toEqual([['s', 1, txHash]]);
  });
});
