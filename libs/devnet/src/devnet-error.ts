/** Why the devnet could not start or its manifest could not be used. */
export type DevnetErrorCode =
  | 'MANIFEST_UNREADABLE'
  | 'MANIFEST_INVALID'
  | 'ANVIL_NOT_FOUND'
  | 'ANVIL_START_FAILED'
  | 'SOLANA_START_FAILED'
  | 'BITCOIN_START_FAILED'
  | 'COSMOS_START_FAILED'
  | 'CONTRACT_COMPILE_FAILED'
  | 'DEPLOYMENT_FAILED'
  | 'INIT_CODE_HASH_MISMATCH';

/**
 * The devnet's own exception. It never reaches an API client (the devnet is development
 * infrastructure), so its codes are not part of the public ErrorCatalog.
 */
export class DevnetError extends Error {
  constructor(
    readonly code: DevnetErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DevnetError';
  }
}
