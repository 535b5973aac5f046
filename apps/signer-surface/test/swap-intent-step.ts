import { getAddress } from 'ethers';
import type { SponsoredIntentSpec, SponsoredStepSpec } from '@swapgw/contracts';

/** A checksummed address of one repeated byte (`'a1'` → 0xA1A1…). */
export const repeatedAddress = (byte: string) => getAddress('0x' + byte.repeat(20));

/**
 * A sponsored Permit2 intent step as the planner hands it over: 1.5 USDC-like units along a
 * two-token path, one fixed recipient and deadline; `recipients` each get an integrator fee of 1000.
 */
export function swapIntentStep(
  kind: SponsoredIntentSpec['kind'] = 'swap',
  recipients: string[] = [],
): SponsoredStepSpec {
  return {
    mode: 'permit2-intent',
    intent: {
      kind,
      permit2: repeatedAddress('a1'),
      router: repeatedAddress('a2'),
      venue: repeatedAddress('a6'),
      token: repeatedAddress('a3'),
      amount: '1500000',
      path: [repeatedAddress('a3'), repeatedAddress('a4')],
      amountOutMin: '4975',
      unwrapNative: false,
      recipient: repeatedAddress('a5'),
      deadline: 1_900_000_000,
      ...(recipients.length > 0
        ? { integratorFees: recipients.map((recipient) => ({ recipient, amount: '1000' })) }
        : {}),
    },
  };
}
