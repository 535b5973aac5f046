import { AbiCoder, Interface, isError } from 'ethers';

/**
 * Custom errors a step's call may revert with, decoded so that a failure reason names them: the
 * permit router's and Permit2's (a permit that does not verify) and OpenZeppelin's ERC-20 ones.
 */
const KNOWN_ERRORS = new Interface(
  [
    // SwapGatewayRouter
    'PermitRejected(address token)',
    'TokensLeftBehind(address token, uint256 amount)',
    'InvalidRecipient()',
    // Permit2
    'SignatureExpired(uint256 signatureDeadline)',
    'InvalidNonce()',
    'InvalidAmount(uint256 maxAmount)',
    'InvalidSignatureLength()',
    'InvalidSignature()',
    'InvalidSigner()',
    'InvalidContractSignature()',
    // OpenZeppelin ERC-20
    'ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
    'ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
    'SafeERC20FailedOperation(address token)',
  ].map((signature) => `error ${signature}`),
);

/**
 * The revert reason of a failed call when the node returned one: `Error(string)` decoded by ethers,
 * a custom error's name, or a panic code. Undefined when the error was not a revert.
 */
export function revertReasonOf(error: unknown): string | undefined {
  if (!isError(error, 'CALL_EXCEPTION')) {
    // Some nodes answer estimateGas of a reverting call with a plain JSON-RPC error.
    const message = (error as { info?: { error?: { message?: string } } })?.info?.error?.message;
    return message && /revert/i.test(message) ? message : undefined;
  }
  if (error.reason) return error.reason;
  if (error.revert) return `${error.revert.name}(${error.revert.args.map(String).join(', ')})`;
  if (error.data && error.data !== '0x') {
    const known = KNOWN_ERRORS.parseError(error.data);
    if (known) return `${known.name}(${known.args.map(String).join(', ')})`;
    return `execution reverted (data ${error.data.slice(0, 66)})`;
  }
  return 'execution reverted';
}

/** True when the node could not be reached or did not answer (as opposed to answering an error). */
export function isRpcUnreachable(error: unknown): boolean {
  if (isError(error, 'TIMEOUT') || isError(error, 'NETWORK_ERROR')) return true;
  const code = (error as { code?: string })?.code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'ETIMEDOUT')
    return true;
  const text = `${(error as Error)?.message ?? ''} ${String((error as { cause?: unknown })?.cause ?? '')}`;
  return /ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|socket hang up|fetch failed|request timeout|missing response/i.test(
    text,
  );
}

/** The short message of an ethers or node error, for logs and failure reasons. */
export function shortMessageOf(error: unknown): string {
  const e = error as { shortMessage?: string; info?: { error?: { message?: string } }; message?: string };
  return e?.info?.error?.message ?? e?.shortMessage ?? e?.message ?? String(error);
}

/** Solidity's panic codes (Panic(uint256)), as the compiler documents them. */
const PANIC_CODES: Record<number, string> = {
  0x00: 'generic compiler panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an uninitialised function',
};

/**
 * Revert data (0x-hex) in words: `Error(string)` as its text, `Panic(uint256)` as
 * `Panic(0x11: arithmetic overflow or underflow)`, a known custom error (routers, Permit2,
 * OpenZeppelin ERC-20) as `Name(args)`, any other custom error as `custom error 0x<selector>`.
 */
export function decodeRevertData(data: string | null | undefined): string {
  if (!data || data === '0x') return 'execution reverted (no reason given)';
  const selector = data.slice(0, 10).toLowerCase();
  const coder = AbiCoder.defaultAbiCoder();
  try {
    if (selector === '0x08c379a0') return String(coder.decode(['string'], `0x${data.slice(10)}`)[0]);
    if (selector === '0x4e487b71') {
      const code = Number(coder.decode(['uint256'], `0x${data.slice(10)}`)[0] as bigint);
      return `Panic(0x${code.toString(16).padStart(2, '0')}: ${PANIC_CODES[code] ?? 'unknown panic code'})`;
    }
    const known = KNOWN_ERRORS.parseError(data);
    if (known) return `${known.name}(${known.args.map(String).join(', ')})`;
  } catch {
    // Malformed arguments: the selector still names the error.
  }
  return data.length >= 10 ? `custom error ${selector}` : `execution reverted (data ${data})`;
}

/**
 * The revert data of a failed `eth_call`: ethers' CALL_EXCEPTION carries it; a node answering a
 * plain JSON-RPC error may carry it in `error.data`. Undefined when the error is not a revert.
 */
export function revertDataOf(error: unknown): { data?: string } | undefined {
  if (isError(error, 'CALL_EXCEPTION')) return { data: error.data ?? undefined };
  const inner = (error as { info?: { error?: { message?: string; data?: unknown } } })?.info?.error;
  if (inner && /revert/i.test(inner.message ?? '')) {
    return { data: typeof inner.data === 'string' && inner.data.startsWith('0x') ? inner.data : undefined };
  }
  return undefined;
}
