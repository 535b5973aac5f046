import { CodedError, EvmTypedDataSigningPayload, SponsoredStepSpec } from '@swapgw/contracts';
import { ethersTypedDataArgs, SPONSORED_EVM_GAS, sponsoredRouterInterface } from '@swapgw/chains';
import { Wallet } from 'ethers';
import { intentTypedData, sponsoredGasOf } from './sponsored-typed-data';
import { isTypedDataSignature } from '@swapgw/chains/families';
import { relayableCallOf } from './relayable-call';
import { repeatedAddress, swapIntentStep } from '../../../../test/swap-intent-step';

const address = repeatedAddress;
const intent: SponsoredStepSpec = swapIntentStep();
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

  it('a bridge-swap intent: BridgeSwapIntent typed data, relayed as bridgeAndSwapWithIntent on the source router', async () => {
    const bridgeSwap: SponsoredStepSpec = {
      mode: 'permit2-intent',
      intent: {
        kind: 'bridge-swap',
        permit2: address('a1'),
        router: address('a2'),
        venue: address('a7'),
        token: address('a3'),
        amount: '40000000',
        destinationChainId: 31338,
        destinationRouter: address('b2'),
        destinationVenue: address('b5'),
        path: [address('b3'), address('b4')],
        amountOutMin: '39000000000000000000',
        unwrapNative: false,
        recipient: address('a5'),
        deadline: 1_900_000_000,
      },
    };
    const typedData = intentTypedData(31337, bridgeSwap.intent!, 7n);
    expect(typedData.types.PermitWitnessTransferFrom.at(-1)).toEqual({
      name: 'witness',
      type: 'BridgeSwapIntent',
    });
    expect(typedData.message.witness).toEqual({
      venue: address('a7'),
      destinationChainId: '31338',
      destinationRouter: address('b2'),
      destinationVenue: address('b5'),
      path: [address('b3'), address('b4')],
      amountOutMin: '39000000000000000000',
      recipient: address('a5'),
      unwrapNative: false,
      deadline: '1900000000',
      integratorFees: [],
    });
    expect(sponsoredGasOf(bridgeSwap)).toBe(SPONSORED_EVM_GAS.bridgeSwapIntent);
    const { domain, types, value } = ethersTypedDataArgs(typedData);
    const signature = await user.signTypedData(domain, types, value);
    const call = relayableCallOf(
      { type: 'evm-typed-data', typedData },
      bridgeSwap,
      user.address,
      signature,
      step,
    );
    expect(call).toMatchObject({ to: address('a2'), purpose: 'intent' });
    expect(sponsoredRouterInterface.parseTransaction({ data: call.data })!.name).toBe(
      'bridgeAndSwapWithIntent',
    );
  });

  it('refuses bytes that are no signature over the issued data', () => {
    expect(() => relayableCallOf(payload, intent, user.address, '0x' + '00'.repeat(65), step)).toThrow(
      expect.objectContaining({ code: 'TX_REQUEST_MISMATCH' }) as unknown as CodedError,
    );
    expect(isTypedDataSignature('0x02f8' + 'ab'.repeat(100))).toBe(false);
  });
});
