import { compareDecimal } from './kafka-upstream.adapters';

describe('compareDecimal', () => {
  it.each([
    ['1', '1', 0],
    ['1.0', '1', 0],
    ['2', '10', -1],
    ['10.5', '10.49', 1],
    ['0.000001', '0.0000009', 1],
    ['3000000000000000000000', '2999999999999999999999.9', 1],
  ])('compares %s with %s as %d', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
  });
});
