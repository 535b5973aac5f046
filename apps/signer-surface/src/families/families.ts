// The composition root's registry of chain families: every family of signer-surface registers here
// (its payload kinds and sponsors, and its section of the environment), and only the composition
// root (app.module.ts, main.ts; the test service, which composes the same modules) imports it. The
// shared code (signing/, sponsorship/, config/, chains/, status/) never imports a family; a family
// never imports another, nor this registry (tools/lint/signer-families.spec.ts).
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import type { SigningFamilies } from '../signing/signing.module';
import type { SignerFamily } from '../signing/signer-family';
import { bitcoinFamily, withBitcoinFeeWalletSettings } from './bitcoin';
import { cosmosFamily, withCosmosFeeGranterSettings } from './cosmos';
import { evmFamily, withRelayerSettings } from './evm';
import { RelayingModule } from './relaying.module';
import { solanaFamily, withSolanaFeePayerSettings } from './solana';

/** Every chain family the signer serves, in the order their payload kinds are looked up. */
export const SIGNER_FAMILIES: readonly SignerFamily[] = [
  evmFamily,
  solanaFamily,
  bitcoinFamily,
  cosmosFamily,
];

/** Every family's payload kinds (PAYLOAD_KIND_HANDLERS of the signing module). */
export const PAYLOAD_KINDS = SIGNER_FAMILIES.flatMap((family) => family.payloadKinds);

/** What SigningModule.register takes: the families' payload kinds and their sponsors' module. */
export const SIGNING_FAMILIES: SigningFamilies = {
  payloadKinds: PAYLOAD_KINDS,
  sponsorship: RelayingModule.register(SIGNER_FAMILIES),
};

/**
 * signer-surface's environment as loaded at boot (main.ts): the shared variables
 * (SignerSurfaceConfig) with every family's own section over them (its sponsors' keys and their
 * reader, minimum balances, budget, knobs), all validated at once: a bad value of any family stops
 * the service at load with the variable's name. Provided to the app as SignerSurfaceConfig; a
 * family reads its section through its own accessor (e.g. relayerVariablesOf).
 */
export class SignerSurfaceEnvironment extends withCosmosFeeGranterSettings(
  withBitcoinFeeWalletSettings(withSolanaFeePayerSettings(withRelayerSettings(SignerSurfaceConfig))),
) {}
