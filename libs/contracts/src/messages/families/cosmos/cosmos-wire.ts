import type { FamilyWire } from '../family-wire-shape';

/**
 * A Cosmos SDK account: lower-case bech32 of its chain's prefix (`cosmos1…`, `osmo1…`, `noble1…`)
 * over 20 bytes (a key's) or 32 (a module's, a contract's); the prefix is checked against the chain
 * by @swapgw/chains. Unanchored.
 */
export const COSMOS_ADDRESS_PATTERN = '[a-z][a-z0-9]{0,30}1[02-9ac-hj-np-z]{38}(?:[02-9ac-hj-np-z]{20})?';

/** Cosmos on the wire (FAMILY_WIRE). */
export const cosmosWire = {
  address: {
    pattern: COSMOS_ADDRESS_PATTERN,
    publicKey:
      'Cosmos: the compressed key (33 bytes), required when userAddress never sent a transaction on the source chain (its account has no key yet, and the SignDoc names it); checked against the address when given. ',
  },
  sponsorship: {
    modes: ['cosmos-fee-grant'],
    gasKinds: ['cosmos-fee-grant', 'cosmos-transaction'],
    sponsoredPurposes: ['cosmos-transaction'],
    sponsorPurposes: ['cosmos-fee-grant'],
  },
  payloadTypes: ['cosmos-sign-direct'],
} as const satisfies FamilyWire;
