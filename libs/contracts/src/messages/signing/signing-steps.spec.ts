import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { SigningPrepareCommand } from './signing-commands';

/** As libs/messaging's parsePayload validates a payload on arrival (unknown fields stripped): each problem by its path. */
const problemsOf = (plain: object): Record<string, string[]> => {
  const walk = (errors: ValidationError[], prefix: string): [string, string[]][] =>
    errors.flatMap((e) => [
      ...(e.constraints
        ? [[`${prefix}${e.property}`, Object.values(e.constraints)] as [string, string[]]]
        : []),
      ...walk(e.children ?? [], `${prefix}${e.property}.`),
    ]);
  return Object.fromEntries(
    walk(
      validateSync(plainToInstance(SigningPrepareCommand, plain), {
        whitelist: true,
        forbidUnknownValues: false,
      }),
      '',
    ),
  );
};
/** The step a payload carries once validated (as signer-surface stores it). */
const stepOf = (plain: object): unknown => {
  const prepare = plainToInstance(SigningPrepareCommand, plain);
  validateSync(prepare, { whitelist: true, forbidUnknownValues: false });
  return JSON.parse(JSON.stringify(prepare.step));
};

const address = (byte: string) => '0x' + byte.repeat(20);
const header = {
  swapId: 'swp_1',
  stepId: 'swp_1:1',
  stepIndex: 1,
  stepCount: 2,
  kind: 'swap',
  chain: 'devnet-a',
};
const call = { to: address('a1'), data: '0x38ed1739', value: '0' };
const approve = { token: address('a2'), spender: address('a3'), amount: '1500000' };
const permit = {
  token: address('a2'),
  tokenName: 'USD Coin',
  version: '1',
  spender: address('a3'),
  value: '1500000',
};
const solana = {
  kind: 'prebuilt-transaction',
  serializedTransaction: 'AQID',
  lastValidBlockHeight: 9,
};
const bitcoin = {
  kind: 'bridge-deposit',
  vault: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
  amount: '1500000',
  memo: '=:devnet-a.USDC:0x70997970C51812dc3A010C7d01b50e0d17dc79C8:1340000000',
};

const command = (overrides: object, step: object) => ({ ...header, from: address('c1'), ...overrides, step });
const evmTransaction = command({}, { family: 'evm-transaction', call });
const evmTypedData = command(
  { kind: 'approve' },
  { family: 'evm-typed-data', approve, sponsored: { mode: 'eip2612-permit', permit } },
);
const solanaTransaction = command(
  { chain: 'solana-devnet', from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
  { family: 'solana-transaction', solana, sponsored: { mode: 'solana-fee-payer' } },
);
const bitcoinPsbt = command(
  { kind: 'bridge', chain: 'bitcoin-devnet', from: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' },
  { family: 'bitcoin-psbt', bitcoin, sponsored: { mode: 'bitcoin-fee-wallet' } },
);
const withStep = (base: { step: object }, step: object) => ({ ...base, step: { ...base.step, ...step } });

describe('signing.prepare: the step is one variant per family, each validated by its own class', () => {
  it.each([
    ['evm-transaction', evmTransaction],
    ['evm-typed-data', evmTypedData],
    ['solana-transaction', solanaTransaction],
    ['bitcoin-psbt', bitcoinPsbt],
  ])('accepts a %s step with its own fields and keeps it as it came', (_family, prepare) => {
    expect(problemsOf(prepare)).toEqual({});
    expect(stepOf(prepare)).toEqual(prepare.step);
  });

  it('keeps no field of another variant: it is not part of the step', () => {
    expect(problemsOf(withStep(solanaTransaction, { call }))).toEqual({});
    expect(stepOf(withStep(solanaTransaction, { call }))).toEqual(solanaTransaction.step);
    expect(stepOf(withStep(evmTypedData, { call }))).toEqual(evmTypedData.step);
  });

  it("refuses a step without its variant's own field, and an unknown family, naming the families", () => {
    const { call: _call, ...noCall } = evmTransaction.step as { call: unknown };
    expect(Object.keys(problemsOf({ ...evmTransaction, step: noCall }))).toEqual(['step.call']);
    const { bitcoin: _bitcoin, ...noPsbt } = bitcoinPsbt.step as { bitcoin: unknown };
    expect(Object.keys(problemsOf({ ...bitcoinPsbt, step: noPsbt }))).toEqual(['step.bitcoin']);
    const { sponsored: _sponsored, ...noSponsorship } = evmTypedData.step as { sponsored: unknown };
    expect(Object.keys(problemsOf({ ...evmTypedData, step: noSponsorship }))).toEqual(['step.sponsored']);
    expect(problemsOf(withStep(evmTransaction, { family: 'evm-blob' }))).toEqual({
      'step.family': [
        'family must be one of evm-transaction, evm-typed-data, solana-transaction, bitcoin-psbt, cosmos-sign-direct',
      ],
    });
    expect(problemsOf({ ...evmTransaction, step: undefined })).toEqual({
      step: ['step must be an object'],
    });
  });

  it('takes a Solana bridge deposit paying an EVM address, a Bitcoin address or a Noble account, nothing else', () => {
    const deposit = (recipient: string) =>
      withStep(solanaTransaction, {
        solana: {
          kind: 'bridge-deposit',
          mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
          vault: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
          amount: '5000000',
          destinationChainId: 4,
          recipient,
        },
      });
    for (const recipient of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
      'noble1282dyzxq49a3pz8dgewar63z3kf3pe4z9ftyk7',
    ])
      expect(problemsOf(deposit(recipient))).toEqual({});
    for (const recipient of [
      '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      'NOBLE1282DYZXQ49A3PZ8DGEWAR63Z3KF3PE4Z9FTYK7',
    ])
      expect(Object.keys(problemsOf(deposit(recipient)))).toEqual(['step.solana.recipient']);
  });

  it('refuses a sponsorship that does not pay the variant, naming the modes that do', () => {
    expect(problemsOf(withStep(evmTransaction, { sponsored: { mode: 'solana-fee-payer' } }))).toEqual({
      'step.sponsored.mode': ['mode must be one of covered-transaction'],
    });
    expect(problemsOf(withStep(solanaTransaction, { sponsored: { mode: 'covered-transaction' } }))).toEqual({
      'step.sponsored.mode': ['mode must be one of solana-fee-payer'],
    });
    expect(problemsOf(withStep(evmTypedData, { sponsored: { mode: 'covered-transaction' } }))).toEqual({
      'step.sponsored.mode': ['mode must be one of eip2612-permit, permit2-intent'],
    });
  });
});
