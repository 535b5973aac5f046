/**
 * The chain families, and the forms of addresses and transaction ids the messages carry, one per
 * family, in one place: a message is checked for the form here; whether an address belongs to the
 * chain it is used on (its family, a Bitcoin address's network) is @swapgw/chains' check, whose
 * per-family traits (libs/chains/src/families/<family>/) are keyed by this union.
 */

/** Every chain family the suite knows, in the order the API lists them (the Chain resource's `family`). */
export const CHAIN_FAMILIES = ['evm', 'solana', 'bitcoin', 'cosmos'] as const;
export type ChainFamily = (typeof CHAIN_FAMILIES)[number];

const EVM = '0x[0-9a-fA-F]{40}';
/** A Solana public key: base58 of 32 bytes, 32 to 44 characters. */
const SOLANA = '[1-9A-HJ-NP-Za-km-z]{32,44}';
/**
 * A Bitcoin address of mainnet, testnet or regtest: SegWit (bech32 / bech32m, lower case) or P2SH
 * (base58, `3…` on mainnet, `2…` on the test networks: Xverse's nested-SegWit payment address).
 * Unanchored, for patterns that embed it (a bridge memo).
 */
export const BITCOIN_ADDRESS_PATTERN =
  '(?:(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|[23][1-9A-HJ-NP-Za-km-z]{32,34})';

/**
 * A Cosmos SDK account: lower-case bech32 of its chain's prefix (`cosmos1…`, `osmo1…`, `noble1…`)
 * over 20 bytes (a key's) or 32 (a module's, a contract's); the prefix is checked against the chain
 * by @swapgw/chains.
 */
const COSMOS = '[a-z][a-z0-9]{0,30}1[02-9ac-hj-np-z]{38}(?:[02-9ac-hj-np-z]{20})?';

export const SOLANA_ADDRESS = new RegExp(`^${SOLANA}$`);
export const BITCOIN_ADDRESS = new RegExp(`^${BITCOIN_ADDRESS_PATTERN}$`);

/**
 * A Bitcoin wallet's public key, hex: compressed SEC1 (33 bytes, 02/03…) or a Taproot x-only key
 * (32 bytes), as wallets hand it out with the address (Unisat `getPublicKey`, Xverse `publicKey`).
 */
export const BITCOIN_PUBLIC_KEY = /^(?:0[23])?[0-9a-fA-F]{64}$/;

/** Who a Solana bridge deposit pays: an EVM address, a Bitcoin address or a Cosmos (Noble) account. */
export const SOLANA_BRIDGE_RECIPIENT = new RegExp(`^(?:${EVM}|${BITCOIN_ADDRESS_PATTERN}|${COSMOS})$`);

/**
 * A family's wallets as requests name them: the form of an address (unanchored), and, for a family
 * that needs the wallet's public key besides its address to build a step, what a build's
 * `userPublicKey` is on it (its part of the field's description in the API, in the family's order).
 */
interface WalletAddressForm {
  pattern: string;
  publicKey?: string;
}

/** The form of a wallet address of each family. */
const WALLET_ADDRESS_FORMS: Record<ChainFamily, WalletAddressForm> = {
  evm: { pattern: EVM },
  solana: { pattern: SOLANA },
  bitcoin: {
    pattern: BITCOIN_ADDRESS_PATTERN,
    publicKey:
      "(Unisat getPublicKey, Xverse's publicKey): " +
      'required when userAddress is a Bitcoin Taproot (P2TR, bc1p…) address (compressed 33 bytes or x-only 32: the PSBT carries it as tapInternalKey) ' +
      "or a nested-SegWit P2SH-P2WPKH (3… / 2…) address (compressed 33 bytes: the input's redeem script is made of it). " +
      'Checked against the address when given for a native SegWit one. ',
  },
  cosmos: {
    pattern: COSMOS,
    publicKey:
      'Cosmos: the compressed key (33 bytes), required when userAddress never sent a transaction on the source chain (its account has no key yet, and the SignDoc names it); checked against the address when given. ',
  },
};

/** A wallet of any family the suite signs for: EVM, Solana, Bitcoin or Cosmos. */
export const WALLET_ADDRESS = new RegExp(
  `^(?:${CHAIN_FAMILIES.map((family) => WALLET_ADDRESS_FORMS[family].pattern).join('|')})$`,
);

/**
 * What a build's `userPublicKey` is, the API's description of the field: each family that needs
 * one tells its part (WALLET_ADDRESS_FORMS).
 */
export const USER_PUBLIC_KEY_DESCRIPTION =
  'The public key of userAddress, hex, as the wallet tells it with the address ' +
  CHAIN_FAMILIES.map((family) => WALLET_ADDRESS_FORMS[family].publicKey ?? '').join('') +
  'Ignored for other families. Missing or not the key of userAddress → 400 INVALID_ADDRESS (field userPublicKey).';

/** An account a step may wait on: a wallet of any family, or a token (EVM contract, Solana mint). */
export const WALLET_OR_TOKEN = WALLET_ADDRESS;

/**
 * A token a step may wait for a balance of: a token account (WALLET_OR_TOKEN), or a Cosmos bank
 * denom as the SDK's denom check takes it (`uusdc`, `ibc/27394F…`, `factory/…`).
 */
export const WAIT_FOR_TOKEN = new RegExp(
  `^(?:${EVM}|${SOLANA}|${BITCOIN_ADDRESS_PATTERN}|${COSMOS}|[a-zA-Z][a-zA-Z0-9/:._-]{2,127})$`,
);

/** An EVM transaction hash: 0x and 32 bytes. */
export const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * A transaction id: an EVM hash (0x + 32 bytes), a Solana signature (base58 of 64 bytes) or a
 * Bitcoin txid (32 bytes of hex, no 0x, as block explorers and Esplora write it).
 */
export const TX_HASH = /^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/;
