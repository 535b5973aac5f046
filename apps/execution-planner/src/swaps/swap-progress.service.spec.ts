import { Logger } from '@nestjs/common';
import { Topics } from '@swapgw/contracts';
import { ManualClock } from '@swapgw/runtime';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../test/support/swap-fakes';
import { buildRequestFor, EVM_PAYLOAD, NOW_MS, planFor, stepRef } from '../../test/support/swap-fixtures';
import { SwapPlanner } from './swap-planner.service';
import { RepricingSignal } from './repricing-signal';
import { SwapProgress } from './swap-progress.service';
import { SwapTransaction } from './swap.repository';

const txHash = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const payload = EVM_PAYLOAD;

describe('SwapProgress', () => {
  let store: InMemorySwapRepository;
  let clock: ManualClock;
  let progress: SwapProgress;
  let builder: SwapPlanner;
  let swapIds = 0;

  /** An event applied as the signing-events consumer applies it: inside a transaction of the store. */
  const apply = (handle: (tx: SwapTransaction) => Promise<void>) => store.transaction(handle);
  const payloadReady = (swapId: string, stepIndex: number, expiresAtMs = NOW_MS + 120_000) => ({
    ...stepRef(swapId, stepIndex),
    signingRequestId: `sr-${stepIndex}`,
    stepCount: 2,
    kind: stepIndex === 1 ? ('approve' as const) : ('swap' as const),
    payload,
    expiresAtMs,
    readyAtMs: NOW_MS,
    executionHints: { gasLimit: '1' },
    clientHints: { recommendedWallet: 'any', network: 'Devnet A', action: 'approve' as const },
  });
  const ready = (swapId: string, stepIndex: number, expiresAtMs?: number) =>
    apply((tx) => progress.payloadReady(payloadReady(swapId, stepIndex, expiresAtMs), tx));
  const submitted = (swapId: string, stepIndex: number) =>
    apply((tx) =>
      progress.submitted(
        { ...stepRef(swapId, stepIndex), txHash: txHash(stepIndex), submittedAtMs: NOW_MS },
        tx,
      ),
    );
  const confirmed = (swapId: string, stepIndex: number) =>
    apply((tx) =>
      progress.stepConfirmed(
        {
          ...stepRef(swapId, stepIndex),
          txHash: txHash(stepIndex),
          blockNumber: 7,
          confirmations: 1,
          confirmedAtMs: NOW_MS,
        },
        tx,
      ),
    );
  /** A built swap of two steps (approve, swap), step 1 building; its build's messages left aside. */
  async function builtSwap(): Promise<string> {
    const { swapId } = await builder.build(buildRequestFor(planFor('q1'), `swap-${++swapIds}`));
    store.outbox.length = 0;
    store.transactions.length = 0;
    return swapId;
  }
  const types = (swapId: string) => store.messagesOf(swapId).map((m) => m.type);
  const stepStates = (swapId: string) => store.stepsOf(swapId).map((s) => [s.status, s.txHash]);

  beforeAll(() => Logger.overrideLogger(false)); // stale events and failures log; expected here
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    store = new InMemorySwapRepository();
    clock = new ManualClock(NOW_MS);
    const config = plannerConfigOf();
    progress = new SwapProgress(store, clock, config, new RepricingSignal());
    builder = new SwapPlanner(
      store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      config,
      clock,
    );
  });

  describe('payloadReady', () => {
    it('makes the step ready and the swap awaiting_signature, and tells swap.signing-ready with the payload', async () => {
      const swapId = await builtSwap();

      await ready(swapId, 1);

      expect(store.swap(swapId)).toMatchObject({
        status: 'awaiting_signature',
        currentStep: 1,
        updatedAtMs: NOW_MS,
      });
      expect(store.stepsOf(swapId)[0]).toMatchObject({
        status: 'ready',
        signingRequestId: 'sr-1',
        payloadExpiresAtMs: NOW_MS + 120_000,
      });
      expect(store.messagesOf(swapId)).toEqual([
        {
          topic: Topics.swapEvents,
          type: 'swap.signing-ready',
          aggregateId: swapId,
          payload: {
            swapId,
            status: 'awaiting_signature',
            step: { current: 1, total: 2 },
            payload,
            expiresAtMs: NOW_MS + 120_000,
            readyAtMs: NOW_MS,
            executionHints: { gasLimit: '1' },
            clientHints: { recommendedWallet: 'any', network: 'Devnet A', action: 'approve' },
          },
        },
      ]);
    });

    it('costs one transaction of two statements: the swap and its step locked and read, then the UPDATEs with the message', async () => {
      const swapId = await builtSwap();

      await ready(swapId, 1);

      expect(store.transactions).toEqual([['lockSwapAndCurrentStep', 'updateProgress']]);
    });
  });

  describe('waiting', () => {
    it('tells swap.signing-pending with the reason and leaves the swap as it is', async () => {
      const swapId = await builtSwap();

      await apply((tx) =>
        progress.waiting(
          { ...stepRef(swapId, 1), readyAtMs: NOW_MS + 30_000, reason: 'bridge in flight' },
          tx,
        ),
      );

      expect(store.swap(swapId).status).toBe('planning');
      expect(store.messagesOf(swapId).map((m) => m.payload)).toEqual([
        {
          swapId,
          status: 'planning',
          step: { current: 1, total: 2 },
          reason: 'bridge in flight',
          readyAtMs: NOW_MS + 30_000,
        },
      ]);
    });
  });

  describe('submitted, stepIncluded', () => {
    it('marks the step submitted with its hash, then the swap confirming while the step stays submitted', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);

      await submitted(swapId, 1);
      expect(store.swap(swapId).status).toBe('submitted');
      expect(stepStates(swapId)[0]).toEqual(['submitted', txHash(1)]);

      await apply((tx) =>
        progress.stepIncluded(
          {
            ...stepRef(swapId, 1),
            txHash: txHash(1),
            blockNumber: 5,
            confirmations: 1,
            confirmationsRequired: 2,
          },
          tx,
        ),
      );
      expect(store.swap(swapId).status).toBe('confirming');
      expect(stepStates(swapId)[0]).toEqual(['submitted', txHash(1)]);

      const [stepSubmitted, confirming] = store.messagesOf(swapId).slice(1);
      expect(stepSubmitted).toMatchObject({ type: 'swap.step-submitted' });
      expect(stepSubmitted.payload).toEqual({
        swapId,
        status: 'submitted',
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
        txHash: txHash(1),
      });
      expect(confirming).toMatchObject({ type: 'swap.step-confirming' });
      expect(confirming.payload).toEqual({
        swapId,
        status: 'confirming',
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
        txHash: txHash(1),
        blockNumber: 5,
        confirmations: 1,
        confirmationsRequired: 2,
      });
    });
  });

  describe('stepConfirmed, stepSkipped', () => {
    it('confirms a step that is not the last and asks signer-surface to prepare the next one', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);
      await submitted(swapId, 1);

      await confirmed(swapId, 1);

      expect(store.swap(swapId)).toMatchObject({ status: 'planning', currentStep: 2 });
      expect(stepStates(swapId)).toEqual([
        ['confirmed', txHash(1)],
        ['building', null],
      ]);
      const [stepConfirmed, prepare] = store.messagesOf(swapId).slice(-2);
      expect(stepConfirmed.payload).toEqual({
        swapId,
        status: 'planning',
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
        txHash: txHash(1),
      });
      expect(prepare).toMatchObject({ topic: Topics.signingCommands, type: 'signing.prepare' });
      expect(prepare.payload).toMatchObject({ swapId, stepId: `${swapId}:2`, stepIndex: 2, kind: 'swap' });
      // the swap and its step locked, the step after, the UPDATEs of the swap and both steps with the
      // event and the next step's command
      expect(store.transactions.at(-1)).toEqual(['lockSwapAndCurrentStep', 'getStep', 'updateProgress']);
    });

    it('completes the swap when the last step is confirmed', async () => {
      const swapId = await builtSwap();
      for (const step of [1, 2]) {
        await ready(swapId, step);
        await submitted(swapId, step);
        await confirmed(swapId, step);
      }

      expect(store.swap(swapId)).toMatchObject({ status: 'completed', currentStep: 2 });
      expect(stepStates(swapId)).toEqual([
        ['confirmed', txHash(1)],
        ['confirmed', txHash(2)],
      ]);
      expect(types(swapId)).toEqual([
        'swap.signing-ready',
        'swap.step-submitted',
        'swap.step-confirmed',
        'signing.prepare',
        'swap.signing-ready',
        'swap.step-submitted',
        'swap.step-confirmed',
        'swap.completed',
      ]);
      expect(store.messagesOf(swapId).at(-1)?.payload).toEqual({
        swapId,
        status: 'completed',
        completedAtMs: NOW_MS,
      });
    });

    it('moves past a step the signer found unnecessary, telling it as confirmed and skipped', async () => {
      const swapId = await builtSwap();

      await apply((tx) =>
        progress.stepSkipped({ ...stepRef(swapId, 1), reason: 'allowance already sufficient' }, tx),
      );

      expect(store.swap(swapId)).toMatchObject({ status: 'planning', currentStep: 2 });
      expect(stepStates(swapId).map(([status]) => status)).toEqual(['skipped', 'building']);
      expect(store.messagesOf(swapId)[0].payload).toEqual({
        swapId,
        status: 'planning',
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
        skipped: true,
      });
    });
  });

  describe('stepFailed, unavailable', () => {
    it('fails the swap with the signer’s code and the step’s details', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);
      await submitted(swapId, 1);

      await apply((tx) =>
        progress.stepFailed(
          { ...stepRef(swapId, 1), code: 'TX_REVERTED', reason: 'execution reverted', txHash: txHash(1) },
          tx,
        ),
      );

      const details = {
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
        kind: 'approve',
        message: 'execution reverted',
        txHash: txHash(1),
      };
      expect(store.swap(swapId)).toMatchObject({
        status: 'failed',
        failureReason: 'TX_REVERTED',
        failureDetails: details,
      });
      expect(store.stepsOf(swapId)[0]).toMatchObject({
        status: 'failed',
        failureReason: 'execution reverted',
      });
      expect(store.messagesOf(swapId).at(-1)).toMatchObject({
        type: 'swap.failed',
        payload: { swapId, status: 'failed', reason: 'TX_REVERTED', details },
      });
    });

    it('expires the swap instead when the failure comes after its deadline', async () => {
      const swapId = await builtSwap();
      clock.atMs = store.swap(swapId).expiresAtMs;

      await apply((tx) =>
        progress.stepFailed({ ...stepRef(swapId, 1), code: 'TX_REQUEST_INVALID', reason: 'deadline' }, tx),
      );

      expect(store.swap(swapId)).toMatchObject({ status: 'expired', failureReason: 'SWAP_DEADLINE_PASSED' });
      expect(store.stepsOf(swapId)[0]).toMatchObject({ status: 'expired', failureReason: 'deadline' });
      expect(store.messagesOf(swapId).map((m) => m.payload)).toEqual([
        { swapId, status: 'expired', reason: 'SWAP_DEADLINE_PASSED' },
      ]);
    });

    it('fails the swap with SIGNING_SURFACE_UNAVAILABLE, or with the 503 the signer names', async () => {
      const noRpc = await builtSwap();
      const noBudget = await builtSwap();
      const unknown = await builtSwap();

      await apply((tx) => progress.unavailable({ ...stepRef(noRpc, 1), reason: 'no RPC for devnet-a' }, tx));
      await apply((tx) =>
        progress.unavailable(
          { ...stepRef(noBudget, 1), reason: 'budget spent', code: 'SPONSORSHIP_BUDGET_EXHAUSTED' },
          tx,
        ),
      );
      await apply((tx) =>
        progress.unavailable({ ...stepRef(unknown, 1), reason: 'odd', code: 'TX_REVERTED' }, tx),
      );

      expect([noRpc, noBudget, unknown].map((id) => store.swap(id).failureReason)).toEqual([
        'SIGNING_SURFACE_UNAVAILABLE',
        'SPONSORSHIP_BUDGET_EXHAUSTED',
        'SIGNING_SURFACE_UNAVAILABLE',
      ]);
      expect(store.messagesOf(noRpc)[0].payload).toEqual({
        swapId: noRpc,
        status: 'failed',
        reason: 'SIGNING_SURFACE_UNAVAILABLE',
        details: { step: { current: 1, total: 2 }, chain: 'devnet-a', message: 'no RPC for devnet-a' },
      });
    });
  });

  describe('stale and duplicate events', () => {
    it('ignores an event of an unknown swap, of a step that is not the current one, or a step past its state', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);
      await submitted(swapId, 1);
      const before = {
        swap: store.swap(swapId),
        steps: store.stepsOf(swapId),
        messages: store.outbox.length,
      };

      await ready('nope', 1);
      await ready(swapId, 2); // not the current step
      await ready(swapId, 1); // step 1 is submitted: a late payload
      await submitted(swapId, 1); // the same transaction told twice (another eventId)
      await apply((tx) => progress.stepSkipped({ ...stepRef(swapId, 1), reason: 'late' }, tx));

      expect({
        swap: store.swap(swapId),
        steps: store.stepsOf(swapId),
        messages: store.outbox.length,
      }).toEqual(before);
      // Each of them read the swap with its current step, in one statement, and wrote nothing.
      expect(store.transactions.slice(-5)).toEqual([
        ['lockSwapAndCurrentStep'],
        ['lockSwapAndCurrentStep'],
        ['lockSwapAndCurrentStep'],
        ['lockSwapAndCurrentStep'],
        ['lockSwapAndCurrentStep'],
      ]);
    });

    it('ignores every event of a swap that ended', async () => {
      const swapId = await builtSwap();
      await apply((tx) =>
        progress.stepFailed({ ...stepRef(swapId, 1), code: 'TX_REQUEST_INVALID', reason: 'reverts' }, tx),
      );
      const messages = store.outbox.length;

      await ready(swapId, 1);
      await confirmed(swapId, 1);

      expect(store.swap(swapId).status).toBe('failed');
      expect(store.outbox).toHaveLength(messages);
    });
  });

  describe('refreshSigning', () => {
    it('asks for a fresh payload once the current one expired, and only once', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1, NOW_MS - 1);

      expect(await progress.refreshSigning(swapId, 'alice')).toEqual({
        swapId,
        refreshRequested: true,
        status: 'planning',
      });
      expect(await progress.refreshSigning(swapId, 'alice')).toEqual({
        swapId,
        refreshRequested: false,
        status: 'planning',
      });

      expect(store.stepsOf(swapId)[0].status).toBe('building');
      const [refresh, pending] = store.messagesOf(swapId).slice(1);
      expect(refresh).toEqual({
        topic: Topics.signingCommands,
        type: 'signing.refresh',
        aggregateId: swapId,
        payload: { swapId, stepId: `${swapId}:1` },
      });
      expect(pending).toMatchObject({
        type: 'swap.signing-pending',
        payload: { status: 'planning', reason: expect.stringContaining('expired') },
      });
    });

    it('does not refresh a payload still valid', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);

      expect(await progress.refreshSigning(swapId, 'alice')).toEqual({
        swapId,
        refreshRequested: false,
        status: 'awaiting_signature',
      });
      expect(types(swapId)).toEqual(['swap.signing-ready']);
    });

    it('answers SWAP_NOT_FOUND to another owner and EXECUTION_TERMINAL for a swap that ended', async () => {
      const swapId = await builtSwap();
      await expect(progress.refreshSigning(swapId, 'mallory')).rejects.toMatchObject({
        code: 'SWAP_NOT_FOUND',
      });
      await expect(progress.refreshSigning('nope', 'alice')).rejects.toMatchObject({
        code: 'SWAP_NOT_FOUND',
      });

      store.patchSwap(swapId, { status: 'completed' });
      await expect(progress.refreshSigning(swapId, 'alice')).rejects.toMatchObject({
        code: 'EXECUTION_TERMINAL',
      });
    });
  });

  describe('expireIfDue', () => {
    it('expires a swap past its deadline that waits for the user or a payload, with swap.expired', async () => {
      const waiting = await builtSwap();
      const notDue = await builtSwap();
      await ready(waiting, 1);
      clock.atMs = store.swap(waiting).expiresAtMs;
      store.patchSwap(notDue, { expiresAtMs: clock.atMs + 1 });

      expect(await progress.expireIfDue(waiting)).toBe(true);
      expect(await progress.expireIfDue(waiting)).toBe(false); // already expired (another instance's sweep)
      expect(await progress.expireIfDue(notDue)).toBe(false);

      expect(store.swap(waiting)).toMatchObject({ status: 'expired', failureReason: 'SWAP_DEADLINE_PASSED' });
      expect(store.swap(waiting).failureDetails).toEqual({
        step: { current: 1, total: 2 },
        chain: 'devnet-a',
      });
      expect(stepStates(waiting).map(([status]) => status)).toEqual(['expired', 'pending']);
      expect(store.messagesOf(waiting).at(-1)?.payload).toEqual({
        swapId: waiting,
        status: 'expired',
        reason: 'SWAP_DEADLINE_PASSED',
      });
      expect(store.swap(notDue).status).toBe('planning');
    });

    it('leaves a swap whose transaction is in flight to the transaction’s outcome', async () => {
      const swapId = await builtSwap();
      await ready(swapId, 1);
      await submitted(swapId, 1);
      clock.atMs = store.swap(swapId).expiresAtMs + 1;

      expect(await progress.expireIfDue(swapId)).toBe(false);
      expect(store.swap(swapId).status).toBe('submitted');
    });
  });
});
