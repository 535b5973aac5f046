import type { FamilyWire } from '../family-wire-shape';

/** A Solana public key: base58 of 32 bytes, 32 to 44 characters. Unanchored. */
export const SOLANA_ADDRESS_PATTERN = '[1-9A-HJ-NP-Za-km-z]{32,44}';
export const SOLANA_ADDRESS = new RegExp(`^${SOLANA_ADDRESS_PATTERN}$`);

/** Solana on the wire (FAMILY_WIRE). */
export const solanaWire = {
  address: { pattern: SOLANA_ADDRESS_PATTERN },
  sponsorship: {
    modes: ['solana-fee-payer'],
    gasKinds: ['solana-transaction', 'solana-ata-rent'],
    sponsoredPurposes: ['solana-transaction'],
    sponsorPurposes: [],
  },
  payloadTypes: ['solana-versioned-transaction'],
} as const satisfies FamilyWire;
