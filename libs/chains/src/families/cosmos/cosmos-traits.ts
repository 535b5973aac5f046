import type { FamilyTraits, StepSplitLeg } from '../family-traits';
import { cosmosAddressOfPubkey, cosmosAddressUnderPrefix, validateCosmosAddress } from './cosmos-address';
import { SPONSORED_COSMOS_GAS } from './cosmos-sponsored-gas';

/** The Cosmos SDK's denom form (x/bank `reDnmString`): `uatom`, `ibc/27394F…`, `factory/osmo1…/x`. */
const COSMOS_DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

/** What the Cosmos family answers to the shared code (family-traits.ts). */
export const cosmosTraits: FamilyTraits = {
  label: 'Cosmos',
  addressDescription: 'a Cosmos account address (bech32 of the chain prefix)',
  // Of the chain's prefix when the chain is known, of any prefix otherwise.
  validateAddress: (address, chain) => validateCosmosAddress(address, chain?.cosmos?.bech32Prefix),
  /**
   * A Cosmos wallet's key, when given (a wallet that never sent a transaction has none on chain, and
   * its SignDoc's SignerInfo carries it): the compressed secp256k1 key (33 bytes, hex) of `address`.
   */
  validateSignerKey: (chain, address, publicKey) => {
    if (publicKey === undefined || !chain.cosmos) return { ok: true };
    if (!/^0[23][0-9a-fA-F]{64}$/.test(publicKey))
      return { ok: false, reason: 'a Cosmos public key is the compressed secp256k1 key (33 bytes, hex)' };
    const own = cosmosAddressOfPubkey(chain.cosmos.bech32Prefix, Buffer.from(publicKey, 'hex'));
    return own === address
      ? { ok: true }
      : { ok: false, reason: `${publicKey} is not the key of ${address}` };
  },
  // Each chain has its own prefix: the same key under another chain's.
  addressOfSameKey: (address, chain) =>
    chain.cosmos?.bech32Prefix ? cosmosAddressUnderPrefix(address, chain.cosmos.bech32Prefix) : undefined,
  // bech32 has one canonical (lower) case; a mixed-case address is no address at all.
  caseInsensitiveAddresses: false,
  caipNamespace: 'cosmos',
  payloadTypes: { 'cosmos-sign-direct': 'cosmos-sign-direct' },
  // No integrator fee is taken from a Cosmos chain yet.
  carriesIntegratorFees: false,
  // A Cosmos token is its denom (`cosmos:osmosis-1:ibc:ibc/27394F…`), kept in the catalog's
  // chain-native identity column (`mint`) as written: denoms are case-sensitive.
  tokens: {
    chainReference: /^[-a-zA-Z0-9]{1,32}$/,
    kinds: ['denom', 'ibc'],
    mintViewedAs: 'denom',
    isTokenAddress: (denom) => COSMOS_DENOM.test(denom),
    assetKeyOf: (denom) => (COSMOS_DENOM.test(denom) ? denom : undefined),
    catalogFieldsOf: (denom) => (COSMOS_DENOM.test(denom) ? { address: null, mint: denom } : undefined),
    metadataOnChain: false,
  },
  // Noble's x/forwarding: a bridge pays a forwarding account, which runs the legs after it.
  // Accounts and simulation are read over the chain's REST API (REST_URL_<CHAIN> on a real network).
  hasSigningEndpoints: (chain) => Boolean(chain.cosmos?.restUrl),
  forwardsBridgePayouts: true,
  /**
   * One SignDoc per leg (bank balances need no allowance); a swap right after an IBC transfer to its
   * chain runs on arrival from the transfer's memo and asks nothing, as does a leg of the same
   * provider continuing the previous Cosmos leg where it left off (one transaction: PFM, post-swap
   * actions).
   */
  splitLeg: ({ leg, legIndex, legs, chains, own }) => {
    // A swap delivered by the IBC transfer before it runs on arrival (the transfer's memo): no step;
    // the transfer's step binds it, as a bridge-swap's.
    const onArrival = (swap: StepSplitLeg | undefined, transfer: StepSplitLeg | undefined) =>
      swap?.kind === 'swap' &&
      transfer?.kind === 'bridge' &&
      transfer.destinationChain === swap.chain &&
      chains.familyOf(transfer.chain) === 'cosmos' &&
      chains.familyOf(swap.chain) === 'cosmos';
    const previous = legIndex > 0 ? legs[legIndex - 1] : undefined;
    // A leg of the same provider picking up where the previous Cosmos leg left off (a packet
    // forwarded by PFM, a swap's output sent on by its post-swap action: skip-go's one-transaction
    // routes) runs from that leg's transaction too.
    const continued =
      previous !== undefined &&
      previous.provider === leg.provider &&
      (previous.destinationChain ?? previous.chain) === leg.chain &&
      chains.familyOf(previous.chain) === 'cosmos';
    if (onArrival(leg, previous) || continued) return [];
    const step = own('cosmos-sign-direct');
    return [onArrival(legs[legIndex + 1], leg) ? { ...step, bridgeSwap: true } : step];
  },
  // Its fee, paid by the fee granter, preceded by the grant the granter may have to send first.
  sponsoredCostsOfLeg: (leg, pay) => {
    if (leg.cosmosSigned && leg.cosmosFeeGrant)
      pay('cosmos-fee-grant', leg.chain, 'cosmos', SPONSORED_COSMOS_GAS.feeGrant);
    if (leg.cosmosSigned) pay('cosmos-transaction', leg.chain, 'cosmos', SPONSORED_COSMOS_GAS.transaction);
  },
  // One base unit of the fee denom per gas: above every listed chain's minimum (0.005uatom,
  // 0.03uosmo, 0.1uusdc). Only for a Cosmos chain the registry does not describe (its price is its own).
  sponsoredFeeFallback: { feePerGas: 1n, tokenAccountRent: 0n },
  nativeCoinFallback: { nativeSymbol: 'ATOM', nativeDecimals: 6 },
};
