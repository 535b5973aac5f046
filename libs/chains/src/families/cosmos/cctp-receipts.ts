import type { CometTxResult, CosmosStatusClient } from './cosmos-status-client';
import { CCTP_MESSAGE_RECEIVED_EVENT } from './noble-cctp';

// CCTP's receipts on Noble as a client reads them over CometBFT, apart from noble-cctp.ts (the
// messages and events), which the step builders import without the status client.

/**
 * Noble's tx that received the CCTP message of `sourceDomain` and `nonce` and minted it (its
 * `circle.cctp.v1.MessageReceived`, found through `tx_search`, as an explorer watching the relayers
 * finds it), or undefined while no such tx succeeded. Upstream failures are thrown.
 */
export async function cctpMessageReceivedTx(
  noble: Pick<CosmosStatusClient, 'searchTxs'>,
  sourceDomain: number,
  nonce: string,
): Promise<CometTxResult | undefined> {
  const found = await noble.searchTxs(
    `${CCTP_MESSAGE_RECEIVED_EVENT}.source_domain='${sourceDomain}' AND ` +
      `${CCTP_MESSAGE_RECEIVED_EVENT}.nonce='"${nonce.replace(/\D/g, '')}"'`,
  );
  return found.find((tx) => tx.tx_result.code === 0);
}
