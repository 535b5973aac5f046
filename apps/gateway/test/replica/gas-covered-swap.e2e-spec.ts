import { parseUnits } from 'ethers';
import { REAL_NETWORK_CATALOG } from '@swapgw/chains';
import { startReplicaStack, ReplicaStack } from '../support/replica-stack';
import { buildSwapId, signTypedDataUntilCompleted } from '../support/swap-steps';

// Gas covered on a real network: the mainnet replica's Base (chain id 8453) with the apps configured
// as production, Permit2 at its canonical address and our SwapGatewayRouter where the catalog says
// (deployed as on mainnet, CREATE2 through the deterministic deployment proxy). A wallet holding
// only USDC swaps it through Uniswap V3 signing typed data only; the service's relayers pay the gas.

interface Route {
  routeId: string;
  provider: string;
  minAmountOut: string;
  tokenOutDecimals: number;
  signatures: Array<{ chain: string; kind: string; payloadType: string; mayBeSkipped: boolean }>;
}

describe('gas covered on a real network: a zero-ETH wallet swaps USDC for WETH on base through Uniswap V3', () => {
  let replica: ReplicaStack;
  const base = REAL_NETWORK_CATALOG.find((e) => e.chain === 'base')!;

  beforeAll(async () => {
    replica = await startReplicaStack('gascovered');
  }, 600_000);

  afterAll(async () => {
    await replica?.stop();
  }, 180_000);

  it('100 USDC and 0 ETH: a USDC permit of Permit2 and a SwapV3Intent, both typed data for chain 8453; the wallet gets at least the minimum and its ETH stays 0', async () => {
    const wallet = await replica.freshWalletWith('base', 'USDC', parseUnits('100', 6));
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
    const quote = await replica.client.post(
      '/quote',
      {
        fromChain: 'base',
        toChain: 'base',
        tokenIn: 'USDC',
        tokenOut: 'WETH',
        amount: '100',
        slippageBps: 50,
      },
      { timeoutMs: 60_000 },
    );
    expect(quote.status).toBe(200);
    const route = (quote.body.data.routes as Route[]).find((r) => r.provider === 'uniswap-v3')!;
    expect(route).toBeDefined();
    // The quote says ahead what the wallet will sign: two typed data on base, the permit skippable.
    expect(route.signatures).toEqual([
      { chain: 'base', kind: 'approve', payloadType: 'evm-typed-data', mayBeSkipped: true },
      { chain: 'base', kind: 'swap', payloadType: 'evm-typed-data', mayBeSkipped: false },
    ]);

    // The default gasPayment: sponsored.
    const swapId = await buildSwapId(
      { client: replica.client },
      {
        quoteId: quote.body.data.quoteId,
        routeId: route.routeId,
        userAddress: wallet.address,
        waitForTxRequestMs: 20_000,
      },
    );

    const signed = await signTypedDataUntilCompleted({ client: replica.client }, swapId, wallet);

    const [permit, intent] = signed;
    expect(signed).toHaveLength(2);
    // USDC's own EIP-2612 domain ("USD Coin", "2") on Base, for Permit2 at its canonical address.
    expect(permit.primaryType).toBe('Permit');
    expect(permit.domain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: 8453,
      verifyingContract: base.tokens.find((t) => t.symbol === 'USDC')!.address,
    });
    expect(permit.message).toMatchObject({ owner: wallet.address, spender: base.permit2 });
    // The leg: Permit2's domain on 8453, our router as spender, the SwapV3Intent through SwapRouter02.
    expect(intent.primaryType).toBe('PermitWitnessTransferFrom');
    expect(intent.domain).toEqual({ name: 'Permit2', chainId: 8453, verifyingContract: base.permit2 });
    expect(base.permit2).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3');
    expect(intent.types.PermitWitnessTransferFrom).toContainEqual({ name: 'witness', type: 'SwapV3Intent' });
    expect(intent.message).toMatchObject({
      spender: base.gatewayRouter,
      permitted: { amount: parseUnits('100', 6).toString() },
      witness: { venue: base.uniswapV3!.swapRouter02, recipient: wallet.address, unwrapNative: false },
    });

    expect(await replica.balanceOf('base', 'USDC', wallet.address)).toBe(0n);
    expect(await replica.balanceOf('base', 'WETH', wallet.address)).toBeGreaterThanOrEqual(
      parseUnits(route.minAmountOut, route.tokenOutDecimals),
    );
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
  });
});
