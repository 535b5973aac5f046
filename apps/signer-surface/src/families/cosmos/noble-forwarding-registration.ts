import { Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { SignerChains } from '../../chains/signer-chains';
import { SponsoredStepNotSignable } from '../../signing/payload-kinds';
import { sponsoredOwnerOf, type SigningRequestEntity } from '../../signing/signing-request.entity';
import type { StepPrerequisite } from '../../signing/step-prerequisites';
import { CosmosFeeGranters } from './cosmos-fee-granters';

/**
 * A step that pays a Noble forwarding account (`nobleForwarding`: a bridge deposit towards Noble
 * whose USDC continues over IBC, e.g. into a swap on Osmosis) is issued only once that account is
 * registered: Noble's fee granter registers it (CosmosFeeGranters.ensureForwardingAccount,
 * idempotent), its fee under the step's API key in the ledger. The address the planner derived must
 * be the chain's: otherwise the step would pay an account that forwards nowhere, and it is refused.
 */
@Injectable()
export class NobleForwardingRegistration implements StepPrerequisite {
  constructor(
    private readonly chains: SignerChains,
    private readonly granters: CosmosFeeGranters,
  ) {}

  async ensure(row: SigningRequestEntity): Promise<void> {
    const forwarding = row.spec.nobleForwarding;
    if (!forwarding) return;
    const lookup = this.chains.families.cosmos(forwarding.chain);
    if (!lookup.ok)
      throw new CodedError(
        ErrorCodes.SPONSORSHIP_UNAVAILABLE,
        `The forwarding account on ${forwarding.chain} cannot be registered: ${lookup.reason}`,
        { chain: forwarding.chain },
      );
    const { chain: _chain, address, ...target } = forwarding;
    let registered: string;
    try {
      registered = await this.granters.ensureForwardingAccount(lookup.client, target, {
        swapId: row.swapId,
        stepIndex: row.stepIndex,
        owner: sponsoredOwnerOf(row),
      });
    } catch (error) {
      if (error instanceof CodedError) throw error;
      throw new CodedError(
        ErrorCodes.SPONSORSHIP_UNAVAILABLE,
        `The forwarding account ${address} on ${forwarding.chain} cannot be registered: ${(error as Error).message}`,
        { chain: forwarding.chain },
      );
    }
    if (registered !== address)
      throw new SponsoredStepNotSignable(
        `the step pays ${address}, but ${forwarding.chain} derives the forwarding account ${registered}`,
      );
  }
}
