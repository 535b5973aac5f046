import { AbiCoder, Interface, JsonRpcProvider, keccak256, makeError } from 'ethers';
import { decodeRevertData } from './evm-chain-errors';
import { allowanceSlotsOf, allowanceStateOverride, simulateEvmCall } from './evm-call-simulation';

const coder = AbiCoder.defaultAbiCoder();
const errorString = (text: string) => `0x08c379a0${coder.encode(['string'], [text]).slice(2)}`;
const panic = (code: number) => `0x4e487b71${coder.encode(['uint256'], [code]).slice(2)}`;
const OWNER = '0x00000000000000000000000000000000000000a1';
const SPENDER = '0x00000000000000000000000000000000000000b2';
const TOKEN = '0x00000000000000000000000000000000000000c3';

describe('decodeRevertData', () => {
  it('reads Error(string) as its text', () => {
    expect(decodeRevertData(errorString('UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT'))).toBe(
      'UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT',
    );
  });

  it('names a panic by its code', () => {
    expect(decodeRevertData(panic(0x11))).toBe('Panic(0x11: arithmetic overflow or underflow)');
    expect(decodeRevertData(panic(0x99))).toBe('Panic(0x99: unknown panic code)');
  });

  it('decodes a known custom error with its arguments', () => {
    const iface = new Interface([
      'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    ]);
    const data = iface.encodeErrorResult('ERC20InsufficientAllowance', [SPENDER, 1n, 2n]);
    expect(decodeRevertData(data)).toBe(`ERC20InsufficientAllowance(${SPENDER}, 1, 2)`);
  });

  it('gives the selector of an unknown custom error', () => {
    const data = new Interface(['error Nope(uint256)']).encodeErrorResult('Nope', [7]);
    expect(decodeRevertData(data)).toBe(`custom error ${data.slice(0, 10)}`);
  });

  it('says when the node gave no reason, and survives a malformed Error(string)', () => {
    expect(decodeRevertData('0x')).toBe('execution reverted (no reason given)');
    expect(decodeRevertData(null)).toBe('execution reverted (no reason given)');
    expect(decodeRevertData('0x08c379a0dead')).toBe('custom error 0x08c379a0');
    expect(decodeRevertData('0xdead')).toBe('execution reverted (data 0xdead)');
  });
});

describe('allowance state override', () => {
  it('computes the Solidity mapping slot keccak(spender . keccak(owner . index))', () => {
    const inner = keccak256(coder.encode(['address', 'uint256'], [OWNER, 1]));
    const [solidity] = allowanceSlotsOf(OWNER, SPENDER, 1);
    expect(solidity).toBe(keccak256(coder.encode(['address', 'bytes32'], [SPENDER, inner])));
  });

  it('computes both layouts as the ABI encoding hashes them, for checksummed addresses and large indices', () => {
    const owner = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
    const spender = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';
    for (const index of [0, 9, 23, 300]) {
      const solidityInner = keccak256(coder.encode(['address', 'uint256'], [owner, index]));
      const vyperInner = keccak256(coder.encode(['uint256', 'address'], [index, owner]));
      expect(allowanceSlotsOf(owner, spender, index)).toEqual([
        keccak256(coder.encode(['address', 'bytes32'], [spender, solidityInner])),
        keccak256(coder.encode(['bytes32', 'address'], [vyperInner, spender])),
      ]);
    }
  });

  it('sets every candidate slot of the token to the amount, as a 32-byte word', () => {
    const override = allowanceStateOverride(TOKEN, OWNER, SPENDER, 25n);
    const diff = override[TOKEN].stateDiff;
    expect(Object.keys(diff)).toHaveLength(48);
    expect(diff[allowanceSlotsOf(OWNER, SPENDER, 10)[0]]).toBe(`0x${'0'.repeat(62)}19`);
  });
});

describe('simulateEvmCall', () => {
  const call = { from: OWNER, to: TOKEN, data: '0x1234', value: '5' };
  const providerAnswering = (send: jest.Mock) => ({ send }) as unknown as JsonRpcProvider;

  it('runs eth_call on latest with the override and answers ok', async () => {
    const send = jest.fn().mockResolvedValue('0x');
    const override = allowanceStateOverride(TOKEN, OWNER, SPENDER, 1n);
    expect(await simulateEvmCall(providerAnswering(send), call, override)).toEqual({ kind: 'ok' });
    expect(send).toHaveBeenCalledWith('eth_call', [
      { from: OWNER, to: TOKEN, data: '0x1234', value: '0x5' },
      'latest',
      override,
    ]);
  });

  it('decodes a revert from the CALL_EXCEPTION ethers raises', async () => {
    const data = errorString('UniswapV2: INVALID_TO');
    const error = makeError('execution reverted', 'CALL_EXCEPTION', { data } as never);
    const send = jest.fn().mockRejectedValue(error);
    expect(await simulateEvmCall(providerAnswering(send), call)).toEqual({
      kind: 'reverted',
      reason: 'UniswapV2: INVALID_TO',
      data,
    });
  });

  it('takes the reason from the message of a revert without data', async () => {
    const error = makeError('execution reverted', 'CALL_EXCEPTION', { data: null } as never);
    const send = jest.fn().mockRejectedValue(error);
    expect(await simulateEvmCall(providerAnswering(send), call)).toEqual({
      kind: 'reverted',
      reason: 'execution reverted (no reason given)',
    });
  });

  it('is unavailable, not reverted, when the node is unreachable or refuses the call itself', async () => {
    const unreachable = jest.fn().mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED'), {}));
    expect(await simulateEvmCall(providerAnswering(unreachable), call)).toMatchObject({
      kind: 'unavailable',
    });
    const refused = jest.fn().mockRejectedValue(
      makeError('could not coalesce error', 'UNKNOWN_ERROR', {
        error: { message: 'invalid params' },
      } as never),
    );
    expect(await simulateEvmCall(providerAnswering(refused), call)).toMatchObject({ kind: 'unavailable' });
  });
});
