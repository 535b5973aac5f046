import { StepFailureCodes } from '../signing/signing-events.outbox';
import type { SponsoredTransactionStatus } from './gas-sponsor';

/** Why a step fails: a `signing.step-failed` code (StepFailureCodes) and its sentence. */
export interface StepFailure {
  code: string;
  reason: string;
}

/** The code of each end where a sponsored transaction will never carry its step, when the ledger gives none. */
const CODE_OF_END = {
  dropped: StepFailureCodes.relayDropped,
  cancelled: StepFailureCodes.relayFeeCeiling,
  lost: StepFailureCodes.relayLost,
} as const;

type End = keyof typeof CODE_OF_END;

const isEnd = (state: SponsoredTransactionStatus['state']): state is End => state in CODE_OF_END;

/**
 * The relayers' transaction carrying a step's signature ended where it will never carry it
 * (dropped, cancelled under its fee ceiling, lost to a reorg or a chain reset): the step's failure,
 * with the ledger's code and reason. Null in any other state (pending, confirmed, failed: the chain
 * tells the rest).
 */
export function relayEndOf(status: SponsoredTransactionStatus): StepFailure | null {
  if (!isEnd(status.state)) return null;
  return {
    code: status.failure?.code ?? CODE_OF_END[status.state],
    reason: `the relayer's transaction ${status.state} (${status.hashes.join(', ')}): ${
      status.failure?.reason ?? 'no reason recorded'
    }`,
  };
}

/**
 * The gas drop sent ahead of a wallet's own transaction (covered-transaction) ended without
 * delivering its gas: dropped, cancelled or lost (the ledger's code), or mined and reverted
 * (TX_REJECTED: the wallet's transaction was never sent, so nothing else can describe it). Null
 * while it is pending or once confirmed.
 */
export function gasDropEndOf(status: SponsoredTransactionStatus, wallet: string): StepFailure | null {
  const drop = `the gas drop to ${wallet} (${status.hashes.join(', ')})`;
  const unsent = "the wallet's own transaction was not sent";
  if (status.state === 'failed') {
    return {
      code: StepFailureCodes.rejected,
      reason: `${drop} reverted (${status.minedHash ?? 'no hash'}): ${unsent}`,
    };
  }
  if (!isEnd(status.state)) return null;
  return {
    code: status.failure?.code ?? CODE_OF_END[status.state],
    reason: `${drop} ${status.state}: ${status.failure?.reason ?? 'no reason recorded'}; ${unsent}`,
  };
}
