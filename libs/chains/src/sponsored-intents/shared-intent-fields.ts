import { ZeroAddress } from 'ethers';
import type { IntegratorFeeTerm, UintLike } from './intent-types';
import { checksummed, SponsoredIntentError, uintString } from './intent-values';
import { SPONSORED_INTENT_TYPES, type SponsoredWitnessType } from './witness-types';

// The fields every intent's witness shares (its venue, the destination chain of a deposit to
// another chain, its deadline and its integrator fees), checked and written once for every kind;
// each kind's builder adds only its own fields.

/** What every intent carries; `destinationChainId` only the kinds whose witness has it (deposits to another chain). */
export interface SharedIntentFields {
  venue: string;
  destinationChainId?: UintLike;
  deadline: UintLike;
  integratorFees?: IntegratorFeeTerm[];
}

/**
 * The witness of a `kind` intent in its struct's field order: the venue first, then the
 * destination chain when `kind` has one, then the kind's own fields (`ownFields`, built only once
 * the venue and the destination chain are valid), then the deadline and the integrator fees last.
 * Throws a SponsoredIntentError on the first value the router would refuse.
 */
export function intentWitness(
  kind: SponsoredWitnessType,
  intent: SharedIntentFields,
  permitted: UintLike,
  ownFields: () => Record<string, unknown>,
): Record<string, unknown> {
  return {
    venue: checksummed(intent.venue, 'intent.venue'),
    ...(hasDestinationChain(kind)
      ? // The intent types of these kinds require it; a caller's missing one is refused as not an integer.
        { destinationChainId: uintString(intent.destinationChainId as UintLike, 'intent.destinationChainId') }
      : {}),
    ...ownFields(),
    deadline: uintString(intent.deadline, 'intent.deadline'),
    integratorFees: integratorFeesOf(intent.integratorFees, permitted),
  };
}

function hasDestinationChain(kind: SponsoredWitnessType): boolean {
  return SPONSORED_INTENT_TYPES[kind].some((field) => field.name === 'destinationChainId');
}

/**
 * The fees as the witness carries them (checksummed recipients, decimal amounts); each non-zero and
 * together less than the permitted amount, as the router requires, so a user is never asked to sign
 * fees the router would refuse.
 */
function integratorFeesOf(
  fees: IntegratorFeeTerm[] | undefined,
  permitted: UintLike,
): { recipient: string; amount: string }[] {
  const terms = (fees ?? []).map((fee, i) => ({
    recipient: checksummed(fee.recipient, `intent.integratorFees[${i}].recipient`),
    amount: uintString(fee.amount, `intent.integratorFees[${i}].amount`),
  }));
  const total = terms.reduce((sum, fee) => sum + BigInt(fee.amount), 0n);
  if (terms.some((fee) => BigInt(fee.amount) === 0n || fee.recipient === ZeroAddress))
    throw new SponsoredIntentError('intent.integratorFees: each fee needs a recipient and a non-zero amount');
  if (terms.length > 0 && total >= BigInt(uintString(permitted, 'amount')))
    throw new SponsoredIntentError('intent.integratorFees take the whole permitted amount');
  return terms;
}
