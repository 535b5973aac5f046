import { SigningEventTypes } from '@swapgw/contracts';
import type { Outbox } from '@swapgw/messaging';
import type { EntityManager } from 'typeorm';
import { SigningEventsOutbox } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';

const manager = {} as EntityManager;

/** The outbox with what it was asked to enqueue. */
function outboxRecording() {
  const enqueued: { type: string; payload: unknown }[] = [];
  const outbox = {
    enqueue: async (_: EntityManager, message: { type: string; payload: unknown }) => {
      enqueued.push({ type: message.type, payload: message.payload });
    },
  } as unknown as Outbox;
  return { events: new SigningEventsOutbox(outbox, 'signing.events.test'), enqueued };
}

const row = (fields: Partial<SigningRequestEntity>): SigningRequestEntity =>
  Object.assign(new SigningRequestEntity(), {
    id: 'request-1',
    swapId: 'swap-1',
    stepId: 'step-1',
    stepIndex: 0,
    chain: 'devnet-a',
    status: 'confirmed',
    txHash: null,
    blockNumber: null,
    confirmations: 0,
    confirmedAtMs: null,
    ...fields,
  });

describe('SigningEventsOutbox', () => {
  it("writes a confirmed step's transaction, block and time", async () => {
    const { events, enqueued } = outboxRecording();
    const confirmed = row({ txHash: '0xabc', blockNumber: 12, confirmations: 3, confirmedAtMs: 1_700 });
    await events.confirmed(manager, confirmed);
    expect(enqueued).toEqual([
      {
        type: SigningEventTypes.stepConfirmed,
        payload: {
          swapId: 'swap-1',
          stepId: 'step-1',
          stepIndex: 0,
          chain: 'devnet-a',
          txHash: '0xabc',
          blockNumber: 12,
          confirmations: 3,
          confirmedAtMs: 1_700,
        },
      },
    ]);
  });

  it('writes no event for a row missing what its status guarantees, and names the row and the column', () => {
    const { events, enqueued } = outboxRecording();
    expect(() => events.confirmed(manager, row({ txHash: '0xabc', confirmedAtMs: 1_700 }))).toThrow(
      'signing request request-1 (confirmed) has no blockNumber',
    );
    expect(() => events.submitted(manager, row({ status: 'submitted' }), 1_700)).toThrow(
      'signing request request-1 (submitted) has no txHash',
    );
    expect(enqueued).toEqual([]);
  });
});
