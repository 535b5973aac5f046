/** A deposit seen on a source chain, waiting to be paid out on its destination. */
export interface BridgeTransfer {
  /** API chain id of the source, e.g. `devnet-a`. */
  sourceChain: string;
  /** Numeric id of the source as the destination's `release` records it. */
  sourceBridgeChainId: bigint;
  nonce: bigint;
  destinationBridgeChainId: bigint;
  recipient: string;
  /** Base units to pay out, fee already deducted on the source. */
  amount: bigint;
  depositTxHash: string;
  /**
   * A deposit with a message (0x-hex; DevnetBridge.depositWithMessage, or a Solana deposit whose
   * memo carries a swap message): the destination releases it to `recipient` (a contract) and hands
   * it the message in the same transaction (releaseWithMessage → recipient.onBridgeRelease). Only
   * EVM destinations take one.
   */
  message?: string;
  /**
   * A deposit into THORChain's router on an EVM chain (ThorchainRouterEndpoint): its inbound hash as
   * THORNode keys it. The Bitcoin end pays it with THORChain's `OUT:<HASH>` memo, once per hash.
   */
  thorchainInbound?: string;
}

export type ReleaseOutcome = { status: 'released'; txHash: string } | { status: 'already-released' };

/**
 * One chain's side of the bridge, as the relayer sees it. The EVM devnet implements it with
 * ethers; another family (e.g. Solana) adds its own endpoint without touching the relayer.
 */
export interface BridgeEndpoint {
  readonly chain: string;
  /** The id deposits use as `destinationChainId` to target this endpoint. */
  readonly bridgeChainId: bigint;
  /** A source of deposits only (THORChain's router): never a destination, not indexed by bridgeChainId. */
  readonly sourceOnly?: boolean;
  /** Deposits confirmed since the previous call; the endpoint keeps its own cursor. */
  pollDeposits(): Promise<BridgeTransfer[]>;
  /** Pays a transfer out; idempotent per (source chain, nonce). */
  release(transfer: BridgeTransfer): Promise<ReleaseOutcome>;
  close(): Promise<void>;
}
