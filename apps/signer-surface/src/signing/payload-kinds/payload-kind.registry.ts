import { Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { SignedArtifactForm } from '@swapgw/chains/families';
import { BitcoinPsbtKind } from './bitcoin-psbt/bitcoin-psbt.kind';
import { EvmTransactionKind } from './evm-transaction/evm-transaction.kind';
import { EvmTypedDataKind } from './evm-typed-data/evm-typed-data.kind';
import type { PayloadKind, PayloadKindHandler } from './payload-kind-handler';
import { SolanaTransactionKind } from './solana-transaction/solana-transaction.kind';

/** Every payload kind the signer handles: a new kind is its folder plus one line here. */
export const PAYLOAD_KIND_HANDLERS: readonly Type<PayloadKindHandler>[] = [
  EvmTransactionKind,
  EvmTypedDataKind,
  SolanaTransactionKind,
  BitcoinPsbtKind,
];

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
