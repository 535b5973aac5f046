import { SigningStep, SPONSORSHIP_MODES, SponsorshipMode } from '@swapgw/contracts';
import {
  carriedByRelayer,
  feePayerSignsLater,
  payloadRequestOf,
  sponsoredIssuesOf,
} from '../signing/payload-kinds/sponsored-payload-issues';
import { SigningRequestEntity } from '../signing/signing-request.entity';
import { PAYLOAD_KINDS } from './families';

/** The ways of the registered families' kinds, as the PayloadKindRegistry finds them. */
const SPONSORED_PAYLOAD_ISSUES = sponsoredIssuesOf(PAYLOAD_KINDS);

const call = { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0x', value: '0' };
const row = (fields: Partial<SigningRequestEntity>): SigningRequestEntity =>
  Object.assign(new SigningRequestEntity(), { spec: { family: 'evm-transaction', call }, ...fields });
/** A step sponsored as `mode` (its other fields do not matter to these answers). */
const sponsoredAs = (mode: SponsorshipMode): Partial<SigningRequestEntity> => ({
  spec: { family: 'evm-transaction', call, sponsored: { mode } } as SigningStep,
});

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
      'cosmos-fee-grant': 'cosmos',
    });
  });

  it("leaves a typed-data step's transaction to the relayers, never a transaction the user signed", () => {
    const of = (mode: (typeof SPONSORSHIP_MODES)[number]) =>
      carriedByRelayer(SPONSORED_PAYLOAD_ISSUES, row(sponsoredAs(mode)));
    expect(SPONSORSHIP_MODES.filter(of).sort()).toEqual(['eip2612-permit', 'permit2-intent']);
    expect(carriedByRelayer(SPONSORED_PAYLOAD_ISSUES, row({}))).toBe(false);
  });

  it("has the service sign after the user on fee-payer steps only (Solana's fee payer, Bitcoin's fee wallet input)", () => {
    const of = (mode: (typeof SPONSORSHIP_MODES)[number]) =>
      feePayerSignsLater(SPONSORED_PAYLOAD_ISSUES, row(sponsoredAs(mode)));
    expect(SPONSORSHIP_MODES.filter(of)).toEqual(['solana-fee-payer', 'bitcoin-fee-wallet']);
    expect(feePayerSignsLater(SPONSORED_PAYLOAD_ISSUES, row({}))).toBe(false);
  });

  it('asks the family for the step as the planner gave it, naming a fee payer only when there is one', () => {
    expect(payloadRequestOf(row({ from: '0xabc' }))).toEqual({
      from: '0xabc',
      call,
      solana: null,
      bitcoin: null,
      cosmos: null,
    });
    const solana = {
      kind: 'prebuilt-transaction' as const,
      serializedTransaction: 'AQID',
      lastValidBlockHeight: 7,
    };
    expect(
      payloadRequestOf(row({ from: 'user', spec: { family: 'solana-transaction', solana } }), 'payer'),
    ).toEqual({ from: 'user', call: null, solana, bitcoin: null, cosmos: null, feePayer: 'payer' });
    const bitcoin = { kind: 'bridge-deposit' as const, vault: 'bcrt1qvault', amount: '5000', memo: 'to:x' };
    expect(payloadRequestOf(row({ from: 'bcrt1quser', spec: { family: 'bitcoin-psbt', bitcoin } }))).toEqual({
      from: 'bcrt1quser',
      call: null,
      solana: null,
      bitcoin,
      cosmos: null,
    });
    const cosmos = {
      msgs: [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: 'cosmos1user' } }],
    };
    expect(
      payloadRequestOf(
        row({ from: 'cosmos1user', spec: { family: 'cosmos-sign-direct', cosmos } }),
        'cosmos1granter',
      ),
    ).toEqual({
      from: 'cosmos1user',
      call: null,
      solana: null,
      bitcoin: null,
      cosmos,
      feePayer: 'cosmos1granter',
    });
  });
});
