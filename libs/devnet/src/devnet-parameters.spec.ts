import { estimateBridgeDurationSeconds } from './devnet-parameters';

describe('estimateBridgeDurationSeconds', () => {
  it('covers one poll interval and the relay round trips under automine', () => {
    expect(estimateBridgeDurationSeconds(500, undefined)).toBe(2);
  });

  it('adds one block time for the release when blocks are mined on an interval', () => {
    expect(estimateBridgeDurationSeconds(500, 2)).toBe(4);
    expect(estimateBridgeDurationSeconds(2000, 12)).toBe(15);
  });
});
