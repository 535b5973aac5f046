import { Injectable } from '@nestjs/common';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import type { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { cosmosFeeGranterVariablesOf } from './cosmos-fee-granter-config';

/** The Cosmos fee granters of the validated config: their keys per chain, and how many step fees a grant allows. */
@Injectable()
export class CosmosFeeGranterSettings {
  readonly keys: RelayerKeySet;
  readonly grantSteps: bigint;

  constructor(config: SignerSurfaceConfig) {
    const variables = cosmosFeeGranterVariablesOf(config);
    const reading = variables.cosmosFeeGranterKeys;
    if (!reading.ok) throw new Error(reading.problem);
    this.keys = reading.keys;
    this.grantSteps = BigInt(variables.COSMOS_FEE_GRANT_STEPS);
  }
}
