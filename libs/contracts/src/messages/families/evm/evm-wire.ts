import type { FamilyWire } from '../family-wire-shape';

/** An EVM address: 0x and 20 bytes of hex, any case. Unanchored. */
export const EVM_ADDRESS_PATTERN = '0x[0-9a-fA-F]{40}';

/** EVM on the wire (FAMILY_WIRE). */
export const evmWire = {
  address: { pattern: EVM_ADDRESS_PATTERN },
  sponsorship: {
    modes: ['covered-transaction', 'eip2612-permit', 'permit2-intent'],
    gasKinds: [
      'permit',
      'approve-top-up',
      'swap-intent',
      'bridge-intent',
      'native-input-top-up',
      'bridge-release',
    ],
    sponsoredPurposes: ['gas-drop', 'permit', 'intent'],
    sponsorPurposes: ['nonce-fill'],
  },
  payloadTypes: ['evm-transaction', 'evm-typed-data'],
} as const satisfies FamilyWire;
