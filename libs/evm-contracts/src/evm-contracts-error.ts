/** Why our contracts could not be compiled, deployed or verified. */
export type EvmContractsErrorCode =
  'CONTRACT_COMPILE_FAILED' | 'NO_DEPLOYMENT_PROXY' | 'DEPLOYMENT_FAILED' | 'CODE_MISMATCH';

/** The contracts library's own exception (development and operator tooling, never an API answer). */
export class EvmContractsError extends Error {
  constructor(
    readonly code: EvmContractsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EvmContractsError';
  }
}
