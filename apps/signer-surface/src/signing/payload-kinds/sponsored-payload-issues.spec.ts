import { SPONSORSHIP_MODES } from '@swapgw/contracts';
import {
  carriedByRelayer,
  feePayerSignsLater,
  payloadRequestOf,
  SPONSORED_PAYLOAD_ISSUES,
} from './sponsored-payload-issues';
import { SigningRequestEntity } from '../signing-request.entity';

const row = (fields: Partial<SigningRequestEntity>): SigningRequestEntity =>
  Object.assign(new SigningRequestEntity(), { sponsored: null, call: null, solana: null, ...fields });

describe('sponsored payload issues', () => {
  it('issues every sponsorship mode over the chains of its own family', () => {
    const families = Object.fromEntries(
      SPONSORSHIP_MODES.map((mode) => [mode, SPONSORED_PAYLOAD_ISSUES[mode].family]),
    );
    expect(families).toEqual({
      'covered-transaction': 'evm',
      'eip2612-permit': 'evm',
      'permit2-intent': 'evm',
      'solana-fee-payer': 'solana',
      'bitcoin-fee-wallet': 'bitcoin',
    });
  });

  it("leaves a typed-data step's transaction to the relayers, never a transaction the user signed", () => {
    const of = (mode: (typeof SPONSORSHIP_MODES)[number]) =>
      carriedByRelayer(row({ sponsored: { mode } as SigningRequestEntity['sponsored'] }));
    expect(SPONSORSHIP_MODES.filter(of).sort()).toEqual(['eip2612-permit', 'permit2-intent']);
    expect(carriedByRelayer(row({}))).toBe(false);
  });

  it("has the service sign after the user on fee-payer steps only (Solana's fee payer, Bitcoin's fee wallet input)", () => {
    const of = (mode: (typeof SPONSORSHIP_MODES)[number]) =>
      feePayerSignsLater(row({ sponsored: { mode } as SigningRequestEntity['sponsored'] }));
    expect(SPONSORSHIP_MODES.filter(of)).toEqual(['solana-fee-payer', 'bitcoin-fee-wallet']);
    expect(feePayerSignsLater(row({}))).toBe(false);
  });

  it('asks the family for the step as the planner gave it, naming a fee payer only when there is one', () => {
    const call = { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0x', value: '0' };
    expect(payloadRequestOf(row({ from: '0xabc', call }))).toEqual({ from: '0xabc', call, solana: null });
    expect(payloadRequestOf(row({ from: 'user' }), 'payer')).toEqual({
      from: 'user',
      call: null,
      solana: null,
      feePayer: 'payer',
    });
  });
});
