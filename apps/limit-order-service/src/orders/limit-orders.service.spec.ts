import { swapIdFor } from './limit-orders.service';

describe('swapIdFor', () => {
  it('derives the same UUID-shaped swap id from the same seed (retries build the same swap)', () => {
    const id = swapIdFor('trigger|lo_01abc');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(swapIdFor('trigger|lo_01abc')).toBe(id);
    expect(swapIdFor('trigger|lo_01abd')).not.toBe(id);
  });
});
