import { Injectable } from '@nestjs/common';
import type { SponsorTracking } from '../../sponsorship/tracking/sponsor-tracking';

/**
 * The Cosmos family's part of following the sponsorship ledger: none. The fee granter sends no
 * transaction of the user's (x/feegrant charges it inside the user's own, which the signing
 * request's tracker follows), and its grants are awaited in their block when made; so it has no
 * ledger rows to settle. Its balance is what an operator watches (docs/gas-sponsorship.md).
 */
@Injectable()
export class CosmosFeeGrantTracking implements SponsorTracking {
  readonly purposes = [] as const;

  async check(): Promise<void> {
    // No ledger rows of its own (purposes is empty): never called.
  }

  async refreshBalances(): Promise<void> {
    // The granters' balances are read where they are used: a grant that cannot be paid is refused then.
  }
}
