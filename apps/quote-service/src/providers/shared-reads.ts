import { isError } from 'ethers';

/**
 * One in-flight read per key: concurrent callers of a key share one promise (a burst of quotes of a
 * popular pool is one RPC read, not hundreds). Nothing is kept once it settled, so no caller sees an
 * answer older than its own request; a failure reaches every caller that shared it.
 */
export class InFlightReads<T> {
  private readonly reads = new Map<string, Promise<T>>();

  read(key: string, load: () => Promise<T>): Promise<T> {
    let read = this.reads.get(key);
    if (!read) {
      read = load().finally(() => this.reads.delete(key));
      this.reads.set(key, read);
    }
    return read;
  }

  /** Reads still in flight (for tests and metrics). */
  get size(): number {
    return this.reads.size;
  }
}

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
