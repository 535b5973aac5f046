import { SIGNING_PREPARE_VERSION, signingStepOf, upcastSigningPrepare } from './signing-prepare-upcaster';

const address = (byte: string) => '0x' + byte.repeat(20);
const header = {
  swapId: 'swp_1',
  stepId: 'swp_1:1',
  stepIndex: 1,
  stepCount: 2,
  kind: 'swap',
  chain: 'devnet-a',
  from: address('c1'),
};
const call = { to: address('a1'), data: '0x38ed1739', value: '0' };
const approve = { token: address('a2'), spender: address('a3'), amount: '1500000' };
const waitFor = { token: null, holder: address('c1'), minBalance: '1' };
const permit = {
  token: address('a2'),
  tokenName: 'USD Coin',
  version: '1',
  spender: address('a3'),
  value: '1',
};
const solana = { kind: 'prebuilt-transaction', serializedTransaction: 'AQID', lastValidBlockHeight: 9 };
const bitcoin = { kind: 'bridge-deposit', vault: 'bcrt1qvault', amount: '1500000', memo: '=:devnet-a.USDC' };

const v1 = (payload: object) => ({
  eventId: '7f1d2e3c-4b5a-4697-8d1e-000000000001',
  type: 'signing.prepare',
  version: 1,
  occurredAtMs: 1_800_000_000_000,
  aggregateId: 'swp_1',
  payload: { ...header, ...payload },
});

describe('upcastSigningPrepare: a version-1 signing.prepare (its step flat on the command) read as version 2', () => {
  it('moves the step fields into `step`, keeps the header and the owner, and says version 2', () => {
    const upcast = upcastSigningPrepare(
      v1({
        family: 'evm-transaction',
        call,
        approve,
        sponsored: { mode: 'covered-transaction' },
        owner: 'alice',
      }),
    );
    expect(upcast).toEqual({
      ...v1({}),
      version: SIGNING_PREPARE_VERSION,
      payload: {
        ...header,
        owner: 'alice',
        step: { family: 'evm-transaction', call, approve, sponsored: { mode: 'covered-transaction' } },
      },
    });
  });

  it.each([
    ['evm-transaction', { call, waitFor }],
    ['evm-typed-data', { approve, sponsored: { mode: 'eip2612-permit', permit } }],
    ['solana-transaction', { solana, sponsored: { mode: 'solana-fee-payer' } }],
    ['bitcoin-psbt', { bitcoin, sponsored: { mode: 'bitcoin-fee-wallet' } }],
  ])('takes a command sent before `family` existed as the %s its fields tell', (family, fields) => {
    expect(upcastSigningPrepare(v1(fields))).toMatchObject({ payload: { step: { family, ...fields } } });
  });

  it("keeps only the fields of the step's family, dropping the nulls the old columns held", () => {
    expect(
      signingStepOf({ call: null, solana, bitcoin: null, approve: null, waitFor: null, sponsored: null }),
    ).toEqual({ family: 'solana-transaction', solana });
    expect(signingStepOf({ family: 'evm-typed-data', call, sponsored: { mode: 'permit2-intent' } })).toEqual({
      family: 'evm-typed-data',
      sponsored: { mode: 'permit2-intent' },
    });
  });

  it('keeps every field under a family that names no variant, for validation to refuse it', () => {
    expect(upcastSigningPrepare(v1({ family: 'evm-blob', call }))).toMatchObject({
      payload: { step: { family: 'evm-blob', call } },
    });
  });

  it('leaves version 2, other types and what is no envelope as they are', () => {
    const v2 = { ...v1({}), version: 2, payload: { ...header, step: { family: 'evm-transaction', call } } };
    expect(upcastSigningPrepare(v2)).toBe(v2);
    const refresh = { ...v1({}), type: 'signing.refresh' };
    expect(upcastSigningPrepare(refresh)).toBe(refresh);
    expect(upcastSigningPrepare('not json')).toBe('not json');
    expect(upcastSigningPrepare(null)).toBeNull();
    const noPayload = { ...v1({}), payload: 'flat' };
    expect(upcastSigningPrepare(noPayload)).toBe(noPayload);
  });
});
