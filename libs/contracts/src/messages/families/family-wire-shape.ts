/** The shape of a family's entry in FAMILY_WIRE (family-wire.ts), a leaf its folders' entries import. */

/** What a family's entry says. */
export interface FamilyWire {
  /** Its wallets as requests name them. */
  address: WalletAddressForm;
  /**
   * How the service pays for its steps: the sponsorship `modes` its steps carry (SponsorshipMode),
   * the `gasKinds` of cost it pays on the family's chains (a quote's `gasCoverage` kinds,
   * SponsoredGasKind; `bridge-release` is also paid on a Solana destination, it is listed once),
   * and how signer-surface's sponsorship ledger records what it pays there (a row's `purpose`):
   * `sponsoredPurposes`, the transactions that carry a user's step or signature (EVM: the gas drop
   * before a user's own transaction, a permit, an intent; a fee payer's, fee wallet's or fee
   * granter's user transaction), and `sponsorPurposes`, its sponsors' own (an EVM relayer's nonce
   * fill, a Bitcoin fee wallet's CPFP child, a Cosmos fee grant).
   */
  sponsorship: {
    modes: readonly string[];
    gasKinds: readonly string[];
    sponsoredPurposes: readonly string[];
    sponsorPurposes: readonly string[];
  };
  /** The `type` of each payload its wallets are handed (SigningPayload), in the API's order. */
  payloadTypes: readonly string[];
}

/**
 * A family's wallets as requests name them: the form of an address (unanchored), and, for a family
 * that needs the wallet's public key besides its address to build a step, what a build's
 * `userPublicKey` is on it (its part of the field's description in the API, in the family's order).
 */
export interface WalletAddressForm {
  pattern: string;
  publicKey?: string;
}
