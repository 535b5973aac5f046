import { isError } from 'ethers';

/**
 * An eth_call's answer decoded, or null when the chain says no: no contract at the address (empty
 * return data), the call reverted, or its answer does not decode. An RPC failure propagates (the
 * provider failed).
 */
export async function callOrNull<T>(
  call: () => Promise<string>,
  decode: (data: string) => T,
): Promise<T | null> {
  try {
    const data = await call();
    return data === '0x' ? null : decode(data);
  } catch (error) {
    if (isError(error, 'BAD_DATA') || isError(error, 'CALL_EXCEPTION')) return null;
    throw error;
  }
}
