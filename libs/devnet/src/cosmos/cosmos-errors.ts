/**
 * The Cosmos SDK's registered errors the devnet chains answer with (codespace, code, description as
 * in cosmos-sdk types/errors/errors.go and x/feegrant/errors.go), and the error a failed
 * transaction carries: its log is the SDK's, `<context>: <description>`, as errorsmod.Wrap writes it.
 */
export const SDK_ERRORS = {
  txDecode: { codespace: 'sdk', code: 2, description: 'tx parse error' },
  invalidSequence: { codespace: 'sdk', code: 3, description: 'invalid sequence' },
  unauthorized: { codespace: 'sdk', code: 4, description: 'unauthorized' },
  insufficientFunds: { codespace: 'sdk', code: 5, description: 'insufficient funds' },
  unknownRequest: { codespace: 'sdk', code: 6, description: 'unknown request' },
  invalidAddress: { codespace: 'sdk', code: 7, description: 'invalid address' },
  invalidPubKey: { codespace: 'sdk', code: 8, description: 'invalid pubkey' },
  unknownAddress: { codespace: 'sdk', code: 9, description: 'unknown address' },
  invalidCoins: { codespace: 'sdk', code: 10, description: 'invalid coins' },
  outOfGas: { codespace: 'sdk', code: 11, description: 'out of gas' },
  insufficientFee: { codespace: 'sdk', code: 13, description: 'insufficient fee' },
  tooManySignatures: { codespace: 'sdk', code: 15, description: 'maximum number of signatures exceeded' },
  noSignatures: { codespace: 'sdk', code: 16, description: 'no signatures supplied' },
  invalidRequest: { codespace: 'sdk', code: 18, description: 'invalid request' },
  keyNotFound: { codespace: 'sdk', code: 22, description: 'key not found' },
  notFound: { codespace: 'sdk', code: 38, description: 'not found' },
  wrongSequence: { codespace: 'sdk', code: 32, description: 'incorrect account sequence' },
  invalidGasLimit: { codespace: 'sdk', code: 41, description: 'invalid gas limit' },
  feeLimitExceeded: { codespace: 'feegrant', code: 2, description: 'fee limit exceeded' },
  feeLimitExpired: { codespace: 'feegrant', code: 3, description: 'fee allowance expired' },
  // ibc-go: modules/core/04-channel/types/errors.go and modules/apps/transfer/types/errors.go.
  channelNotFound: { codespace: 'channel', code: 3, description: 'channel not found' },
  invalidPacket: { codespace: 'channel', code: 13, description: 'invalid packet' },
  packetTimeout: { codespace: 'channel', code: 14, description: 'packet timeout' },
  packetReceived: { codespace: 'channel', code: 19, description: 'packet already received' },
  packetCommitmentNotFound: { codespace: 'channel', code: 20, description: 'packet commitment not found' },
  // Osmosis: x/gamm/types/errors.go.
  gammPoolNotFound: { codespace: 'gamm', code: 1, description: 'pool not found' },
  gammLimitMinAmount: {
    codespace: 'gamm',
    code: 7,
    description: 'calculated amount is lesser than min amount',
  },
  gammInvalidMathApprox: { codespace: 'gamm', code: 8, description: 'invalid calculated result' },
  traceNotFound: { codespace: 'transfer', code: 6, description: 'denomination trace not found' },
  // Osmosis: x/ibc-hooks/types/errors.go.
  wasmHooksMsgValidation: {
    codespace: 'wasm-hooks',
    code: 2,
    description: 'error in wasmhook message validation',
  },
  wasmHooksWasmError: { codespace: 'wasm-hooks', code: 6, description: 'wasm error' },
  // A module's plain Go error (errors.New, not registered): ABCI's "undefined" codespace, code 1, the
  // error's own text as the log (noble-assets/forwarding's msg server answers these).
  unregistered: { codespace: 'undefined', code: 1, description: '' },
} as const;

export type SdkErrorName = keyof typeof SDK_ERRORS;

/** A transaction (or query) refused with one of the SDK's codes; `log` is the SDK's raw_log. */
export class CosmosTxError extends Error {
  readonly codespace: string;
  readonly code: number;

  constructor(
    readonly error: SdkErrorName,
    context?: string,
  ) {
    const { description, codespace, code } = SDK_ERRORS[error];
    super(context && description ? `${context}: ${description}` : (context ?? description));
    this.name = 'CosmosTxError';
    this.codespace = codespace;
    this.code = code;
  }

  /** errorsmod.Wrap: the same error with more context in front of its log. */
  wrap(context: string): CosmosTxError {
    const wrapped = new CosmosTxError(this.error);
    wrapped.message = `${context}: ${this.message}`;
    return wrapped;
  }
}

/** Any failure as the SDK would log it: ours keep their code, anything else is a parse error. */
export function asCosmosTxError(error: unknown): CosmosTxError {
  if (error instanceof CosmosTxError) return error;
  return new CosmosTxError('txDecode', error instanceof Error ? error.message : String(error));
}
