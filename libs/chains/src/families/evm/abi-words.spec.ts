import { AbiCoder, hexlify, randomBytes, Wallet } from 'ethers';
import { encodeAggregate3Calls } from './abi-words';

const coder = AbiCoder.defaultAbiCoder();
const AGGREGATE3_ARG = ['(address target, bool allowFailure, bytes callData)[]'];

describe('encodeAggregate3Calls', () => {
  it('encodes as ethers does, for calls of every length and both flags', () => {
    for (const count of [0, 1, 2, 7, 50]) {
      const calls = Array.from({ length: count }, (_, i) => ({
        target: i % 2 === 0 ? Wallet.createRandom().address : Wallet.createRandom().address.toLowerCase(),
        allowFailure: i % 3 !== 0,
        callData: hexlify(randomBytes([0, 4, 31, 32, 33, 36, 68, 100][i % 8])),
      }));
      const expected = coder.encode(AGGREGATE3_ARG, [
        calls.map((c) => [c.target, c.allowFailure, c.callData]),
      ]);
      expect(`0x${encodeAggregate3Calls(calls)}`).toBe(expected);
    }
  });

  it('declines what it does not encode: a target that is not an address, callData that is not whole bytes', () => {
    const target = Wallet.createRandom().address;
    expect(encodeAggregate3Calls([{ target: 'vitalik.eth', allowFailure: true, callData: '0x' }])).toBeNull();
    expect(encodeAggregate3Calls([{ target, allowFailure: true, callData: '0x123' }])).toBeNull();
    expect(encodeAggregate3Calls([{ target, allowFailure: true, callData: 'abcd' }])).toBeNull();
  });
});
