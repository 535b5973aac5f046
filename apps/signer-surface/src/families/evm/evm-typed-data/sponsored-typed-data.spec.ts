import { SPONSORED_EVM_GAS, SPONSORED_FEE_RECIPIENT_COSTS } from '@swapgw/chains';
import { sponsoredGasOf } from './sponsored-typed-data';
import { repeatedAddress, swapIntentStep } from '../../../../test/swap-intent-step';

const address = repeatedAddress;
const intentStep = swapIntentStep;

describe('sponsoredGasOf', () => {
  const perRecipient =
    SPONSORED_FEE_RECIPIENT_COSTS.evmTokenTransfer + SPONSORED_FEE_RECIPIENT_COSTS.evmFeePaidEvent;
  // The first fee also has the router approve the venue again for what is left, once.
  const once = SPONSORED_FEE_RECIPIENT_COSTS.evmTokenFeesReapproval;
  const recipients = [address('c1'), address('c2')];

  it('budgets the router call plus an ERC-20 transfer and its event per integrator fee recipient, and the venue approved again once', () => {
    const [none, one, two] = [0, 1, 2].map((n) => sponsoredGasOf(intentStep('swap', recipients.slice(0, n))));
    expect(none).toBe(SPONSORED_EVM_GAS.swapIntent);
    expect(one - none).toBe(once + perRecipient);
    expect(two - one).toBe(perRecipient);
  });

  it('counts the recipients on every kind of intent, on top of its own call', () => {
    expect(sponsoredGasOf(intentStep('swap-v3', recipients))).toBe(
      SPONSORED_EVM_GAS.swapV3Intent + once + 2n * perRecipient,
    );
    expect(sponsoredGasOf(intentStep('bridge', recipients))).toBe(
      SPONSORED_EVM_GAS.bridgeIntent + once + 2n * perRecipient,
    );
    expect(sponsoredGasOf(intentStep('across-swap', recipients))).toBe(
      SPONSORED_EVM_GAS.acrossSwapIntent + once + 2n * perRecipient,
    );
  });

  it('a permit pays no fee: its gas is the permit alone', () => {
    expect(sponsoredGasOf({ mode: 'eip2612-permit' })).toBe(SPONSORED_EVM_GAS.permit);
  });
});
