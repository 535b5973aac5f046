import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { PayloadBuild, SignedArtifactForm, SigningChainClient } from '@swapgw/chains/families';
import { SPONSORSHIP_MODES, type SponsorshipMode } from '@swapgw/contracts';
import type { SigningRequestEntity } from '../signing-request.entity';
import type { SponsoredIssueContext, SponsoredPayloadIssue } from './sponsored-issue';
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
  const issues = sponsoringKindsOf(handlers);
  return Object.fromEntries(SPONSORSHIP_MODES.map((mode) => [mode, issues[mode].sponsoredIssue])) as Record<
    SponsorshipMode,
    SponsoredPayloadIssue
  >;
}

type SponsoringKind = PayloadKindHandlerType & { readonly sponsoredIssue: SponsoredPayloadIssue };

/** The kind whose handler issues each sponsorship mode (see sponsoredIssuesOf). */
function sponsoringKindsOf(
  handlers: readonly PayloadKindHandlerType[],
): Record<SponsorshipMode, SponsoringKind> {
  const kinds: Partial<Record<SponsorshipMode, SponsoringKind>> = {};
  for (const handler of handlers) {
    const issue = handler.sponsoredIssue;
    for (const mode of issue?.modes ?? []) {
      if (kinds[mode]) throw new Error(`Two payload kinds issue sponsorship mode ${mode}`);
      kinds[mode] = handler as SponsoringKind;
    }
  }
  const missing = SPONSORSHIP_MODES.filter((mode) => !kinds[mode]);
  if (missing.length) throw new Error(`No payload kind issues sponsorship mode ${missing.join(', ')}`);
  return kinds as Record<SponsorshipMode, SponsoringKind>;
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
  private readonly sponsoringKinds: Readonly<Record<SponsorshipMode, SponsoringKind>>;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(PAYLOAD_KIND_HANDLERS) private readonly types: readonly PayloadKindHandlerType[],
  ) {
    this.sponsoredIssues = sponsoredIssuesOf(types);
    this.sponsoringKinds = sponsoringKindsOf(types);
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

  /**
   * Issues the payload of a step sponsored under `row`'s mode through the handler of the kind that
   * serves the mode, with that kind's own sponsor (PayloadKindHandler.issueSponsored).
   */
  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    const mode = row.spec.sponsored?.mode;
    if (!mode) throw new Error(`step ${row.stepIndex} of swap ${row.swapId} is not sponsored`);
    const handler = this.handlerOf(this.sponsoringKinds[mode]);
    if (!handler.issueSponsored)
      throw new Error(`${handler.kind} has a sponsoredIssue but no issueSponsored`);
    return handler.issueSponsored(row, client, context);
  }

  /**
   * The signature of `message` by `feePayer` from the kind whose fee payers co-sign the
   * transactions they pay for (PayloadKindHandler.signAsFeePayer), or null when none has it.
   */
  signAsFeePayer(feePayer: string, message: Uint8Array): Uint8Array | null {
    for (const handler of this.all()) {
      const signature = handler.signAsFeePayer?.(feePayer, message) ?? null;
      if (signature) return signature;
    }
    return null;
  }

  private handlerOf(type: PayloadKindHandlerType): PayloadKindHandler {
    return this.all()[this.types.indexOf(type)];
  }

  private all(): PayloadKindHandler[] {
    return (this.handlers ??= this.types.map((type) => this.moduleRef.get(type, { strict: true })));
  }

  private find(matches: (handler: PayloadKindHandler) => boolean, name: string): PayloadKindHandler {
    const handler = this.all().find(matches);
    if (!handler) throw new Error(`No payload kind handler for ${name}`);
    return handler;
  }
}
