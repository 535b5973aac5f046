import type { BridgeSwapIntent } from './intent-types';
import { checksummed, SponsoredIntentError, uintString } from './intent-values';

// The swap a bridge-and-swap intent (BridgeSwapIntent, AcrossSwapIntent) signs together with its
// deposit: the destination chain's router swaps the bridged tokens for the recipient. Both kinds
// check and write it here; each adds its deposit's fields and its path in its witness's form.

/** What a bridge-and-swap intent says of its destination swap, besides the path. */
export type DestinationSwap = Pick<
  BridgeSwapIntent,
  'destinationRouter' | 'destinationVenue' | 'amountOutMin' | 'recipient' | 'unwrapNative'
>;

/**
 * The builder of the destination swap's witness fields in the struct's order (destinationRouter,
 * destinationVenue, path, amountOutMin, recipient, unwrapNative), `path` as the kind's witness
 * carries it. Refuses at once, before the fields every intent shares, an unwrapNative that is not a
 * boolean and a recipient that is the destination router (the router would refuse it); the builder
 * checks the destination venue and amountOutMin when it runs, among the kind's own fields.
 */
export function destinationSwapFields(
  swap: DestinationSwap,
  path: string | string[],
): () => Record<string, unknown> {
  if (typeof swap.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  const destinationRouter = checksummed(swap.destinationRouter, 'intent.destinationRouter');
  const recipient = checksummed(swap.recipient, 'intent.recipient');
  if (recipient === destinationRouter)
    throw new SponsoredIntentError('intent.recipient cannot be the destination router');
  return () => ({
    destinationRouter,
    destinationVenue: checksummed(swap.destinationVenue, 'intent.destinationVenue'),
    path,
    amountOutMin: uintString(swap.amountOutMin, 'intent.amountOutMin'),
    recipient,
    unwrapNative: swap.unwrapNative,
  });
}
