/**
 * The chain families, and the forms of addresses and transaction ids the messages carry: a message
 * is checked for the form here; whether an address belongs to the chain it is used on (its family,
 * a Bitcoin address's network) is @swapgw/chains' check, whose per-family traits
 * (libs/chains/src/families/<family>/) are keyed by this union. Each family's own forms are in its
 * folder (`families/<family>/<family>-wire.ts`) and registered in FAMILY_WIRE; what is here is read
 * from that table, or shared by every family.
 */
import { FAMILY_WIRE, type WalletAddressForm } from './families/family-wire';

/** A chain family the suite knows (the Chain resource's `family`): an entry of FAMILY_WIRE. */
export type ChainFamily = keyof typeof FAMILY_WIRE;

/** Every chain family the suite knows, in the order the API lists them (FAMILY_WIRE's). */
export const CHAIN_FAMILIES = Object.keys(FAMILY_WIRE) as readonly ChainFamily[];

/** A Bitcoin address of any network, unanchored (the Bitcoin entry's form), for patterns that embed it (a bridge memo). */
export const BITCOIN_ADDRESS_PATTERN = FAMILY_WIRE.bitcoin.address.pattern;

/**
 * A Bitcoin wallet's public key, hex: compressed SEC1 (33 bytes, 02/03…) or a Taproot x-only key
 * (32 bytes), as wallets hand it out with the address (Unisat `getPublicKey`, Xverse `publicKey`).
 */
export const BITCOIN_PUBLIC_KEY = /^(?:0[23])?[0-9a-fA-F]{64}$/;

/** Who a Solana bridge deposit pays: an EVM address, a Bitcoin address or a Cosmos (Noble) account. */
export const SOLANA_BRIDGE_RECIPIENT = new RegExp(
  `^(?:${FAMILY_WIRE.evm.address.pattern}|${FAMILY_WIRE.bitcoin.address.pattern}|${FAMILY_WIRE.cosmos.address.pattern})$`,
);

/** Each family's wallet address pattern, in the families' order. */
const WALLET_ADDRESS_PATTERNS = CHAIN_FAMILIES.map((family) => FAMILY_WIRE[family].address.pattern);

/** A wallet of any family the suite signs for: EVM, Solana, Bitcoin or Cosmos. */
export const WALLET_ADDRESS = new RegExp(`^(?:${WALLET_ADDRESS_PATTERNS.join('|')})$`);

/**
 * What a build's `userPublicKey` is, the API's description of the field: each family that needs
 * one tells its part (its address form in FAMILY_WIRE).
 */
export const USER_PUBLIC_KEY_DESCRIPTION =
  'The public key of userAddress, hex, as the wallet tells it with the address ' +
  CHAIN_FAMILIES.map((family) => (FAMILY_WIRE[family].address as WalletAddressForm).publicKey ?? '').join(
    '',
  ) +
  'Ignored for other families. Missing or not the key of userAddress → 400 INVALID_ADDRESS (field userPublicKey).';

/** An account a step may wait on: a wallet of any family, or a token (EVM contract, Solana mint). */
export const WALLET_OR_TOKEN = WALLET_ADDRESS;

/**
 * A token a step may wait for a balance of: a token account (WALLET_OR_TOKEN), or a Cosmos bank
 * denom as the SDK's denom check takes it (`uusdc`, `ibc/27394F…`, `factory/…`).
 */
export const WAIT_FOR_TOKEN = new RegExp(
  `^(?:${WALLET_ADDRESS_PATTERNS.join('|')}|[a-zA-Z][a-zA-Z0-9/:._-]{2,127})$`,
);

/** An EVM transaction hash: 0x and 32 bytes. */
export const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * A transaction id: an EVM hash (0x + 32 bytes), a Solana signature (base58 of 64 bytes) or a
 * Bitcoin txid (32 bytes of hex, no 0x, as block explorers and Esplora write it).
 */
export const TX_HASH = /^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/;
