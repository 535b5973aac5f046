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
