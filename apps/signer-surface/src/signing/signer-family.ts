import type { Provider, Type } from '@nestjs/common';
import type { ChainFamily } from '@swapgw/chains';
import type { SponsorTracking } from '../sponsorship/tracking/sponsor-tracking';
import type { PayloadKindHandlerType } from './payload-kinds';
import type { StepPrerequisite } from './step-prerequisites';

/**
 * One chain family's part of signer-surface (families/<family>/index.ts), registered at the
 * composition root (families/families.ts): the shared code (the signing flow, the sponsorship ledger
 * and budgets, config) knows families only through what they register here and the ports they
 * implement (PayloadKindHandler, SponsoredPayloadIssue, GasSponsor), never by import.
 */
export interface SignerFamily {
  readonly family: ChainFamily;
  /** Its payload kinds' handlers, providers of the signing module (PAYLOAD_KIND_HANDLERS). */
  readonly payloadKinds: readonly PayloadKindHandlerType[];
  /** Its sponsors: their settings and keys, budget, accounts and fee bumps (providers of the relaying module). */
  readonly sponsorship: readonly Provider[];
  /**
   * Its own sponsors that its payload kinds inject (a Solana fee payer, a Bitcoin fee wallet), each
   * among `sponsorship` and exported by the relaying module to the signing module; none when its
   * kinds need only the shared GasSponsor port.
   */
  readonly kindSponsors: readonly Type<unknown>[];
  /** What it does on chain before a step is issued (STEP_PREREQUISITES), each among `sponsorship`. */
  readonly stepPrerequisites?: readonly Type<StepPrerequisite>[];
  /** Its part of following the sponsorship ledger (the purposes of its sponsors' rows), among `sponsorship`. */
  readonly tracking: Type<SponsorTracking>;
}
