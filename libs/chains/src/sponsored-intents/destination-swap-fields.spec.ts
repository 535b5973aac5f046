import type { TypedDataV4 } from './intent-types';
import { acrossSwapIntentTypedData, bridgeSwapIntentTypedData } from './typed-data';
import { SPONSORED_INTENT_TYPES } from './witness-types';
import {
  acrossTerms,
  DAI_B,
  DEADLINE,
  DESTINATION_ROUTER,
  DESTINATION_VENUE,
  expectRefusal,
  permitPart,
  RECIPIENT,
  USDC_B,
  VENUE,
  WETH,
} from './testing/intent-fixtures';

// Both bridge-and-swap kinds take their destination swap through one builder: each writes it alike
// and refuses a bad one with the same words, before or after the other fields as the witness orders them.

const destinationSwap = {
  destinationRouter: DESTINATION_ROUTER.toLowerCase(),
  destinationVenue: DESTINATION_VENUE.toLowerCase(),
  amountOutMin: '0x10',
  recipient: RECIPIENT.toLowerCase(),
  unwrapNative: true,
};

type Kind = 'BridgeSwapIntent' | 'AcrossSwapIntent';

/** Typed data of each kind whose intent is a valid one with `changes` over it. */
const builders: Record<Kind, (changes: Record<string, unknown>) => TypedDataV4> = {
  BridgeSwapIntent: (changes) =>
    bridgeSwapIntentTypedData({
      ...permitPart(),
      intent: {
        venue: VENUE,
        destinationChainId: 31338,
        ...destinationSwap,
        path: [USDC_B.toLowerCase(), DAI_B],
        deadline: DEADLINE,
        ...changes,
      },
    }),
  AcrossSwapIntent: (changes) =>
    acrossSwapIntentTypedData({
      ...permitPart(),
      intent: {
        ...acrossTerms,
        ...destinationSwap,
        path: [USDC_B.toLowerCase(), WETH],
        fees: [500],
        deadline: DEADLINE,
        ...changes,
      },
    }),
};
const kinds = Object.keys(builders) as Kind[];
const destinationSwapNames = [
  'destinationRouter',
  'destinationVenue',
  'path',
  'amountOutMin',
  'recipient',
  'unwrapNative',
];

describe('sponsored intents: the destination swap of a bridge-and-swap intent', () => {
  it.each(kinds)(
    '%s: router, venue, path, amountOutMin, recipient and unwrapNative together, checksummed and decimal',
    (kind) => {
      const witness = builders[kind]({}).message.witness as Record<string, unknown>;
      const names = SPONSORED_INTENT_TYPES[kind].map((field) => field.name);
      const first = names.indexOf('destinationRouter');
      expect(names.slice(first, first + destinationSwapNames.length)).toEqual(destinationSwapNames);
      expect(Object.keys(witness)).toEqual(names);
      expect(witness).toMatchObject({
        destinationRouter: DESTINATION_ROUTER,
        destinationVenue: DESTINATION_VENUE,
        amountOutMin: '16',
        recipient: RECIPIENT,
        unwrapNative: true,
      });
      expect(
        (builders[kind]({ unwrapNative: false }).message.witness as Record<string, unknown>).unwrapNative,
      ).toBe(false);
    },
  );

  const refusals: [string, Record<string, unknown>, string][] = [
    ['an unwrapNative that is a string', { unwrapNative: 'true' }, 'intent.unwrapNative must be a boolean'],
    ['a missing unwrapNative', { unwrapNative: undefined }, 'intent.unwrapNative must be a boolean'],
    [
      'a destination router that is not an address',
      { destinationRouter: '0x12' },
      'intent.destinationRouter is not an address: 0x12',
    ],
    [
      'a recipient that is not an address',
      { recipient: '0x1234' },
      'intent.recipient is not an address: 0x1234',
    ],
    [
      'the destination router as recipient',
      { recipient: DESTINATION_ROUTER },
      'intent.recipient cannot be the destination router',
    ],
    [
      'a destination venue that is not an address',
      { destinationVenue: '0x12' },
      'intent.destinationVenue is not an address: 0x12',
    ],
    ['an empty amountOutMin', { amountOutMin: ' ' }, 'intent.amountOutMin is empty'],
    ['a negative amountOutMin', { amountOutMin: -1n }, 'intent.amountOutMin is not a uint256: -1'],
  ];

  it.each(
    kinds.flatMap((kind) => refusals.map(([what, changes, message]) => [kind, what, changes, message])),
  )('%s refuses %s', (kind, _what, changes, message) => {
    expectRefusal(() => builders[kind as Kind](changes as Record<string, unknown>), message as string);
  });

  it.each(kinds)(
    '%s refuses the first bad value: unwrapNative, then the router and the recipient, before the venue; the destination venue and amountOutMin in witness order',
    (kind) => {
      const build = builders[kind];
      expectRefusal(
        () => build({ unwrapNative: 1, destinationRouter: '0x12', venue: '0x12' }),
        'intent.unwrapNative must be a boolean',
      );
      expectRefusal(
        () => build({ destinationRouter: '0x12', recipient: '0x1234' }),
        'intent.destinationRouter is not an address: 0x12',
      );
      expectRefusal(
        () => build({ recipient: DESTINATION_ROUTER, venue: '0x12' }),
        'intent.recipient cannot be the destination router',
      );
      expectRefusal(
        () => build({ destinationVenue: '0x12', venue: '0x12' }),
        'intent.venue is not an address: 0x12',
      );
      expectRefusal(
        () => build({ destinationVenue: '0x12', destinationChainId: '' }),
        'intent.destinationChainId is empty',
      );
      expectRefusal(
        () => build({ destinationVenue: '0x12', amountOutMin: '' }),
        'intent.destinationVenue is not an address: 0x12',
      );
      expectRefusal(() => build({ amountOutMin: '', deadline: '' }), 'intent.amountOutMin is empty');
    },
  );

  it('AcrossSwapIntent: its deposit’s terms before the destination swap, its path checked before', () => {
    const build = builders.AcrossSwapIntent;
    expectRefusal(
      () => build({ outputAmount: -1, destinationVenue: '0x12' }),
      'intent.outputAmount is not a uint256: -1',
    );
    expectRefusal(
      () => build({ quoteTimestamp: 2 ** 32, amountOutMin: '' }),
      `intent.quoteTimestamp is not a uint32: ${2 ** 32}`,
    );
    expectRefusal(() => build({ fees: [0], unwrapNative: 'true' }), 'intent.fees must be 1 uint24 pool fees');
  });

  it('BridgeSwapIntent: its path checked before the destination swap', () => {
    expectRefusal(
      () => builders.BridgeSwapIntent({ path: [USDC_B], recipient: DESTINATION_ROUTER }),
      'intent.path needs at least two tokens',
    );
  });
});
