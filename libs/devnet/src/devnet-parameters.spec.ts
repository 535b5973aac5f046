import { estimateBridgeDurationSeconds, estimateSolanaBridgeDurationSeconds } from './devnet-parameters';

describe('estimateBridgeDurationSeconds', () => {
  it('covers one poll interval and the relay round trips under automine', () => {
    expect(estimateBridgeDurationSeconds(500, undefined)).toBe(2);
  });

  it('adds one block time for the release when blocks are mined on an interval', () => {
    expect(estimateBridgeDurationSeconds(500, 2)).toBe(4);
    expect(estimateBridgeDurationSeconds(2000, 12)).toBe(15);
  });
});

describe('estimateSolanaBridgeDurationSeconds', () => {
  it('adds two Solana slots (deposit confirmation, release confirmation) to the poll and RPC budget', () => {
    expect(estimateSolanaBridgeDurationSeconds(500, 400, undefined)).toBe(3);
    expect(estimateSolanaBridgeDurationSeconds(500, 100, undefined)).toBe(2);
  });

  it('adds the EVM block time when the release lands on an interval-mined chain', () => {
    expect(estimateSolanaBridgeDurationSeconds(500, 400, 2)).toBe(5);
  });
});
