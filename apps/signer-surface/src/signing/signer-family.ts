import type { Provider } from '@nestjs/common';
import type { ChainFamily } from '@swapgw/chains';
import type { PayloadKindHandlerType } from './payload-kinds';

/**
 * One chain family's part of signer-surface (families/<family>/index.ts), registered at the
 * composition root (families/families.ts): the shared code (the signing flow, the sponsorship ledger
 * and budgets, config) knows families only through what they register here and the ports they
 * implement (PayloadKindHandler, SponsoredPayloadIssue, GasSponsor's parts), never by import.
 */
export interface SignerFamily {
  readonly family: ChainFamily;
  /** Its payload kinds' handlers, providers of the signing module (PAYLOAD_KIND_HANDLERS). */
  readonly payloadKinds: readonly PayloadKindHandlerType[];
  /** Its sponsors: their settings and keys, budget, accounts and fee bumps (providers of the relaying module). */
  readonly sponsorship: readonly Provider[];
}
