import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SigningPrepareCommand } from './signing-commands';
import { signingStepOf } from './signing-steps';

/** As libs/messaging's parsePayload validates a payload on arrival (unknown fields stripped). */
const problemsOf = (plain: object): Record<string, string[]> =>
  Object.fromEntries(
    validateSync(plainToInstance(SigningPrepareCommand, plain), {
      whitelist: true,
      forbidUnknownValues: false,
    }).map((e) => [e.property, Object.values(e.constraints ?? { nested: 'nested' })]),
  );

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

const evmTransaction = { ...header, from: address('c1'), family: 'evm-transaction', call };
const evmTypedData = {
  ...header,
  kind: 'approve',
  from: address('c1'),
  family: 'evm-typed-data',
  approve,
  sponsored: { mode: 'eip2612-permit', permit },
};
const solanaTransaction = {
  ...header,
  chain: 'solana-devnet',
  from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  family: 'solana-transaction',
  solana,
  sponsored: { mode: 'solana-fee-payer' },
};
const bitcoinPsbt = {
  ...header,
  kind: 'bridge',
  chain: 'bitcoin-devnet',
  from: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
  family: 'bitcoin-psbt',
  bitcoin,
  sponsored: { mode: 'bitcoin-fee-wallet' },
};

describe('signing.prepare: one step variant per family', () => {
  it.each([
    ['evm-transaction', evmTransaction],
    ['evm-typed-data', evmTypedData],
    ['solana-transaction', solanaTransaction],
    ['bitcoin-psbt', bitcoinPsbt],
  ])('accepts a %s step with its own fields and gives it as that variant', (family, command) => {
    expect(problemsOf(command)).toEqual({});
    const {
      swapId: _s,
      stepId: _i,
      stepIndex: _x,
      stepCount: _c,
      kind: _k,
      chain: _ch,
      from: _f,
      ...step
    } = command;
    expect(signingStepOf(command)).toEqual({ ...step, family });
  });

  it('refuses a field of another variant, naming it', () => {
    expect(problemsOf({ ...solanaTransaction, call })).toEqual({
      family: ['a step of family solana-transaction has no call'],
    });
    expect(problemsOf({ ...evmTransaction, bitcoin })).toEqual({
      family: ['a step of family evm-transaction has no bitcoin'],
    });
    expect(problemsOf({ ...evmTypedData, call })).toEqual({
      family: ['a step of family evm-typed-data has no call'],
    });
  });

  it("refuses a step without its variant's own field, and an unknown family", () => {
    const { call: _call, ...noCall } = evmTransaction;
    expect(Object.keys(problemsOf(noCall))).toEqual(['call']);
    const { bitcoin: _bitcoin, ...noPsbt } = bitcoinPsbt;
    expect(Object.keys(problemsOf(noPsbt))).toEqual(['bitcoin']);
    const { sponsored: _sponsored, ...noSponsorship } = evmTypedData;
    expect(Object.keys(problemsOf(noSponsorship))).toEqual(['sponsored']);
    expect(problemsOf({ ...evmTransaction, family: 'evm-blob' })).toEqual({
      family: ['family must be one of evm-transaction, evm-typed-data, solana-transaction, bitcoin-psbt'],
    });
  });

  it('refuses a sponsorship that does not pay the variant', () => {
    expect(problemsOf({ ...evmTransaction, sponsored: { mode: 'solana-fee-payer' } })).toEqual({
      family: ['a step of family evm-transaction is sponsored as covered-transaction, not solana-fee-payer'],
    });
    expect(problemsOf({ ...solanaTransaction, sponsored: { mode: 'covered-transaction' } })).toEqual({
      family: [
        'a step of family solana-transaction is sponsored as solana-fee-payer, not covered-transaction',
      ],
    });
  });

  it('takes a command sent before `family` existed as the variant its fields tell', () => {
    const withoutFamily = (command: { family: string }) => {
      const { family: _family, ...rest } = command;
      return rest;
    };
    for (const command of [evmTransaction, evmTypedData, solanaTransaction, bitcoinPsbt]) {
      expect(problemsOf(withoutFamily(command))).toEqual({});
      expect(signingStepOf(withoutFamily(command)).family).toBe(command.family);
    }
    // ...and refuses it as that variant: a Solana spec beside an EVM call.
    expect(problemsOf({ ...withoutFamily(solanaTransaction), call })).toEqual({
      family: ['a step of family solana-transaction has no call'],
    });
  });
});
