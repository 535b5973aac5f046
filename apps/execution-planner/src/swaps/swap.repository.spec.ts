import type { DataSource, EntityManager } from 'typeorm';
import type { ConsumeOutcome } from '@swapgw/messaging';
import { Outbox } from '@swapgw/messaging';
import { SystemClock } from '@swapgw/runtime';
import { TypeOrmSwapRepository } from './swap.repository';

/** A transaction's manager: after-commit actions touch no statement, so none is needed. */
const manager = {} as EntityManager;

/** A DataSource whose transactions run `work`, then commit (or fail at COMMIT), writing what happens to `log`. */
function dataSourceLogging(log: string[], commit: 'commits' | 'fails'): DataSource {
  return {
    transaction: async (work: (m: EntityManager) => Promise<unknown>) => {
      const result = await work(manager);
      if (commit === 'fails') throw new Error('could not serialize access');
      log.push('COMMIT');
      return result;
    },
  } as unknown as DataSource;
}

describe('TypeOrmSwapRepository: after-commit actions', () => {
  it('a transaction of its own runs them once it committed, in order, after its work', async () => {
    const log: string[] = [];
    const swaps = new TypeOrmSwapRepository(dataSourceLogging(log, 'commits'), new Outbox(new SystemClock()));

    const result = await swaps.transaction(async (tx) => {
      tx.afterCommit(() => log.push('first'));
      tx.afterCommit(() => log.push('second'));
      log.push('work done');
      return 'result';
    });

    expect(result).toBe('result');
    expect(log).toEqual(['work done', 'COMMIT', 'first', 'second']);
  });

  it('a transaction of its own that fails runs none', async () => {
    const log: string[] = [];
    const swaps = new TypeOrmSwapRepository(dataSourceLogging(log, 'fails'), new Outbox(new SystemClock()));

    const failing = swaps.transaction(async (tx) => {
      tx.afterCommit(() => log.push('action'));
    });

    await expect(failing).rejects.toThrow('could not serialize access');
    expect(log).toEqual([]);
  });

  describe("the idempotent consumer's transaction (withinConsumer)", () => {
    const swaps = new TypeOrmSwapRepository({} as DataSource, new Outbox(new SystemClock()));

    it("runs the actions of the attempt that committed once the message is applied, not those of a failed one's", async () => {
      const ran: string[] = [];

      await swaps.withinConsumer(async (join) => {
        join(manager).afterCommit(() => ran.push('attempt 1')); // its handler then threw: rolled back
        join(manager).afterCommit(() => ran.push('attempt 2'));
        expect(ran).toEqual([]); // not before the consumer says its transaction committed
        return 'applied';
      });

      expect(ran).toEqual(['attempt 2']);
    });

    it.each<ConsumeOutcome>(['duplicate', 'dead-lettered'])(
      'runs none when the message is %s (nothing committed by the handler)',
      async (outcome) => {
        const action = jest.fn();

        await swaps.withinConsumer(async (join) => {
          join(manager).afterCommit(action);
          return outcome;
        });

        expect(action).not.toHaveBeenCalled();
      },
    );

    it('runs none when consuming fails (the database is away: the message comes again)', async () => {
      const action = jest.fn();

      const failing = swaps.withinConsumer(async (join) => {
        join(manager).afterCommit(action);
        throw new Error('connection terminated');
      });

      await expect(failing).rejects.toThrow('connection terminated');
      expect(action).not.toHaveBeenCalled();
    });
  });
});
