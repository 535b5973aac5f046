import { formatIntegratorFeeDefault, parseIntegratorFeeDefault } from './integrator-fee-default';

const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOLANA = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

describe('API key default integrator fee (keys set-fee)', () => {
  it('parses <bps>:<recipient> shares and prints them back', () => {
    const shares = parseIntegratorFeeDefault(`50:${EVM}, 25:${SOLANA}`);
    expect(shares).toEqual([
      { bps: 50, recipient: EVM },
      { bps: 25, recipient: SOLANA },
    ]);
    expect(formatIntegratorFeeDefault(shares)).toBe(`50:${EVM},25:${SOLANA}`);
    expect(formatIntegratorFeeDefault(null)).toBe('-');
  });

  it.each([
    ['', /at least one/],
    [`301:${EVM}`, /over 300/],
    [`200:${EVM},101:${SOLANA}`, /add up to 301/],
    [`50:0x1234`, /not an EVM or Solana address/],
    [`x:${EVM}`, /not <bps>:<recipient>/],
    [Array.from({ length: 6 }, () => `1:${EVM}`).join(','), /at most 5 recipients/],
  ])('refuses %p', (text, message) => {
    expect(() => parseIntegratorFeeDefault(text)).toThrow(message);
  });
});
