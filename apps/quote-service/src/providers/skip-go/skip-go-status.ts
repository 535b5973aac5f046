import { SkipGoApi, SkipStatusAnswer, SkipTransferStatus } from './skip-go-api';

/** Where a Skip route's transaction stands, as the gateway reports a transaction. */
export interface SkipGoRouteStatus {
  status: 'pending' | 'confirmed' | 'failed';
  /** Skip's state (STATE_...), as it answered. */
  state: string;
  /** Why it failed, or what holds a pending one up (Skip's error message). */
  reason?: string;
  /** Where Skip says the funds were released (a failed route's refund, or the destination). */
  released?: { chainId: string; denom: string };
}

/**
 * Skip's overall states (docs: "Transaction Status Codes") as pending, confirmed or failed:
 * submitted, pending, received and pending-error (an error whose refund is under way) are still
 * moving; COMPLETED_SUCCESS is the only success; COMPLETED_ERROR, ABANDONED (Skip stopped tracking
 * it, e.g. no relayer before the packet's timeout) and UNKNOWN (an error state, per Skip) are
 * failures. A state Skip does not document is an upstream failure (thrown).
 */
const STATUS_OF_STATE: Record<string, SkipGoRouteStatus['status']> = {
  STATE_SUBMITTED: 'pending',
  STATE_PENDING: 'pending',
  STATE_RECEIVED: 'pending',
  STATE_PENDING_ERROR: 'pending',
  STATE_COMPLETED_SUCCESS: 'confirmed',
  STATE_COMPLETED_ERROR: 'failed',
  STATE_ABANDONED: 'failed',
  STATE_UNKNOWN: 'failed',
};

const REASON_OF_STATE: Record<string, string> = {
  STATE_ABANDONED: "Skip Go stopped tracking the transfer (no relayer before the packet's timeout)",
  STATE_UNKNOWN: 'Skip Go does not know where the transfer stands',
  STATE_COMPLETED_ERROR: 'The route failed',
  STATE_PENDING_ERROR: 'The route hit an error; its refund is pending',
};

/** Reads GET /v2/tx/status of a Skip route's transaction (submitted or tracked with Skip). */
export class SkipGoStatusReader {
  constructor(private readonly api: SkipGoApi) {}

  async statusOf(txHash: string, chainId: string, signal: AbortSignal): Promise<SkipGoRouteStatus> {
    return skipRouteStatus(await this.api.status(txHash, chainId, signal));
  }
}

/** The status of the route's one transfer (`transfers[0]`, or the older answer's top level). */
export function skipRouteStatus(answer: SkipStatusAnswer): SkipGoRouteStatus {
  const transfer: Partial<SkipTransferStatus> | undefined = answer.transfers?.[0] ?? answer;
  const state = transfer?.state;
  const status = typeof state === 'string' ? STATUS_OF_STATE[state] : undefined;
  if (!state || !status) throw new Error(`Skip Go /v2/tx/status answered the state ${String(state)}`);
  const message = transfer.error?.message;
  const reason =
    status === 'confirmed'
      ? undefined
      : message
        ? `${REASON_OF_STATE[state] ?? 'Skip Go'}: ${message}`
        : REASON_OF_STATE[state];
  const release = transfer.transfer_asset_release;
  return {
    status,
    state,
    ...(reason ? { reason } : {}),
    ...(release?.released ? { released: { chainId: release.chain_id, denom: release.denom } } : {}),
  };
}
