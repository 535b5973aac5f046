import { Commitment, Connection } from '@solana/web3.js';

/**
 * A Connection to a Solana RPC whose calls are bounded in time and fail as this realm's Error:
 * web3.js's RPC client only settles a call for errors that are `instanceof Error` in its realm, and
 * undici's network errors come from Node's own realm under jest, which would hang the call.
 */
export function solanaConnection(
  rpcUrl: string,
  options: { commitment?: Commitment; timeoutMs?: number } = {},
): Connection {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Connection(rpcUrl, {
    commitment: options.commitment ?? 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: (input, init) =>
      fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: Error) => {
        const cause = error.cause as Error | undefined;
        throw new Error(`${error.message}${cause ? `: ${String(cause.message ?? cause)}` : ''}`);
      }),
  });
}
