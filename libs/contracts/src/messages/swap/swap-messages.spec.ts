import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SwapBuildRequest } from './swap-requests';
import { SwapCreatedEvent, SwapSigningReadyEvent } from './swap-events';
import { isTerminalSwapStatus } from './swap-message-types';

const errorsOf = <T extends object>(cls: new () => T, plain: unknown): string[] =>
  validateSync(plainToInstance(cls, plain) as object).flatMap((e) => [
    e.property,
    ...(e.children ?? []).map((c) => `${e.property}.${c.property}`),
  ]);

const build = {
  swapId: '1b4e28ba-2fa1-51d2-883f-0016d3cca427',
  owner: 'alice',
  quoteId: 'q_1',
  routeId: 'r_1',
  userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
};

describe('swap message contracts', () => {
  it('accepts a minimal swap.build', () => {
    expect(errorsOf(SwapBuildRequest, build)).toEqual([]);
  });

  it('rejects a malformed address, an unknown permit type and a short permit r', () => {
    const errors = errorsOf(SwapBuildRequest, {
      ...build,
      userAddress: '0x1234',
      permitType: 'magic',
      permitSignature: { v: 27, r: '0x12', s: `0x${'1'.repeat(64)}` },
    });
    expect(errors).toEqual(expect.arrayContaining(['userAddress', 'permitType', 'permitSignature.r']));
  });

  it('requires the step position and payload on swap.signing-ready', () => {
    const errors = errorsOf(SwapSigningReadyEvent, {
      swapId: 's',
      status: 'awaiting_signature',
      step: { current: 0, total: 2 },
      expiresAtMs: 1,
      readyAtMs: 1,
      executionHints: {},
      clientHints: {},
    });
    expect(errors).toEqual(expect.arrayContaining(['step', 'step.current', 'payload']));
  });

  it('takes the swap.created of a refused build (no steps), which the gateway used to park as poison', () => {
    const created = {
      swapId: build.swapId,
      status: 'failed',
      owner: 'alice',
      quoteId: 'q_1',
      routeId: 'r_1',
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      userAddress: build.userAddress,
      createdAtMs: 1,
    };
    expect(errorsOf(SwapCreatedEvent, { ...created, stepCount: 0 })).toEqual([]);
    expect(errorsOf(SwapCreatedEvent, { ...created, stepCount: -1 })).toEqual(['stepCount']);
  });

  it('knows which statuses are terminal', () => {
    expect(['completed', 'failed', 'expired'].every(isTerminalSwapStatus)).toBe(true);
    expect(isTerminalSwapStatus('awaiting_signature')).toBe(false);
  });
});
