import type { Received } from './webhook-receiver';
import { buildSwapId, quoteFirstRoute, SwapCaller } from './swap-steps';

// The Bitcoin suites' usual swap: BTC from a devnet wallet for USDC on devnet-a, through THORChain
// (the devnet's local THORNode over the bridge's Bitcoin vault).

/** The quote request of `amount` BTC (0.004 by default) for USDC on devnet-a, paid to `recipient`. */
export const btcForUsdcOnA = (recipient: string, amount = '0.004') => ({
  fromChain: 'bitcoin-devnet',
  toChain: 'devnet-a',
  tokenIn: 'BTC',
  tokenOut: 'USDC',
  amount,
  recipient,
});

/** Quotes 0.004 BTC for USDC on devnet-a and builds its first route for `userAddress`: the swap id. */
export async function buildBtcForUsdcOnA(
  caller: SwapCaller,
  userAddress: string,
  recipient: string,
): Promise<string> {
  const { quoteId, route } = await quoteFirstRoute<{ routeId: string }>(caller, btcForUsdcOnA(recipient));
  return buildSwapId(caller, {
    quoteId,
    routeId: route.routeId,
    userAddress,
    recipient,
    waitForTxRequestMs: 20_000,
  });
}

/**
 * The webhook deliveries of a completed BTC → USDC swap, as a client sees them: the swap's own
 * events, each once, and THORChain's phases of its deposit (`swap.step-thorchain`, as THORNode's
 * tx/status moved; how many depends on the polls) each naming the deposit. Returns the deliveries
 * by type, the phases left out.
 */
export function expectCompletedBitcoinSwapDeliveries(
  deliveries: Received[],
  swapId: string,
  txid: string,
): Map<string, Received> {
  const thorchainTold = deliveries.filter((d) => d.body.type === 'swap.step-thorchain');
  const own = deliveries.filter((d) => d.body.type !== 'swap.step-thorchain');
  expect(own.map((d) => d.body.type).sort()).toEqual([
    'swap.completed',
    'swap.created',
    'swap.payload-ready',
    'swap.step-confirmed',
    'swap.step-submitted',
  ]);
  for (const told of thorchainTold)
    expect(told.body.data).toMatchObject({
      swapId,
      chain: 'bitcoin-devnet',
      txHash: txid,
      thorchain: { phase: expect.any(String) },
    });
  return new Map(own.map((d) => [d.body.type as string, d]));
}
