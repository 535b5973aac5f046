import { Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { SignedArtifactForm } from '@swapgw/chains/families';
import { SPONSORSHIP_MODES, type SponsorshipMode } from '@swapgw/contracts';
import type { SponsoredPayloadIssue } from './sponsored-issue';
import { BitcoinPsbtKind } from '../../families/bitcoin/bitcoin-psbt/bitcoin-psbt.kind';
import { EvmTransactionKind } from '../../families/evm/evm-transaction/evm-transaction.kind';
import { EvmTypedDataKind } from '../../families/evm/evm-typed-data/evm-typed-data.kind';
import type { PayloadKind, PayloadKindHandler } from './payload-kind-handler';
import { SolanaTransactionKind } from '../../families/solana/solana-transaction/solana-transaction.kind';

/** A payload kind's handler class; `sponsoredIssue`: how it issues the steps sponsored under its modes. */
export type PayloadKindHandlerType = Type<PayloadKindHandler> & {
  readonly sponsoredIssue?: SponsoredPayloadIssue;
};

/** Every payload kind the signer handles: a new kind is its folder plus one line here. */
export const PAYLOAD_KIND_HANDLERS: readonly PayloadKindHandlerType[] = [
  EvmTransactionKind,
  EvmTypedDataKind,
  SolanaTransactionKind,
  BitcoinPsbtKind,
];

/**
 * Each sponsorship mode's way of issuing a payload, from the kind whose handler serves it. A mode no
 * kind serves, or two kinds claim, stops the service at load.
 */
export const SPONSORED_PAYLOAD_ISSUES: Readonly<Record<SponsorshipMode, SponsoredPayloadIssue>> =
  sponsoredIssuesOf(PAYLOAD_KIND_HANDLERS);

function sponsoredIssuesOf(
  handlers: readonly PayloadKindHandlerType[],
): Record<SponsorshipMode, SponsoredPayloadIssue> {
  const issues: Partial<Record<SponsorshipMode, SponsoredPayloadIssue>> = {};
  for (const issue of handlers.flatMap((handler) => handler.sponsoredIssue ?? [])) {
    for (const mode of issue.modes) {
      if (issues[mode]) throw new Error(`Two payload kinds issue sponsorship mode ${mode}`);
      issues[mode] = issue;
    }
  }
  const missing = SPONSORSHIP_MODES.filter((mode) => !issues[mode]);
  if (missing.length) throw new Error(`No payload kind issues sponsorship mode ${missing.join(', ')}`);
  return issues as Record<SponsorshipMode, SponsoredPayloadIssue>;
}

/** The handler of each payload kind (PAYLOAD_KIND_HANDLERS), found by its kind or the signed form its payloads take. */
@Injectable()
export class PayloadKindRegistry {
  private handlers: PayloadKindHandler[] | null = null;

  constructor(private readonly moduleRef: ModuleRef) {}

  /** The handler of the kind whose signed submissions take `form` (decodeSignedArtifact). */
  forSignedForm(form: SignedArtifactForm): PayloadKindHandler {
    return this.find((handler) => handler.signedForm === form, form);
  }

  /** The handler of payloads of type `kind` (`SigningPayload.type`). */
  forKind(kind: PayloadKind): PayloadKindHandler {
    return this.find((handler) => handler.kind === kind, kind);
  }

  private find(matches: (handler: PayloadKindHandler) => boolean, name: string): PayloadKindHandler {
    this.handlers ??= PAYLOAD_KIND_HANDLERS.map((type) => this.moduleRef.get(type, { strict: true }));
    const handler = this.handlers.find(matches);
    if (!handler) throw new Error(`No payload kind handler for ${name}`);
    return handler;
  }
}
