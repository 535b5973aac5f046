import { Interface, makeError } from 'ethers';
import { isRpcUnreachable, revertReasonOf } from './evm-chain-errors';

const callException = (info: Record<string, unknown>) =>
  makeError('execution reverted', 'CALL_EXCEPTION', {
    action: 'estimateGas',
    data: null,
    reason: null,
    transaction: { to: null, data: '0x' },
    invocation: null,
    revert: null,
    ...info,
  } as never);

describe('revertReasonOf', () => {
  it('reads the Error(string) reason ethers decoded', () => {
    expect(revertReasonOf(callException({ reason: 'fixture: already claimed' }))).toBe(
      'fixture: already claimed',
    );
  });

  it('names a decoded custom error with its arguments', () => {
    const revert = {
      name: 'ERC20InsufficientBalance',
      signature: 'ERC20InsufficientBalance(address,uint256,uint256)',
      args: ['0xabc', 1n, 2n],
    };
    expect(revertReasonOf(callException({ revert }))).toBe('ERC20InsufficientBalance(0xabc, 1, 2)');
  });

  it('shows the selector of an undecoded custom error', () => {
    const data = new Interface(['error Nope(uint256)']).encodeErrorResult('Nope', [7]);
    expect(revertReasonOf(callException({ data }))).toBe(`execution reverted (data ${data.slice(0, 66)})`);
  });

  it('decodes the permit errors of the permit router and Permit2 from raw revert data', () => {
    const iface = new Interface(['error InvalidSigner()', 'error PermitRejected(address token)']);
    expect(revertReasonOf(callException({ data: iface.encodeErrorResult('InvalidSigner', []) }))).toBe(
      'InvalidSigner()',
    );
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    expect(revertReasonOf(callException({ data: iface.encodeErrorResult('PermitRejected', [token]) }))).toBe(
      `PermitRejected(${token})`,
    );
  });

  it('is undefined for errors that are not reverts', () => {
    expect(revertReasonOf(new Error('insufficient funds'))).toBeUndefined();
  });
});

describe('isRpcUnreachable', () => {
  it('recognises a refused connection, a timeout and a network error', () => {
    expect(
      isRpcUnreachable(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(
      isRpcUnreachable(makeError('request timeout', 'TIMEOUT', { operation: 'getBlockNumber' } as never)),
    ).toBe(true);
    expect(isRpcUnreachable(makeError('network error', 'NETWORK_ERROR', { event: 'x' } as never))).toBe(true);
  });

  it('does not mistake a node answer (revert) for an outage', () => {
    expect(isRpcUnreachable(callException({ reason: 'nope' }))).toBe(false);
  });
});
