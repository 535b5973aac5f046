import { getAddress, hexlify, randomBytes, Wallet } from 'ethers';
import type { IntegratorFeeTerm, TypedDataV4 } from '../intent-types';
import { SponsoredIntentError } from '../intent-values';
import {
  acrossIntentTypedData,
  acrossSwapIntentTypedData,
  bridgeSwapIntentTypedData,
  swapIntentTypedData,
  swapV3IntentTypedData,
} from '../typed-data';
import { ethersTypedDataArgs } from '../signed-typed-data';

// Typed data of every intent kind over random addresses, and a wallet's signature of it, for the
// specs of this folder.

export const randomAddress = () => getAddress(hexlify(randomBytes(20)));
export const CHAIN_ID = 31337;
export const PERMIT2 = randomAddress();
export const ROUTER = randomAddress();
export const USDC = randomAddress();
export const WETH = randomAddress();
export const RECIPIENT = randomAddress();
export const DESTINATION_ROUTER = randomAddress();
export const VENUE = randomAddress();
export const DESTINATION_VENUE = randomAddress();
export const USDC_B = randomAddress();
export const DAI_B = randomAddress();
export const DEADLINE = 1_900_000_000n;

export const permitPart = (amount: bigint = 1_500_000_000n, nonce: bigint = 12345678901234567890n) => ({
  chainId: CHAIN_ID,
  permit2: PERMIT2.toLowerCase(),
  router: ROUTER.toLowerCase(),
  token: USDC.toLowerCase(),
  amount,
  nonce,
  deadline: DEADLINE,
});

export const swapTyped = () =>
  swapIntentTypedData({
    ...permitPart(),
    intent: {
      venue: VENUE,
      path: [USDC.toLowerCase(), WETH],
      amountOutMin: 123n,
      recipient: RECIPIENT.toLowerCase(),
      unwrapNative: true,
      deadline: DEADLINE - 1n,
    },
  });

export const swapV3Typed = () =>
  swapV3IntentTypedData({
    ...permitPart(),
    intent: {
      venue: VENUE.toLowerCase(),
      path: [USDC.toLowerCase(), WETH],
      fees: [500],
      amountOutMin: 123n,
      recipient: RECIPIENT.toLowerCase(),
      unwrapNative: false,
      deadline: DEADLINE - 1n,
    },
  });

export const bridgeSwapTyped = (amount?: bigint, nonce?: bigint) =>
  bridgeSwapIntentTypedData({
    ...permitPart(amount, nonce),
    intent: {
      venue: VENUE,
      destinationChainId: 31338,
      destinationRouter: DESTINATION_ROUTER.toLowerCase(),
      destinationVenue: DESTINATION_VENUE,
      path: [USDC_B.toLowerCase(), DAI_B],
      amountOutMin: 1_480_000_000_000_000_000n,
      recipient: RECIPIENT.toLowerCase(),
      unwrapNative: false,
      deadline: DEADLINE - 1n,
    },
  });

export const EXCLUSIVE_RELAYER = randomAddress();
export const acrossTerms = {
  venue: VENUE,
  destinationChainId: 42161,
  outputToken: USDC_B.toLowerCase(),
  outputAmount: 1_499_000_000n,
  exclusiveRelayer: EXCLUSIVE_RELAYER.toLowerCase(),
  quoteTimestamp: 1_899_990_000,
  fillDeadline: 1_900_010_000,
  exclusivityParameter: 0,
};

export const acrossTyped = (integratorFees?: IntegratorFeeTerm[]) =>
  acrossIntentTypedData({
    ...permitPart(),
    intent: { ...acrossTerms, recipient: RECIPIENT.toLowerCase(), deadline: DEADLINE - 1n, integratorFees },
  });

export const acrossSwapTyped = (amount?: bigint, nonce?: bigint, integratorFees?: IntegratorFeeTerm[]) =>
  acrossSwapIntentTypedData({
    ...permitPart(amount, nonce),
    intent: {
      ...acrossTerms,
      destinationRouter: DESTINATION_ROUTER.toLowerCase(),
      destinationVenue: DESTINATION_VENUE,
      path: [USDC_B.toLowerCase(), WETH],
      fees: [500],
      amountOutMin: 123n,
      recipient: RECIPIENT.toLowerCase(),
      unwrapNative: true,
      deadline: DEADLINE - 1n,
      integratorFees,
    },
  });

export async function sign(td: TypedDataV4, wallet = new Wallet(hexlify(randomBytes(32)))) {
  const { domain, types, value } = ethersTypedDataArgs(td);
  return { wallet, signature: await wallet.signTypedData(domain, types, value) };
}

/** Expects `build` to refuse with a SponsoredIntentError of exactly `message`. */
export function expectRefusal(build: () => unknown, message: string): void {
  expect(build).toThrow(SponsoredIntentError);
  expect(build).toThrow(new SponsoredIntentError(message));
}

/** ethers Result (nested) as plain arrays, for toEqual. */
export function toPlain(value: unknown): unknown {
  if (value && typeof value === 'object' && 'toArray' in value)
    return (value as { toArray(): unknown[] }).toArray().map(toPlain);
  return value;
}
