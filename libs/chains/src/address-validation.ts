import { CHAIN_FAMILIES } from '@swapgw/contracts';
import type { ChainFamily } from './chain-descriptor';
import type { AddressCheckedChain, AddressValidation } from './families/family-traits';
import { familyTraitsOf } from './families/family-traits-table';

/**
 * Whether an address is a wallet address of a family or a chain: each family's rules are its own
 * (`families/<family>/`, through its traits' `validateAddress`); here the messages around them.
 */
export type { AddressCheckedChain, AddressValidation };
export { validateBitcoinAddress } from './families/bitcoin/bitcoin-address';
export { validateCosmosAddress } from './families/cosmos/cosmos-address';
export { validateEvmAddress } from './families/evm/evm-address';
export { validateSolanaAddress } from './families/solana/solana-address';

/**
 * Whether `address` is a wallet address of `family`: of `chain` when given (a Bitcoin address's
 * network, a Cosmos account's prefix), of any chain of the family otherwise.
 */
export function validateAddressForFamily(
  family: ChainFamily,
  address: string,
  chain?: AddressCheckedChain,
): AddressValidation {
  return familyTraitsOf(family).validateAddress(address, chain);
}

/**
 * Whether `address` is a wallet address of any family (a recipient before its chain is known, an
 * integrator fee's recipient): what the gateway checks first.
 */
export function isWalletAddressOfAnyFamily(address: string): boolean {
  return CHAIN_FAMILIES.some((family) => validateAddressForFamily(family, address).ok);
}

/**
 * Whether `address` is a wallet address of the chain's family (used for recipients and user
 * addresses by quote-service, the gateway and the planner). The reason names the chain.
 */
export function validateAddressForChain(chain: AddressCheckedChain, address: string): AddressValidation {
  if (typeof address !== 'string' || address.length === 0)
    return { ok: false, reason: `an address on ${chain.id} is required` };
  const result = validateAddressForFamily(chain.family, address, chain);
  return result.ok
    ? result
    : {
        ok: false,
        reason: `${address} is not a valid ${chain.family} address for ${chain.id}: ${result.reason}`,
      };
}

/**
 * Whether the wallet `address` (valid on `chain`: validateAddressForChain first) can sign its steps
 * with what the request tells of it, as its family says (a Bitcoin Taproot or nested-SegWit address
 * needs its `publicKey`, a Cosmos key given must be the address's). A family that signs with the
 * address alone does not read a key given for it.
 */
export function validateSignerKeyForChain(
  chain: AddressCheckedChain,
  address: string,
  publicKey: string | undefined,
): AddressValidation {
  return familyTraitsOf(chain.family).validateSignerKey?.(chain, address, publicKey) ?? { ok: true };
}
