import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { StargateClient } from '@cosmjs/stargate';
import { bech32 } from '@scure/base';
import { ibcVoucherDenom } from '@swapgw/chains/families';
import type { CosmosDevnetChainManifest } from '@swapgw/devnet';
import { createGatewayClient, ethersSigner, runSwap, type RunSwapEvent } from '@swapgw/sdk';
import { waitFor } from '@swapgw/testing';
import { parseUnits } from 'ethers';
import { DevnetEvm } from './support/devnet-evm';
import { connectE2eApi, type E2eApi } from './support/e2e-api';

// USDC on devnet-a → ATOM on the Hub for a zero-gas EVM wallet (issue 46): the wallet signs typed
// data only; the devnet bridge pays Noble's forwarding account (registered by the service's Noble fee
// granter when the step is issued), which forwards the mint to Osmosis's crosschain-swaps contract
// with the `wasm` memo that swaps it for ATOM and sends the ATOM home to the Hub recipient. Balances
// are read on every chain touched: devnet-a, Noble, Osmosis and the Hub.
const devnet = new DevnetEvm();
const chainOf = (id: string) => devnet.cosmos(id);
const noble = chainOf('noble-devnet');
const osmosis = chainOf('osmosis-devnet');
const hub = chainOf('cosmoshub-devnet');

describe('USDC on devnet-a → ATOM on the Hub through a Noble forwarding account', () => {
  let e2e: E2eApi;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-forwarding-e2e');
  });
  afterAll(() => {
    clients.forEach((c) => c.disconnect());
    devnet.destroy();
  });

  const balance = async (chain: CosmosDevnetChainManifest, address: string, denom: string) => {
    const reader = await StargateClient.connect(chain.rpc);
    clients.push(reader);
    return BigInt((await reader.getBalance(address, denom)).amount);
  };
  const rest = async <T>(chain: CosmosDevnetChainManifest, path: string): Promise<T> => {
    const response = await fetch(`${chain.rest}${path}`);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it('lists USDC on devnet-a → ATOM on the Hub and → OSMO on Osmosis among the pairs', async () => {
    const pairs = await e2e.client.get('/pairs', { query: { limit: 10000 } });
    expect(pairs.status).toBe(200);
    const listed = pairs.body.data.pairs as {
      fromChain: string;
      toChain: string;
      tokenIn: string;
      tokenOut: string;
    }[];
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          fromChain: 'devnet-a',
          toChain: hub.id,
          tokenIn: 'USDC',
          tokenOut: 'ATOM',
        }),
        expect.objectContaining({
          fromChain: 'devnet-a',
          toChain: osmosis.id,
          tokenIn: 'USDC',
          tokenOut: 'OSMO',
        }),
      ]),
    );
  });

  it('a zero-gas wallet signs one intent; its USDC drops by exactly the amount, the Hub recipient gets at least minAmountOut ATOM', async () => {
    const amount = 20_000_000n; // 20 USDC
    const wallet = await devnet.freshWalletHolding('devnet-a', 'USDC', amount, 6);
    const hubRecipient = (
      await (await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' })).getAccounts()
    )[0].address;
    const stats = () =>
      rest<{ num_of_forwards: string }>(noble, `/noble/forwarding/v1/stats/${noble.ibcChannels[osmosis.id]}`);
    const forwardsBefore = BigInt((await stats()).num_of_forwards);
    const osmosisUsdc = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[noble.id]}/uusdc`);
    const contract = osmosis.crosschainSwapsContract!;
    const contractUsdcBefore = await balance(osmosis, contract, osmosisUsdc);

    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey }),
      quoteRequest: {
        fromChain: 'devnet-a',
        toChain: hub.id,
        tokenIn: 'USDC',
        tokenOut: 'ATOM',
        amount: '20',
      },
      route: (routes) =>
        routes.find((route) => route.providers[0] === 'devnet-bridge' && route.providers.includes('osmosis')),
      userAddress: wallet.address,
      build: { recipient: hubRecipient, waitForTxRequestMs: 20_000 },
      signers: [ethersSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    const quoted = events.find((e) => e.type === 'quoted')!;
    expect(quoted.route.signatures.every((s) => s.chain === 'devnet-a')).toBe(true);
    // Typed data only (the permit, the intent), on devnet-a: the wallet never held gas nor signed on Cosmos.
    const signed = events.filter((e) => e.type === 'signing').map((e) => e.payload.type);
    expect(signed.length).toBeGreaterThan(0);
    expect(signed.every((type) => type === 'evm-typed-data')).toBe(true);
    expect(await devnet.balanceOf('devnet-a', 'USDC', wallet.address)).toBe(0n);
    expect(await devnet.ethOf('devnet-a', wallet.address)).toBe(0n);

    // The intent's 32-byte recipient is Noble's forwarding account (20 bytes left-padded).
    // The Permit2 witness of the BridgeToIntent names it.
    type Message = { witness?: { recipient?: unknown } };
    const recipient = events
      .filter((e) => e.type === 'signing')
      .map((e) => (e.payload as { typedData?: { message?: Message } }).typedData?.message?.witness?.recipient)
      .find((value): value is string => typeof value === 'string' && /^0x0{24}[0-9a-f]{40}$/i.test(value));
    expect(recipient).toBeDefined();
    const forwarding = bech32.encode('noble', bech32.toWords(Buffer.from(recipient!.slice(2 + 24), 'hex')));

    const minOut = parseUnits(quoted.route.minAmountOut, 6);
    const atom = await waitFor(
      async () => {
        const held = await balance(hub, hubRecipient, 'uatom');
        return held > 0n ? held : null;
      },
      { timeoutMs: 90_000, intervalMs: 500, description: 'the ATOM sent home to the Hub' },
    );
    expect(atom).toBeGreaterThanOrEqual(minOut);
    // Noble: the forwarding account forwarded everything it was minted, once.
    expect(await balance(noble, forwarding, 'uusdc')).toBe(0n);
    expect(BigInt((await stats()).num_of_forwards)).toBe(forwardsBefore + 1n);
    // Osmosis: the contract swapped all of it and kept none.
    expect(await balance(osmosis, contract, osmosisUsdc)).toBe(contractUsdcBefore);
  });
});
