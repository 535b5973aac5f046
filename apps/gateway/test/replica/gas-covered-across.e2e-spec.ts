import { parseUnits, Wallet } from 'ethers';
import { REAL_NETWORK_CATALOG } from '@swapgw/chains';
import { waitFor } from '@swapgw/testing';
import { startReplicaStack, ReplicaStack } from '../support/replica-stack';
import { buildSwapId, signTypedDataUntilCompleted } from '../support/swap-steps';

// Gas covered on both chains through Across, on the mainnet replica with the apps configured as
// production: a wallet holding only USDC on base signs typed data only (USDC's permit of Permit2 and
// one Permit2 witness); the service's relayer sends it to our SwapGatewayRouter, which deposits into
// base's SpokePool; the replica's Across filler fills on arbitrum, where the SpokePool's fill calls
// the router's handleV3AcrossMessage (the swap) or pays the wallet (a plain transfer).

interface Route {
  routeId: string;
  provider: string;
  providers: string[];
  bridgeProvider?: string;
  expectedAmountOut: string;
  minAmountOut: string;
  tokenOutDecimals: number;
  integratorFee: Array<{ recipient: string; bps: number; amount: string; token: string; chain: string }>;
  signatures: Array<{ chain: string; kind: string; payloadType: string; mayBeSkipped: boolean }>;
}

const catalog = (chain: string) => REAL_NETWORK_CATALOG.find((e) => e.chain === chain)!;

describe('gas covered on both chains through Across (mainnet replica)', () => {
  let replica: ReplicaStack;

  beforeAll(async () => {
    replica = await startReplicaStack('gascoveredacross');
  }, 600_000);

  afterAll(async () => {
    await replica?.stop();
  }, 180_000);

  /** Quotes base → arbitrum (with `integratorFee` when given) and picks the Across route ending in `tokenOut`. */
  const quoteAcross = async (
    tokenOut: string,
    amount: string,
    integratorFee?: { recipient: string; bps: number },
  ): Promise<{ quoteId: string; route: Route }> => {
    const quote = await replica.client.post(
      '/quote',
      {
        fromChain: 'base',
        toChain: 'arbitrum',
        tokenIn: 'USDC',
        tokenOut,
        amount,
        slippageBps: 50,
        ...(integratorFee ? { integratorFee } : {}),
      },
      { timeoutMs: 60_000 },
    );
    expect(quote.status).toBe(200);
    const route = (quote.body.data.routes as Route[]).find((r) => r.bridgeProvider === 'across');
    expect(route).toBeDefined();
    return { quoteId: quote.body.data.quoteId, route: route! };
  };

  /** Builds with the default gasPayment (sponsored) and signs every step as typed data. */
  const signAll = async (wallet: Wallet, quoteId: string, route: Route) => {
    const swapId = await buildSwapId(
      { client: replica.client },
      { quoteId, routeId: route.routeId, userAddress: wallet.address, waitForTxRequestMs: 20_000 },
    );
    const signed = await signTypedDataUntilCompleted({ client: replica.client }, swapId, wallet);
    return { swapId, signed };
  };

  /** The relayer's transaction on base that carried the witness: the swap's last step. */
  const depositTxOf = async (swapId: string): Promise<string> => {
    const swap = await replica.client.get(`/swap/${swapId}`);
    expect(swap.status).toBe(200);
    const steps = swap.body.data.steps as Array<{ kind: string; txHash: string | null }>;
    const deposit = steps.at(-1)!;
    expect(deposit).toMatchObject({ kind: 'bridge', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    return deposit.txHash!;
  };

  const acrossStatusOf = (txHash: string) =>
    waitFor(
      async () => {
        const res = await replica.client.get(`/status/transaction/${txHash}?chainRef=base`);
        return res.status === 200 && res.body.data.bridge?.fill?.status === 'filled' ? res : null;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: 'the Across fill on arbitrum' },
    );

  it('a wallet holding 100 USDC and 0 ETH on base sends it to WETH on arbitrum through Across, paying no gas on either chain', async () => {
    const wallet = await replica.freshWalletWith('base', 'USDC', parseUnits('100', 6));
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
    expect(await replica.ethOf('arbitrum', wallet.address)).toBe(0n);
    const { quoteId, route } = await quoteAcross('WETH', '100');
    expect(route.providers).toEqual(['across', 'uniswap-v3']);
    // Signed once, on base: the permit (skippable) and the Across deposit that carries the swap.
    expect(route.signatures).toEqual([
      { chain: 'base', kind: 'approve', payloadType: 'evm-typed-data', mayBeSkipped: true },
      { chain: 'base', kind: 'bridge', payloadType: 'evm-typed-data', mayBeSkipped: false },
    ]);

    const { swapId, signed } = await signAll(wallet, quoteId, route);
    expect(signed.map((td) => td.primaryType)).toEqual(['Permit', 'PermitWitnessTransferFrom']);
    const intent = signed[1];
    expect(intent.domain).toEqual({
      name: 'Permit2',
      chainId: 8453,
      verifyingContract: catalog('base').permit2,
    });
    expect(intent.types.PermitWitnessTransferFrom).toContainEqual({
      name: 'witness',
      type: 'AcrossSwapIntent',
    });
    expect(intent.message).toMatchObject({
      spender: catalog('base').gatewayRouter,
      permitted: { token: replica.tokenAddress('base', 'USDC'), amount: parseUnits('100', 6).toString() },
      witness: {
        venue: catalog('base').across!.spokePool,
        destinationChainId: '42161',
        outputToken: replica.tokenAddress('arbitrum', 'USDC'),
        destinationRouter: catalog('arbitrum').gatewayRouter,
        destinationVenue: catalog('arbitrum').uniswapV3!.swapRouter02,
        recipient: wallet.address,
        unwrapNative: false,
      },
    });

    const minimum = parseUnits(route.minAmountOut, route.tokenOutDecimals);
    await waitFor(
      async () => ((await replica.balanceOf('arbitrum', 'WETH', wallet.address)) >= minimum ? true : null),
      { timeoutMs: 60_000, intervalMs: 500, description: 'WETH on arbitrum' },
    );
    expect(await replica.balanceOf('base', 'USDC', wallet.address)).toBe(0n);
    expect(await replica.balanceOf('arbitrum', 'USDC', wallet.address)).toBe(0n);
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
    expect(await replica.ethOf('arbitrum', wallet.address)).toBe(0n);

    // The deposit is the relayer's transaction on base; its status is the Across transfer, filled.
    const status = await acrossStatusOf(await depositTxOf(swapId));
    expect(status.body.data).toMatchObject({
      chain: 'base',
      status: 'confirmed',
      bridge: {
        protocol: 'across',
        originChain: 'base',
        destinationChain: 'arbitrum',
        recipient: catalog('arbitrum').gatewayRouter,
        outputToken: replica.tokenAddress('arbitrum', 'USDC'),
        fill: { status: 'filled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      },
    });
  });

  it('with an integrator fee: the AcrossSwapIntent the wallet signs names it, the router pays it on base in the relayed deposit (the recipient rises by exactly the quoted fee) and the rest still becomes WETH on arbitrum', async () => {
    const feeRecipient = Wallet.createRandom().address;
    const wallet = await replica.freshWalletWith('base', 'USDC', parseUnits('100', 6));
    const { quoteId, route } = await quoteAcross('WETH', '100', { recipient: feeRecipient, bps: 30 });
    expect(route.providers).toEqual(['across', 'uniswap-v3']);
    expect(route.integratorFee).toEqual([
      { recipient: feeRecipient, bps: 30, amount: '0.3', token: 'USDC', chain: 'base' },
    ]);
    const fee = parseUnits(route.integratorFee[0].amount, 6);

    const { swapId, signed } = await signAll(wallet, quoteId, route);
    const intent = signed[1];
    expect(intent.types.PermitWitnessTransferFrom).toContainEqual({
      name: 'witness',
      type: 'AcrossSwapIntent',
    });
    // Permit2 moves the whole 100 USDC; the witness lists the fee the router pays out of it.
    expect(intent.message).toMatchObject({
      permitted: { token: replica.tokenAddress('base', 'USDC'), amount: parseUnits('100', 6).toString() },
      witness: {
        destinationRouter: catalog('arbitrum').gatewayRouter,
        recipient: wallet.address,
        integratorFees: [{ recipient: feeRecipient, amount: fee.toString() }],
      },
    });

    const minimum = parseUnits(route.minAmountOut, route.tokenOutDecimals);
    await waitFor(
      async () => ((await replica.balanceOf('arbitrum', 'WETH', wallet.address)) >= minimum ? true : null),
      { timeoutMs: 60_000, intervalMs: 500, description: 'WETH on arbitrum' },
    );
    // On chain: the fee recipient (a fresh address) holds exactly the quoted fee on base; the wallet
    // spent its 100 USDC and paid no gas.
    expect(await replica.balanceOf('base', 'USDC', feeRecipient)).toBe(fee);
    expect(await replica.balanceOf('base', 'USDC', wallet.address)).toBe(0n);
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
    expect(await replica.ethOf('arbitrum', wallet.address)).toBe(0n);
    const status = await acrossStatusOf(await depositTxOf(swapId));
    expect(status.body.data.bridge).toMatchObject({
      recipient: catalog('arbitrum').gatewayRouter,
      fill: { status: 'filled' },
    });
  });

  it('a wallet holding 100 USDC and 0 ETH on base sends it to USDC on arbitrum through Across, paying no gas', async () => {
    const wallet = await replica.freshWalletWith('base', 'USDC', parseUnits('100', 6));
    const { quoteId, route } = await quoteAcross('USDC', '100');
    expect(route.providers).toEqual(['across']);
    expect(route.signatures).toEqual([
      { chain: 'base', kind: 'approve', payloadType: 'evm-typed-data', mayBeSkipped: true },
      { chain: 'base', kind: 'bridge', payloadType: 'evm-typed-data', mayBeSkipped: false },
    ]);
    const { swapId, signed } = await signAll(wallet, quoteId, route);
    expect(signed[1].types.PermitWitnessTransferFrom).toContainEqual({
      name: 'witness',
      type: 'AcrossIntent',
    });
    const status = await acrossStatusOf(await depositTxOf(swapId));
    expect(status.body.data.bridge).toMatchObject({
      recipient: wallet.address,
      outputAmount: parseUnits(route.expectedAmountOut, 6).toString(),
      fill: { status: 'filled' },
    });
    expect(await replica.balanceOf('arbitrum', 'USDC', wallet.address)).toBe(
      parseUnits(route.expectedAmountOut, 6),
    );
    expect(await replica.ethOf('base', wallet.address)).toBe(0n);
    expect(await replica.ethOf('arbitrum', wallet.address)).toBe(0n);
  });
});
