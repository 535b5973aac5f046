import type { FamilyWire } from '../family-wire-shape';

/**
 * A Bitcoin address of mainnet, testnet or regtest: SegWit (bech32 / bech32m, lower case) or P2SH
 * (base58, `3…` on mainnet, `2…` on the test networks: Xverse's nested-SegWit payment address).
 * Unanchored, for patterns that embed it (a bridge memo).
 */
export const BITCOIN_ADDRESS_PATTERN =
  '(?:(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|[23][1-9A-HJ-NP-Za-km-z]{32,34})';
export const BITCOIN_ADDRESS = new RegExp(`^${BITCOIN_ADDRESS_PATTERN}$`);

/** Bitcoin on the wire (FAMILY_WIRE). */
export const bitcoinWire = {
  address: {
    pattern: BITCOIN_ADDRESS_PATTERN,
    publicKey:
      "(Unisat getPublicKey, Xverse's publicKey): " +
      'required when userAddress is a Bitcoin Taproot (P2TR, bc1p…) address (compressed 33 bytes or x-only 32: the PSBT carries it as tapInternalKey) ' +
      "or a nested-SegWit P2SH-P2WPKH (3… / 2…) address (compressed 33 bytes: the input's redeem script is made of it). " +
      'Checked against the address when given for a native SegWit one. ',
  },
  sponsorship: {
    modes: ['bitcoin-fee-wallet'],
    gasKinds: ['bitcoin-transaction'],
    sponsoredPurposes: ['bitcoin-transaction'],
    sponsorPurposes: ['bitcoin-fee-bump'],
  },
  payloadTypes: ['bitcoin-psbt'],
} as const satisfies FamilyWire;
