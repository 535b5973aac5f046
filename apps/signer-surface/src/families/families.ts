// The composition root's registry of chain families: every family of signer-surface registers here,
// and only app.module.ts (and the test service, which composes the same modules) imports it. The
// shared code (signing/, sponsorship/, config/, chains/, status/) never imports a family; a family
// never imports another, nor this registry (tools/lint/signer-families.spec.ts).
import type { SigningFamilies } from '../signing/signing.module';
import type { SignerFamily } from '../signing/signer-family';
import { bitcoinFamily } from './bitcoin';
import { evmFamily } from './evm';
import { RelayingModule } from './relaying.module';
import { solanaFamily } from './solana';

/** Every chain family the signer serves, in the order their payload kinds are looked up. */
export const SIGNER_FAMILIES: readonly SignerFamily[] = [evmFamily, solanaFamily, bitcoinFamily];

/** Every family's payload kinds (PAYLOAD_KIND_HANDLERS of the signing module). */
export const PAYLOAD_KINDS = SIGNER_FAMILIES.flatMap((family) => family.payloadKinds);

/** What SigningModule.register takes: the families' payload kinds and their sponsors' module. */
export const SIGNING_FAMILIES: SigningFamilies = {
  payloadKinds: PAYLOAD_KINDS,
  sponsorship: RelayingModule.register(SIGNER_FAMILIES),
};
