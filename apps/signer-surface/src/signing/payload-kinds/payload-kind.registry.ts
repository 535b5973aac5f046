import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { SignedArtifactForm } from '@swapgw/chains/families';
import { SPONSORSHIP_MODES, type SponsorshipMode } from '@swapgw/contracts';
import type { SigningRequestEntity } from '../signing-request.entity';
import type { SponsoredPayloadIssue } from './sponsored-issue';
import type { PayloadKind, PayloadKindHandler } from './payload-kind-handler';

/** A payload kind's handler class; `sponsoredIssue`: how it issues the steps sponsored under its modes. */
export type PayloadKindHandlerType = Type<PayloadKindHandler> & {
  readonly sponsoredIssue?: SponsoredPayloadIssue;
};

/**
 * Every payload kind the signer handles (`readonly PayloadKindHandlerType[]`): the families' kinds,
 * registered at the composition root (families/families.ts). A new kind is its folder in its family
 * plus one entry in that family's `payloadKinds`.
 */
export const PAYLOAD_KIND_HANDLERS = Symbol('PAYLOAD_KIND_HANDLERS');

/**
 * Each sponsorship mode's way of issuing a payload, from the kind whose handler serves it. A mode no
 * kind serves, or two kinds claim, stops the service as the registry is built.
 */
export function sponsoredIssuesOf(
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

/**
 * The handler of each registered payload kind (PAYLOAD_KIND_HANDLERS), found by its kind or the
 * signed form its payloads take, and the way each sponsorship mode is issued.
 */
@Injectable()
export class PayloadKindRegistry {
  private handlers: PayloadKindHandler[] | null = null;
  /** Each sponsorship mode's way of issuing a payload (sponsoredIssuesOf the registered kinds). */
  readonly sponsoredIssues: Readonly<Record<SponsorshipMode, SponsoredPayloadIssue>>;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(PAYLOAD_KIND_HANDLERS) private readonly types: readonly PayloadKindHandlerType[],
  ) {
    this.sponsoredIssues = sponsoredIssuesOf(types);
  }

  /** The handler of the kind whose signed submissions take `form` (decodeSignedArtifact). */
  forSignedForm(form: SignedArtifactForm): PayloadKindHandler {
    return this.find((handler) => handler.signedForm === form, form);
  }

  /** The handler of payloads of type `kind` (`SigningPayload.type`). */
  forKind(kind: PayloadKind): PayloadKindHandler {
    return this.find((handler) => handler.kind === kind, kind);
  }

  /** How a step sponsored under `row`'s mode is issued; undefined for a step the user pays for. */
  sponsoredIssueOf(row: Pick<SigningRequestEntity, 'spec'>): SponsoredPayloadIssue | undefined {
    const mode = row.spec.sponsored?.mode;
    return mode ? this.sponsoredIssues[mode] : undefined;
  }

  private find(matches: (handler: PayloadKindHandler) => boolean, name: string): PayloadKindHandler {
    this.handlers ??= this.types.map((type) => this.moduleRef.get(type, { strict: true }));
    const handler = this.handlers.find(matches);
    if (!handler) throw new Error(`No payload kind handler for ${name}`);
    return handler;
  }
}
