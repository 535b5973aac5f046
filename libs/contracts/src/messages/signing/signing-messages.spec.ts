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
/** Every field with a problem, by its path. */
const deepErrors = (plain: unknown): string[] => {
  const walk = (errors: ValidationError[], prefix: string): string[] =>
    errors.flatMap((e) =>
      e.children?.length ? walk(e.children, `${prefix}${e.property}.`) : [`${prefix}${e.property}`],
    );
  return walk(validateSync(plainToInstance(SigningPrepareCommand, plain) as object), '');
};

const prepare = {
  swapId: 'swp_1',
  stepId: 'stp_1',
  stepIndex: 1,
  stepCount: 2,
  kind: 'approve',
  chain: 'devnet-a',
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  step: {
    family: 'evm-transaction',
    call: { to: '0x5FbDB2315678afecb367f032d93F642f64180aa3', data: '0x095ea7b3', value: '0' },
    approve: {
      token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      spender: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      amount: '1500000',
    },
  },
};
const { step: _step, ...header } = prepare;

describe('signing message contracts', () => {
  it('accepts a well-formed signing.prepare', () => {
    expect(errorsOf(SigningPrepareCommand, prepare)).toEqual([]);
  });

  it('rejects a call value that is not an integer decimal string and an unknown kind', () => {
    const errors = deepErrors({
      ...prepare,
      kind: 'mint',
      step: { ...prepare.step, call: { ...prepare.step.call, value: '1.5' } },
    });
    expect(errors).toEqual(['kind', 'step.call.value']);
  });

  it('rejects a 0-based stepIndex (steps are numbered from 1)', () => {
    expect(errorsOf(SigningPrepareCommand, { ...prepare, stepIndex: 0 })).toContain('stepIndex');
  });

  it('accepts a Bitcoin bridge deposit without a call, with its bitcoin spec, and refuses a bad vault or an oversized memo', () => {
    const bitcoin = {
      kind: 'bridge-deposit',
      vault: 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x',
      amount: '1500000',
      memo: '=:devnet-a.USDC:0x70997970C51812dc3A010C7d01b50e0d17dc79C8:1340000000',
    };
    const bitcoinStep = (spec: unknown) => ({
      ...header,
      kind: 'bridge',
      chain: 'bitcoin-devnet',
      from: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
      step: { family: 'bitcoin-psbt', bitcoin: spec },
    });
    expect(deepErrors(bitcoinStep(bitcoin))).toEqual([]);
    expect(
      deepErrors(
        bitcoinStep({
          ...bitcoin,
          vault: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          memo: 'x'.repeat(81),
        }),
      ),
    ).toEqual(['step.bitcoin.vault', 'step.bitcoin.memo']);
    expect(deepErrors(bitcoinStep(undefined))).toEqual(['step.bitcoin']);
  });

  it('accepts a Solana step without a call, with its solana spec, and refuses a step with neither', () => {
    const deposit = {
      kind: 'bridge-deposit',
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      vault: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      amount: '1500000',
      destinationChainId: 31337,
      recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    };
    const solanaStep = (spec: unknown) => ({
      ...header,
      kind: 'bridge',
      chain: 'solana-devnet',
      from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      step: {
        family: 'solana-transaction',
        solana: spec,
        waitFor: {
          token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
          holder: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
          minBalance: '1',
        },
      },
    });
    expect(deepErrors(solanaStep(deposit))).toEqual([]);
    expect(deepErrors(solanaStep({ ...deposit, recipient: 'not-evm' }))).toEqual(['step.solana.recipient']);
    const prebuilt = { kind: 'prebuilt-transaction', serializedTransaction: 'AQID', lastValidBlockHeight: 9 };
    expect(deepErrors(solanaStep(prebuilt))).toEqual([]);
    // Each kind is its own class: a prebuilt transaction needs its transaction, a deposit its vault.
    expect(deepErrors(solanaStep({ ...prebuilt, serializedTransaction: undefined }))).toEqual([
      'step.solana.serializedTransaction',
    ]);
    expect(deepErrors(solanaStep({ ...deposit, vault: undefined }))).toEqual(['step.solana.vault']);
    expect(deepErrors(solanaStep({ ...deposit, kind: 'airdrop' }))).toEqual(['step.solana.kind']);
    expect(deepErrors(solanaStep(undefined))).toEqual(['step.solana']);
  });

  it('validates the swap message of a Solana bridge deposit: venue, path, minimum out, recipient, unwrapNative and deadline', () => {
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
      ...header,
      kind: 'bridge',
      chain: 'solana-devnet',
      from: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      step: {
        family: 'solana-transaction',
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
      },
    });
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
      'step.solana.message.venue',
      'step.solana.message.path',
      'step.solana.message.amountOutMin',
      'step.solana.message.recipient',
      'step.solana.message.unwrapNative',
      'step.solana.message.deadline',
    ]);
    expect(deepErrors(step('swap please'))).toEqual(['step.solana.message']);
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
    const step = (i: Record<string, unknown>) => ({
      ...header,
      kind: 'bridge',
      step: { family: 'evm-typed-data', sponsored: { mode: 'permit2-intent', intent: i } },
    });
    expect(deepErrors(step(intent))).toEqual([]);
    const { destinationRouter: _router, ...withoutRouter } = intent;
    expect(deepErrors(step(withoutRouter))).toEqual(['step.sponsored.intent.destinationRouter']);
    const { venue: _venue, destinationVenue: _destinationVenue, ...withoutVenues } = intent;
    expect(deepErrors(step(withoutVenues)).sort()).toEqual([
      'step.sponsored.intent.destinationVenue',
      'step.sponsored.intent.venue',
    ]);
    // A Uniswap V3 swap signs its pool fees, one per hop.
    const v3 = { ...withoutRouter, kind: 'swap-v3', poolFees: [500] };
    expect(deepErrors(step(v3))).toEqual([]);
    expect(deepErrors(step({ ...v3, poolFees: [] }))).toEqual(['step.sponsored.intent.poolFees']);
    expect(
      deepErrors(
        step({ ...intent, destinationChainId: 0, path: [address('b3')], amountOutMin: '-1' }),
      ).sort(),
    ).toEqual([
      'step.sponsored.intent.amountOutMin',
      'step.sponsored.intent.destinationChainId',
      'step.sponsored.intent.path',
    ]);
    expect(deepErrors(step({ ...intent, kind: 'bridge-and-swap' }))).toEqual(['step.sponsored.intent.kind']);
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
