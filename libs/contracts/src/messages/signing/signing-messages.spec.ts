import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SigningPrepareCommand } from './signing-commands';
import { SigningPayloadReadyEvent } from './signing-events';
import { SigningSubmitRequest } from './signing-requests';

const errorsOf = <T extends object>(cls: new () => T, plain: unknown): string[] =>
  validateSync(plainToInstance(cls, plain) as object).flatMap((e) => [
    e.property,
    ...(e.children ?? []).map((c) => `${e.property}.${c.property}`),
  ]);

const prepare = {
  swapId: 'swp_1',
  stepId: 'stp_1',
  stepIndex: 1,
  stepCount: 2,
  kind: 'approve',
  chain: 'devnet-a',
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  call: { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0x095ea7b3', value: '0' },
  approve: {
    token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    spender: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    amount: '1500000',
  },
};

describe('signing message contracts', () => {
  it('accepts a well-formed signing.prepare', () => {
    expect(errorsOf(SigningPrepareCommand, prepare)).toEqual([]);
  });

  it('rejects a call value that is not an integer decimal string and an unknown kind', () => {
    const errors = errorsOf(SigningPrepareCommand, { ...prepare, kind: 'mint', call: { ...prepare.call, value: '1.5' } });
    expect(errors).toEqual(expect.arrayContaining(['kind', 'call.value']));
  });

  it('rejects a 0-based stepIndex (steps are numbered from 1)', () => {
    expect(errorsOf(SigningPrepareCommand, { ...prepare, stepIndex: 0 })).toContain('stepIndex');
  });

  it('requires swapId and rawTx on signing.submit', () => {
    expect(errorsOf(SigningSubmitRequest, { swapId: '' })).toEqual(expect.arrayContaining(['swapId', 'rawTx']));
  });

  it('requires the payload object on signing.payload-ready', () => {
    const errors = errorsOf(SigningPayloadReadyEvent, {
      swapId: 's', stepId: 't', stepIndex: 1, chain: 'devnet-a', signingRequestId: 'r', stepCount: 1, kind: 'swap',
      expiresAtMs: 1, readyAtMs: 1, executionHints: {}, clientHints: {},
    });
    expect(errors).toEqual(['payload']);
  });
});
