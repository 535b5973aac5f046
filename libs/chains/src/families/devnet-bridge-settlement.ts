import type { ChainFamily } from '../chain-descriptor';
import type { FamilySettlement, SettledLeg } from './step-spec-family';

/** The devnet bridge (quote-service's `devnet-bridge`): EVM, Solana and Bitcoin ends, and Noble's CCTP. */
export const DEVNET_BRIDGE_PROVIDER = 'devnet-bridge';

/**
 * A devnet-bridge deposit from an EVM chain, Solana or Bitcoin towards a Cosmos chain (Noble's CCTP
 * end) is settled by the mint there: done when Noble received the deposit's message (its source
 * domain and nonce: the EVM chain's bridge id and the `DepositTo` nonce, domain 5 and the
 * signature's nonce, the Bitcoin domain and the txid; the planner's CctpMintReader), not when the
 * deposit confirms. Anything else: undefined (its confirmation settles it, or its family decides).
 */
export function nobleMintSettlementOf(
  leg: SettledLeg,
  familyOf: (chain: string) => ChainFamily,
): FamilySettlement | undefined {
  return leg.provider === DEVNET_BRIDGE_PROVIDER &&
    leg.destinationChain !== undefined &&
    familyOf(leg.destinationChain) === 'cosmos'
    ? 'cctp'
    : undefined;
}
