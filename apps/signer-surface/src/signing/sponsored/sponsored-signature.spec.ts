import { CodedError, EvmTypedDataSigningPayload, SponsoredStepSpec } from '@swapgw/contracts';
import { ethersTypedDataArgs, sponsoredRouterInterface } from '@swapgw/chains';
import { getAddress, Wallet } from 'ethers';
import { intentTypedData } from './sponsored-payloads';
import { isTypedDataSignature, relayableCallOf } from './sponsored-signature';

const address = (byte: string) => getAddress('0x' + byte.repeat(20));
const intent: SponsoredStepSpec = {
  mode: 'permit2-intent',
  intent: {
    kind: 'swap',
    permit2: address('a1'),
    router: address('a2'),
    token: address('a3'),
    amount: '1500000',
    path: [address('a3'), address('a4')],
    amountOutMin: '4975',
    unwrapNative: false,
    recipient: address('a5'),
    deadline: 1_900_000_000,
  },
};
const payload: EvmTypedDataSigningPayload = {
  type: 'evm-typed-data',
  typedData: intentTypedData(31337, intent.intent!, 42n),
};
const sign = (wallet: Wallet) => {
  const { domain, types, value } = ethersTypedDataArgs(payload.typedData);
  return wallet.signTypedData(domain, types, value);
};
const step = { stepIndex: 2, stepCount: 2 };

describe('relayableCallOf', () => {
  const user = Wallet.createRandom();

  it('turns the user’s signature into the router call that carries it', async () => {
    const signature = await sign(user as unknown as Wallet);
    expect(isTypedDataSignature(signature)).toBe(true);
    const call = relayableCallOf(payload, intent, user.address, signature, step);
    expect(call.to).toBe(address('a2'));
    expect(call.purpose).toBe('intent');
    const parsed = sponsoredRouterInterface.parseTransaction({ data: call.data })!;
    expect(parsed.name).toBe('swapWithIntent');
    expect(parsed.args[1]).toBe(user.address);
    expect(parsed.args[3]).toBe(signature);
  });

  it('refuses a signature by another key, naming the signer, before anything is sent', async () => {
    const other = Wallet.createRandom();
    const signature = await sign(other as unknown as Wallet);
    expect(() => relayableCallOf(payload, intent, user.address, signature, step)).toThrow(
      expect.objectContaining({
        code: 'TX_REQUEST_MISMATCH',
        details: expect.objectContaining({
          mismatches: [{ field: 'signer', expected: user.address, actual: other.address }],
        }),
      }) as unknown as CodedError,
    );
  });

  it('refuses bytes that are no signature over the issued data', () => {
    expect(() => relayableCallOf(payload, intent, user.address, '0x' + '00'.repeat(65), step)).toThrow(
      expect.objectContaining({ code: 'TX_REQUEST_MISMATCH' }) as unknown as CodedError,
    );
    expect(isTypedDataSignature('0x02f8' + 'ab'.repeat(100))).toBe(false);
  });
});
