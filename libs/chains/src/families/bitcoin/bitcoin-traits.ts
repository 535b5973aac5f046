import type { FamilyTraits } from '../family-traits';
import { validateBitcoinAddress, validateBitcoinSignerKey } from './bitcoin-address';
import { bitcoinNetworksOfChain } from './bitcoin-networks';
import { BITCOIN_SPONSORED_VBYTES, bitcoinIntegratorFeeVbytes } from './bitcoin-sponsored-gas';

/** What the Bitcoin family answers to the shared code (family-traits.ts). */
export const bitcoinTraits: FamilyTraits = {
  label: 'Bitcoin',
  addressDescription: 'a lower-case bech32 Bitcoin address (P2WPKH or P2TR)',
  // Of the chain's network when the chain is known, of any network otherwise.
  validateAddress: (address, chain) =>
    validateBitcoinAddress(address, chain ? bitcoinNetworksOfChain(chain) : undefined),
  validateSignerKey: validateBitcoinSignerKey,
  // bech32 is lower case, base58 (legacy) case-sensitive: compared as written.
  caseInsensitiveAddresses: false,
  caipNamespace: 'bip122',
  payloadTypes: { 'bitcoin-psbt': 'bitcoin-psbt' },
  carriesIntegratorFees: true,
  // An output per recipient beside the deposit in the bridge deposit's PSBT the signer builds.
  integratorFeeLegProblem: (leg) =>
    leg.kind === 'bridge' ? null : `the ${leg.provider} leg on ${leg.chain} is not a bridge deposit`,
  // No tokens: BTC is the native coin only.
  forwardsBridgePayouts: false,
  // One PSBT per leg (a UTXO spend needs no allowance).
  splitLeg: ({ own }) => [own('bitcoin-psbt')],
  // The miner fee, paid in full by the service's fee wallet input, with the integrator fees' outputs.
  sponsoredCostsOfLeg: (leg, pay) => {
    const vbytes = BITCOIN_SPONSORED_VBYTES + bitcoinIntegratorFeeVbytes(leg.integratorFeeRecipients ?? []);
    pay('bitcoin-transaction', leg.chain, 'bitcoin', vbytes);
  },
  // Sat/vB: a busy mempool's next-blocks rate, well above the 1 sat/vB floor.
  sponsoredFeeFallback: { feePerGas: 20n, tokenAccountRent: 0n },
  nativeCoinFallback: { nativeSymbol: 'BTC', nativeDecimals: 8 },
};
