import { type BitcoinOutputKind, bitcoinOutputKindOf } from './bitcoin-step-psbt';

/**
 * What the service's fee wallet pays on Bitcoin (the Bitcoin part of the sponsored-gas table,
 * ../../sponsored-gas.ts): the virtual bytes of a sponsored step's transaction, priced per vbyte.
 */

/**
 * Virtual bytes of one Bitcoin output (8-byte value, script length, script; no witness) by the kind
 * of address it pays: an integrator fee output's size (estimateBitcoinWeight counts the same).
 */
export const BITCOIN_OUTPUT_VBYTES: Record<BitcoinOutputKind, bigint> = {
  p2wpkh: 31n,
  p2sh: 32n,
  p2pkh: 34n,
  p2wsh: 43n,
  p2tr: 43n,
};

/**
 * Virtual bytes of a sponsored Bitcoin step's transaction, upper figure: two P2WPKH user inputs and
 * the fee wallet's (68 vB each), the payment, an 80-byte OP_RETURN memo and two changes (31 to 43
 * vB each, 91 for the memo) and the 11 vB of version, counts and locktime. Integrator fees add
 * their outputs (BITCOIN_OUTPUT_VBYTES, one per recipient).
 */
export const BITCOIN_SPONSORED_VBYTES = 450n;

/**
 * Virtual bytes the integrator fee outputs add to a Bitcoin transaction, one per recipient sized by
 * its address's kind (an address of no standard kind, which the quote refuses, as the largest).
 */
export function bitcoinIntegratorFeeVbytes(recipients: readonly string[]): bigint {
  return recipients.reduce(
    (sum, recipient) => sum + BITCOIN_OUTPUT_VBYTES[bitcoinOutputKindOf(recipient) ?? 'p2tr'],
    0n,
  );
}
