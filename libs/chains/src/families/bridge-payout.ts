import type { RouteLeg } from '@swapgw/contracts';
import type { BridgePayout } from './step-spec-family';

/**
 * How a bridge pays a wallet that is not an EVM address (Solana, Bitcoin): `depositTo` on the leg's
 * destination bridge chain id, the wallet as 32 bytes (the family's encoding of it).
 */
export function bytes32BridgePayout(leg: RouteLeg, recipientBytes32: string): BridgePayout {
  if (leg.destinationBridgeChainId === undefined)
    throw new Error(`Bridge leg to ${leg.destinationChain} has no destinationBridgeChainId`);
  return { chainId: leg.destinationBridgeChainId, recipient: recipientBytes32, encoding: 'bytes32' };
}
