import { PublicKey } from '@solana/web3.js';
import type { ChainDescriptor, ChainFamily, ChainNetwork } from './chain-descriptor';
import { bitcoinSpendOf, decodeBitcoinAddress } from './families/bitcoin/bitcoin-address';
import { bitcoinNetworksOfChain, type BitcoinNetworkName } from './families/bitcoin/bitcoin-networks';
import { cosmosAddressOfPubkey, validateCosmosAddress } from './families/cosmos/cosmos-address';
import { checksumEvmAddress } from './families/evm/evm-address';

export { validateCosmosAddress };

/** Outcome of an address check: `reason` says what is wrong, for a 400 INVALID_ADDRESS message. */
export type AddressValidation = { ok: true } | { ok: false; reason: string };

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * EVM: 0x and 40 hex digits, either all lower-case or with a valid EIP-55 checksum. Any other
 * letter case (a wrong checksum, or all upper-case, which ethers would accept) is refused: it is
 * either a typo or not what a wallet shows.
 */
export function validateEvmAddress(address: string): AddressValidation {
  if (!EVM_HEX.test(address))
    return { ok: false, reason: 'an EVM address is 0x followed by 40 hexadecimal digits' };
  if (address.slice(2) === address.slice(2).toLowerCase()) return { ok: true };
  return checksumEvmAddress(address.toLowerCase()) === address
    ? { ok: true }
    : {
        ok: false,
        reason:
          'the EIP-55 checksum (letter case) of this EVM address is wrong; use the checksummed or the all-lower-case form',
      };
}

/** Solana: base58 that decodes to exactly 32 bytes (a PublicKey), in its canonical spelling. */
export function validateSolanaAddress(address: string): AddressValidation {
  if (!BASE58.test(address)) return { ok: false, reason: 'a Solana address is 32 to 44 base58 characters' };
  try {
    // PublicKey accepts any base58 of at most 32 bytes; the round trip rejects shorter keys padded by it.
    if (new PublicKey(address).toBase58() === address) return { ok: true };
  } catch {
    // falls through: not 32 bytes
  }
  return { ok: false, reason: 'a Solana address must decode from base58 to a 32-byte public key' };
}

/**
 * Bitcoin: a P2WPKH or P2TR address (lower-case bech32 / bech32m) of one of `networks` (`bc1…`
 * mainnet, `tb1…` testnet, `bcrt1…` regtest); of any of them by default (a caller that knows only
 * the family).
 */
export function validateBitcoinAddress(
  address: string,
  networks: readonly BitcoinNetworkName[] = ['mainnet', 'testnet', 'regtest'],
): AddressValidation {
  const results = networks.map((network) => decodeBitcoinAddress(address, network));
  if (results.some((result) => result.ok)) return { ok: true };
  const [only] = results;
  if (results.length === 1 && only && !only.ok) return { ok: false, reason: only.reason };
  return {
    ok: false,
    reason: `a Bitcoin address here is a lower-case P2WPKH or P2TR bech32 address of ${networks.join(' or ')}`,
  };
}

/**
 * `bitcoinNetworks`: the networks a Bitcoin address may be of (any of them when undefined);
 * `bech32Prefix`: the prefix of a Cosmos chain's accounts (any prefix when undefined).
 */
export function validateAddressForFamily(
  family: ChainFamily,
  address: string,
  bitcoinNetworks?: readonly BitcoinNetworkName[],
  bech32Prefix?: string,
): AddressValidation {
  switch (family) {
    case 'evm':
      return validateEvmAddress(address);
    case 'solana':
      return validateSolanaAddress(address);
    case 'bitcoin':
      return validateBitcoinAddress(address, bitcoinNetworks);
    case 'cosmos':
      return validateCosmosAddress(address, bech32Prefix);
  }
}

/**
 * The chain fields an address check reads: its family, and for Bitcoin its network (`bitcoinNetwork`
 * when the chain names one, the devnet's `regtest`; else what `network` allows).
 */
export type AddressCheckedChain = Pick<ChainDescriptor, 'id' | 'family'> & {
  network?: ChainNetwork;
  bitcoinNetwork?: BitcoinNetworkName;
  cosmos?: { bech32Prefix: string };
};

/**
 * Whether `address` is a wallet address of the chain's family (used for recipients and user
 * addresses by quote-service, the gateway and the planner). The reason names the chain.
 */
export function validateAddressForChain(chain: AddressCheckedChain, address: string): AddressValidation {
  if (typeof address !== 'string' || address.length === 0)
    return { ok: false, reason: `an address on ${chain.id} is required` };
  const result = validateAddressForFamily(
    chain.family,
    address,
    bitcoinNetworksOfChain(chain),
    chain.cosmos?.bech32Prefix,
  );
  return result.ok
    ? result
    : {
        ok: false,
        reason: `${address} is not a valid ${chain.family} address for ${chain.id}: ${result.reason}`,
      };
}

/**
 * Whether the wallet `address` (valid on `chain`: validateAddressForChain first) can sign its steps
 * with what the request tells of it: a Bitcoin Taproot or nested-SegWit (P2SH-P2WPKH) address needs
 * its `publicKey`, and a key given for a Bitcoin address must be that address's. Other families sign
 * with the address alone; a key given for them is not read.
 */
export function validateSignerKeyForChain(
  chain: AddressCheckedChain,
  address: string,
  publicKey: string | undefined,
): AddressValidation {
  if (chain.family === 'cosmos') return cosmosSignerKeyValidation(chain, address, publicKey);
  if (chain.family !== 'bitcoin') return { ok: true };
  const decoded = bitcoinNetworksOfChain(chain)
    .map((network) => decodeBitcoinAddress(address, network))
    .find((result) => result.ok);
  if (!decoded?.ok) return { ok: false, reason: `${address} is not a Bitcoin address of ${chain.id}` };
  const spend = bitcoinSpendOf(decoded.value, publicKey);
  return spend.ok ? { ok: true } : { ok: false, reason: spend.reason };
}

/**
 * A Cosmos wallet's key, when given (a wallet that never sent a transaction has none on chain, and
 * its SignDoc's SignerInfo carries it): the compressed secp256k1 key (33 bytes, hex) of `address`.
 */
function cosmosSignerKeyValidation(
  chain: AddressCheckedChain,
  address: string,
  publicKey: string | undefined,
): AddressValidation {
  if (publicKey === undefined || !chain.cosmos) return { ok: true };
  if (!/^0[23][0-9a-fA-F]{64}$/.test(publicKey))
    return { ok: false, reason: 'a Cosmos public key is the compressed secp256k1 key (33 bytes, hex)' };
  const own = cosmosAddressOfPubkey(chain.cosmos.bech32Prefix, Buffer.from(publicKey, 'hex'));
  return own === address ? { ok: true } : { ok: false, reason: `${publicKey} is not the key of ${address}` };
}
