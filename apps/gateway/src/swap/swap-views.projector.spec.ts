import type { KafkaContext } from '@nestjs/microservices';
import { MessageEnvelope, SwapEventTypes, SwapStepThorchainEvent } from '@swapgw/contracts';
import type { EventClaim, IdempotentConsumer, StreamHandler, StreamHandlers } from '@swapgw/messaging';
import { ManualClock } from '@swapgw/runtime';
import { streamEventDataOf } from '../swap-event-stream/swap-stream-events';
import type { IntegratorFeesCollectedRepository } from '../integrator-fees/integrator-fees-collected.repository';
import { resourceOf } from './swap-resource';
import { withStepCount } from './swap-steps';
import type { SwapViewEntity } from './swap-view.entity';
import type { SwapViewRepository, UpdateOptions } from './swap-view.repository';
import { SwapViewsProjector } from './swap-views.projector';

const SWAP_ID = '6f1c0f3e-5a4b-4c2d-9e8f-0a1b2c3d4e5f';
const DEPOSIT = 'ab'.repeat(32);

/**
 * The projector's mapping of swap.step-thorchain, applied to a view as SwapViewRepository would
 * (the change, then the steps after it), and what GET /swap/{swapId} and the event stream show of it.
 */
describe('SwapViewsProjector: swap.step-thorchain', () => {
  let handlers: StreamHandlers = {};
  let row: SwapViewEntity;
  let logged: UpdateOptions['loggedAs'];
  const consumer = {
    consume: async (_message: unknown, _ctx: unknown, map: StreamHandlers) => {
      handlers = map;
    },
  } as unknown as IdempotentConsumer;
  const views = {
    updateAtOnce: async (swapId: string, change: Partial<SwapViewEntity>, options: UpdateOptions) => {
      expect(swapId).toBe(SWAP_ID);
      logged = options.loggedAs;
      const steps = options.stepsAfter ? options.stepsAfter(row.steps ?? []) : row.steps;
      row = { ...row, ...change, steps } as SwapViewEntity;
      return true;
    },
  } as unknown as SwapViewRepository;
  const projector = new SwapViewsProjector(
    consumer,
    views,
    {} as IntegratorFeesCollectedRepository,
    new ManualClock(5_000),
  );

  beforeAll(() => projector.onSwapEvent(undefined, {} as KafkaContext));

  beforeEach(() => {
    row = {
      swapId: SWAP_ID,
      owner: 'alice',
      status: 'confirming',
      stepCurrent: 1,
      stepTotal: 1,
      lastTxHash: DEPOSIT,
      failureReason: null,
      failureDetails: null,
      createdAtMs: 1_000,
      updatedAtMs: 2_000,
      steps: withStepCount([], 1).map((step) => ({
        ...step,
        chain: 'bitcoin-devnet',
        kind: 'bridge' as const,
        status: 'confirmed' as const,
        txHash: DEPOSIT,
      })),
    } as SwapViewEntity;
  });

  const project = async (event: SwapStepThorchainEvent) => {
    const handler = handlers[SwapEventTypes.stepThorchain] as StreamHandler<SwapStepThorchainEvent>;
    const envelope = {
      type: SwapEventTypes.stepThorchain,
      occurredAtMs: 4_000,
    } as MessageEnvelope<SwapStepThorchainEvent>;
    await handler.applyAtOnce!(event, envelope, {} as EventClaim);
  };
  const told = (thorchain: SwapStepThorchainEvent['thorchain']): SwapStepThorchainEvent => ({
    swapId: SWAP_ID,
    status: 'confirming',
    step: { current: 1, total: 1 },
    chain: 'bitcoin-devnet',
    txHash: DEPOSIT,
    thorchain,
  });

  it("keeps THORChain's phase on the deposit step, shown by GET /swap and sent on the stream", async () => {
    expect(resourceOf(row).steps[0].thorchain).toBeNull();

    await project(told({ phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] }));
    // Logged for the event streams under its own type.
    expect(logged).toBe(SwapEventTypes.stepThorchain);
    expect(resourceOf(row)).toMatchObject({
      status: 'confirming',
      steps: [
        {
          index: 1,
          txHash: DEPOSIT,
          packet: null,
          thorchain: { phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] },
        },
      ],
    });
    expect(streamEventDataOf(SwapEventTypes.stepThorchain, row)).toEqual({
      swapId: SWAP_ID,
      status: 'confirming',
      step: { current: 1, total: 1 },
      atMs: row.updatedAtMs,
      transaction: { chain: 'bitcoin-devnet', txHash: DEPOSIT },
      thorchain: { phase: 'streaming', streaming: { count: 1, quantity: 3 }, outTxIds: [] },
    });

    await project(told({ phase: 'completed', streaming: null, outTxIds: ['CD'.repeat(32)] }));
    expect(resourceOf(row).steps[0].thorchain).toEqual({
      phase: 'completed',
      streaming: null,
      outTxIds: ['CD'.repeat(32)],
    });
  });
});
