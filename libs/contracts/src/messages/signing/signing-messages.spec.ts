import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
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
    const errors = errorsOf(SigningPrepareCommand, {
      ...prepare,
      kind: 'mint',
      call: { ...prepare.call, value: '1.5' },
    });
    expect(errors).toEqual(expect.arrayContaining(['kind', 'call.value']));
  });

  it('rejects a 0-based stepIndex (steps are numbered from 1)', () => {
    expect(errorsOf(SigningPrepareCommand, { ...prepare, stepIndex: 0 })).toContain('stepIndex');
  });

  it('accepts a Bitcoin bridge deposit without a call, with its bitcoin spec, and refuses a bad vault or an oversized memo', () => {
    const { call: _call, approve: _approve, ...rest } = prepare;
    const bitcoinStep = {
      ...rest,
      kind: 'bridge',
      chain: 'bitcoin-devnet',
      from: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
      bitcoin: {
        kind: 'bridge-deposit',
        vault: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
        amount: '1500000',
        memo: '=:devnet-a.USDC:0x70997970C51812dc3A010C7d01b50e0d17dc79C8:1340000000',
      },
    };
    expect(errorsOf(SigningPrepareCommand, bitcoinStep)).toEqual([]);
    expect(
      errorsOf(SigningPrepareCommand, {
        ...bitcoinStep,
        bitcoin: {
          ...bitcoinStep.bitcoin,
          vault: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          memo: 'x'.repeat(81),
        },
      }),
    ).toEqual(['bitcoin', 'bitcoin.vault', 'bitcoin.memo']);
    expect(errorsOf(SigningPrepareCommand, { ...bitcoinStep, bitcoin: undefined })).toEqual(['call']);
  });

  it('accepts a Solana step without a call, with its solana spec, and refuses a step with neither', () => {
    const { call: _call, approve: _approve, ...rest } = prepare;
    const solanaStep = {
      ...rest,
      kind: 'bridge',
      chain: 'solana-devnet',
      from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      solana: {
        kind: 'bridge-deposit',
        mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        vault: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
        amount: '1500000',
        destinationChainId: 31337,
        recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      },
      waitFor: {
        token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        holder: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
        minBalance: '1',
      },
    };
    expect(errorsOf(SigningPrepareCommand, solanaStep)).toEqual([]);
    expect(
      errorsOf(SigningPrepareCommand, {
        ...solanaStep,
        solana: { ...solanaStep.solana, recipient: 'not-evm' },
      }),
    ).toEqual(['solana', 'solana.recipient']);
    expect(
      errorsOf(SigningPrepareCommand, {
        ...solanaStep,
        solana: { kind: 'prebuilt-transaction', serializedTransaction: 'AQID', lastValidBlockHeight: 9 },
      }),
    ).toEqual([]);
    const { solana: _solana, ...neither } = solanaStep;
    expect(errorsOf(SigningPrepareCommand, neither)).toContain('call');
  });

  it('validates the swap message of a Solana bridge deposit: venue, path, minimum out, recipient, unwrapNative and deadline', () => {
    const { call: _call, approve: _approve, ...rest } = prepare;
    const address = (byte: string) => '0x' + byte.repeat(20);
    const message = {
      venue: address('b5'),
      path: [address('b3'), address('b4')],
      amountOutMin: '6500000000000000',
      recipient: address('c1'),
      unwrapNative: false,
      deadline: 1_900_000_000,
    };
    const step = (m: unknown) => ({
      ...rest,
      kind: 'bridge',
      chain: 'solana-devnet',
      from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      solana: {
        kind: 'bridge-deposit',
        mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        vault: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
        amount: '20000000',
        destinationChainId: 31337,
        recipient: address('b2'),
        message: m,
      },
      sponsored: { mode: 'solana-fee-payer' },
    });
    const deepErrors = (plain: unknown): string[] => {
      const walk = (errors: ValidationError[], prefix: string): string[] =>
        errors.flatMap((e) =>
          e.children?.length ? walk(e.children, `${prefix}${e.property}.`) : [`${prefix}${e.property}`],
        );
      return walk(validateSync(plainToInstance(SigningPrepareCommand, plain) as object), '');
    };
    expect(deepErrors(step(message))).toEqual([]);
    expect(deepErrors(step(undefined))).toEqual([]);
    expect(
      deepErrors(
        step({
          ...message,
          venue: 'router02',
          path: [address('b3')],
          amountOutMin: '1.5',
          recipient: 'nope',
          unwrapNative: 'no',
          deadline: -1,
        }),
      ),
    ).toEqual([
      'solana.message.venue',
      'solana.message.path',
      'solana.message.amountOutMin',
      'solana.message.recipient',
      'solana.message.unwrapNative',
      'solana.message.deadline',
    ]);
    expect(deepErrors(step('swap please'))).toEqual(['solana.message']);
  });

  it('validates a bridge-swap intent: destination chain, router, path and minimum out are required', () => {
    const address = (byte: string) => '0x' + byte.repeat(20);
    const intent = {
      kind: 'bridge-swap',
      permit2: address('a1'),
      router: address('a2'),
      token: address('a3'),
      amount: '40000000',
      venue: address('a4'),
      destinationChainId: 31338,
      destinationRouter: address('b2'),
      destinationVenue: address('b5'),
      path: [address('b3'), address('b4')],
      amountOutMin: '39000000000000000000',
      unwrapNative: false,
      recipient: address('c1'),
      deadline: 1_900_000_000,
    };
    const { call: _call, approve: _approve, ...rest } = prepare;
    const step = (i: Record<string, unknown>) => ({
      ...rest,
      kind: 'bridge',
      sponsored: { mode: 'permit2-intent', intent: i },
    });
    const deepErrors = (plain: unknown): string[] => {
      const walk = (errors: ValidationError[], prefix: string): string[] =>
        errors.flatMap((e) =>
          e.children?.length ? walk(e.children, `${prefix}${e.property}.`) : [`${prefix}${e.property}`],
        );
      return walk(validateSync(plainToInstance(SigningPrepareCommand, plain) as object), '');
    };
    expect(deepErrors(step(intent))).toEqual([]);
    const { destinationRouter: _router, ...withoutRouter } = intent;
    expect(deepErrors(step(withoutRouter))).toEqual(['sponsored.intent.destinationRouter']);
    const { venue: _venue, destinationVenue: _destinationVenue, ...withoutVenues } = intent;
    expect(deepErrors(step(withoutVenues))).toEqual([
      'sponsored.intent.venue',
      'sponsored.intent.destinationVenue',
    ]);
    // A Uniswap V3 swap signs its pool fees, one per hop.
    const v3 = { ...withoutRouter, kind: 'swap-v3', poolFees: [500] };
    expect(deepErrors(step(v3))).toEqual([]);
    expect(deepErrors(step({ ...v3, poolFees: [] }))).toEqual(['sponsored.intent.poolFees']);
    expect(
      deepErrors(step({ ...intent, destinationChainId: 0, path: [address('b3')], amountOutMin: '-1' })),
    ).toEqual([
      'sponsored.intent.path',
      'sponsored.intent.amountOutMin',
      'sponsored.intent.destinationChainId',
    ]);
    expect(deepErrors(step({ ...intent, kind: 'bridge-and-swap' }))).toEqual(['sponsored.intent.kind']);
  });

  it('requires swapId and rawTx on signing.submit', () => {
    expect(errorsOf(SigningSubmitRequest, { swapId: '' })).toEqual(
      expect.arrayContaining(['swapId', 'rawTx']),
    );
  });

  it('requires the payload object on signing.payload-ready', () => {
    const errors = errorsOf(SigningPayloadReadyEvent, {
      swapId: 's',
      stepId: 't',
      stepIndex: 1,
      chain: 'devnet-a',
      signingRequestId: 'r',
      stepCount: 1,
      kind: 'swap',
      expiresAtMs: 1,
      readyAtMs: 1,
      executionHints: {},
      clientHints: {},
    });
    expect(errors).toEqual(['payload']);
  });
});
