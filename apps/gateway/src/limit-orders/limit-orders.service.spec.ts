import { timeOrderedUuid } from '@swapgw/runtime';
import { CodedError } from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';
import { LimitOrdersService } from './limit-orders.service';

describe('LimitOrdersService', () => {
  const calls: unknown[][] = [];
  const services = {
    call: async (...args: unknown[]) => (calls.push(args), { limitOrderId: args[2] }),
  } as unknown as ServiceClient;
  const orders = new LimitOrdersService(services);

  beforeEach(() => (calls.length = 0));

  it.each(['lo_\u0000', 'not-an-order', 'lo_' + 'A'.repeat(26), "lo_01jc'; drop table"])(
    'answers LIMIT_ORDER_NOT_FOUND for %j without asking limit-order-service',
    (id) => {
      let code: string | undefined;
      try {
        void orders.get('alice', id);
      } catch (error) {
        code = (error as CodedError).code;
      }
      expect(code).toBe('LIMIT_ORDER_NOT_FOUND');
      expect(() => orders.cancel('alice', 'key-1', id, undefined)).toThrow(CodedError);
      expect(calls).toEqual([]);
    },
  );

  it.each([
    ['a time-ordered UUID id', `lo_${timeOrderedUuid(Date.UTC(2026, 10, 27))}`],
    ['an older order’s ULID id', 'lo_01jdz3f6x2k9q8w7e6r5t4y3u2'],
  ])('forwards a well-formed id: %s', async (_, id) => {
    await expect(orders.get('alice', id)).resolves.toEqual({ limitOrderId: id });
    expect(calls).toHaveLength(1);
  });
});
