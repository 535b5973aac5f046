import { getAddress, hexlify, randomBytes, ZeroAddress } from 'ethers';
import type { TypedDataV4 } from './intent-types';
import {
  acrossIntentTypedData,
  acrossSwapIntentTypedData,
  bridgeIntentTypedData,
  bridgeSwapIntentTypedData,
  bridgeToIntentTypedData,
  swapIntentTypedData,
  swapV3IntentTypedData,
} from './typed-data';
import { SPONSORED_INTENT_TYPES, type SponsoredWitnessType } from './witness-types';
import {
  acrossTerms,
  DAI_B,
  DEADLINE,
  DESTINATION_ROUTER,
  DESTINATION_VENUE,
  expectRefusal,
  permitPart,
  RECIPIENT,
  USDC,
  USDC_B,
  VENUE,
  WETH,
} from './testing/intent-fixtures';

// Every intent kind takes its venue, destination chain, deadline and integrator fees through one
// builder: each kind writes them alike and refuses a bad one with the same words.

const PERMITTED = 1_500_000_000n;
const FEE_RECIPIENT = getAddress('0x' + 'f1'.repeat(20));
const swap = { path: [USDC, WETH], amountOutMin: 1n, recipient: RECIPIENT, unwrapNative: false };
const destinationSwap = {
  destinationRouter: DESTINATION_ROUTER,
  destinationVenue: DESTINATION_VENUE,
  amountOutMin: 1n,
  recipient: RECIPIENT,
  unwrapNative: false,
};

/** Typed data of each kind over `shared` fields (lowercase venue, a bigint deadline by default). */
const builders: Record<SponsoredWitnessType, (shared: Record<string, unknown>) => TypedDataV4> = {
  SwapIntent: (shared) =>
    swapIntentTypedData({ ...permitPart(PERMITTED), intent: { ...swap, ...sharedFields(shared) } }),
  SwapV3Intent: (shared) =>
    swapV3IntentTypedData({
      ...permitPart(PERMITTED),
      intent: { ...swap, fees: [500], ...sharedFields(shared) },
    }),
  BridgeIntent: (shared) =>
    bridgeIntentTypedData({
      ...permitPart(PERMITTED),
      intent: { recipient: RECIPIENT, ...sharedFields(shared, 31338) },
    }),
  BridgeToIntent: (shared) =>
    bridgeToIntentTypedData({
      ...permitPart(PERMITTED),
      intent: { recipient: hexlify(randomBytes(32)), ...sharedFields(shared, 900) },
    }),
  BridgeSwapIntent: (shared) =>
    bridgeSwapIntentTypedData({
      ...permitPart(PERMITTED),
      intent: { ...destinationSwap, path: [USDC_B, DAI_B], ...sharedFields(shared, 31338) },
    }),
  AcrossIntent: (shared) =>
    acrossIntentTypedData({
      ...permitPart(PERMITTED),
      intent: { ...acrossTerms, recipient: RECIPIENT, ...sharedFields(shared, 42161) },
    }),
  AcrossSwapIntent: (shared) =>
    acrossSwapIntentTypedData({
      ...permitPart(PERMITTED),
      intent: {
        ...acrossTerms,
        ...destinationSwap,
        path: [USDC_B, WETH],
        fees: [500],
        ...sharedFields(shared, 42161),
      },
    }),
};

function sharedFields(shared: Record<string, unknown>, destinationChainId?: number) {
  return {
    venue: VENUE.toLowerCase(),
    ...(destinationChainId === undefined ? {} : { destinationChainId }),
    deadline: DEADLINE,
    ...shared,
  } as { venue: string; destinationChainId: number; deadline: bigint };
}

const kinds = Object.keys(builders) as SponsoredWitnessType[];
/** The kinds that deposit to another chain, whose witness names it. */
const crossChainKinds: SponsoredWitnessType[] = [
  'BridgeIntent',
  'BridgeToIntent',
  'BridgeSwapIntent',
  'AcrossIntent',
  'AcrossSwapIntent',
];

describe('sponsored intents: the fields every intent shares', () => {
  it.each(kinds)(
    '%s: venue first, deadline and integrator fees last, in the witness struct’s order',
    (kind) => {
      const td = builders[kind]({
        deadline: '0x' + DEADLINE.toString(16),
        integratorFees: [{ recipient: FEE_RECIPIENT.toLowerCase(), amount: '0x10' }],
      });
      const witness = td.message.witness as Record<string, unknown>;
      expect(Object.keys(witness)).toEqual(SPONSORED_INTENT_TYPES[kind].map((field) => field.name));
      expect(witness.venue).toBe(VENUE);
      expect(witness.deadline).toBe(String(DEADLINE));
      expect(witness.integratorFees).toEqual([{ recipient: FEE_RECIPIENT, amount: '16' }]);
      expect((builders[kind]({}).message.witness as Record<string, unknown>).integratorFees).toEqual([]);
    },
  );

  it.each(crossChainKinds)('%s: the destination chain second, as a decimal string', (kind) => {
    const witness = builders[kind]({ destinationChainId: '0x7a6a' }).message.witness as Record<
      string,
      unknown
    >;
    expect(Object.keys(witness).slice(0, 2)).toEqual(['venue', 'destinationChainId']);
    expect(witness.destinationChainId).toBe('31338');
  });

  it.each(kinds.filter((kind) => !crossChainKinds.includes(kind)))(
    '%s: no destination chain in a swap’s witness, even when the caller passes one',
    (kind) => {
      expect(builders[kind]({ destinationChainId: 'not read' }).message.witness).not.toHaveProperty(
        'destinationChainId',
      );
    },
  );

  const refusals: [string, Record<string, unknown>, string][] = [
    ['a venue that is not an address', { venue: '0x12' }, 'intent.venue is not an address: 0x12'],
    ['an empty deadline', { deadline: ' ' }, 'intent.deadline is empty'],
    [
      'a deadline beyond uint256',
      { deadline: 1n << 256n },
      `intent.deadline is not a uint256: ${1n << 256n}`,
    ],
    [
      'a fee recipient that is not an address',
      { integratorFees: [{ recipient: '0x1', amount: 1n }] },
      'intent.integratorFees[0].recipient is not an address: 0x1',
    ],
    [
      'a fee amount that is not an integer',
      {
        integratorFees: [
          { recipient: FEE_RECIPIENT, amount: 1n },
          { recipient: FEE_RECIPIENT, amount: '1.5' },
        ],
      },
      'intent.integratorFees[1].amount is not an integer: 1.5',
    ],
    [
      'a zero fee',
      { integratorFees: [{ recipient: FEE_RECIPIENT, amount: 0n }] },
      'intent.integratorFees: each fee needs a recipient and a non-zero amount',
    ],
    [
      'a fee to the zero address',
      { integratorFees: [{ recipient: ZeroAddress, amount: 1n }] },
      'intent.integratorFees: each fee needs a recipient and a non-zero amount',
    ],
    [
      'fees that take the whole permitted amount',
      {
        integratorFees: [
          { recipient: FEE_RECIPIENT, amount: PERMITTED - 1n },
          { recipient: RECIPIENT, amount: 1n },
        ],
      },
      'intent.integratorFees take the whole permitted amount',
    ],
  ];

  it.each(kinds.flatMap((kind) => refusals.map(([what, shared, message]) => [kind, what, shared, message])))(
    '%s refuses %s',
    (kind, _what, shared, message) => {
      expectRefusal(
        () => builders[kind as SponsoredWitnessType](shared as Record<string, unknown>),
        message as string,
      );
    },
  );

  it.each(crossChainKinds)('%s refuses a destination chain that is not a uint256', (kind) => {
    expectRefusal(() => builders[kind]({ destinationChainId: '' }), 'intent.destinationChainId is empty');
    expectRefusal(
      () => builders[kind]({ destinationChainId: -1 }),
      'intent.destinationChainId is not a uint256: -1',
    );
    expectRefusal(
      () => builders[kind]({ destinationChainId: undefined }),
      'intent.destinationChainId is not an integer: undefined',
    );
  });

  it('refuses the first bad value in witness order: the venue before the intent’s own fields, those before the deadline and the fees', () => {
    const zeroFee = [{ recipient: FEE_RECIPIENT, amount: 0n }];
    expectRefusal(
      () => builders.BridgeIntent({ venue: 'x', destinationChainId: '', deadline: '' }),
      'intent.venue is not an address: x',
    );
    expectRefusal(
      () => builders.BridgeIntent({ destinationChainId: '', deadline: '' }),
      'intent.destinationChainId is empty',
    );
    expectRefusal(
      () => builders.AcrossIntent({ outputAmount: -1, deadline: '' }),
      'intent.outputAmount is not a uint256: -1',
    );
    expectRefusal(
      () => builders.SwapIntent({ deadline: '', integratorFees: zeroFee }),
      'intent.deadline is empty',
    );
  });
});
