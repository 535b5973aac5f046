import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet, Registry, type GeneratedType } from '@cosmjs/proto-signing';
import { defaultRegistryTypes, GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { bech32 } from '@scure/base';
import {
  decodeMsgClearAccount,
  encodeMsgClearAccount,
  encodeMsgSwapExactAmountIn,
  ibcVoucherDenom,
  MSG_CLEAR_ACCOUNT_TYPE_URL,
  MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
} from '@swapgw/chains/families';
import { Connection, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { MEMO_PROGRAM_ID } from '@swapgw/chains/solana-bridge';
import {
  DEVNET_MNEMONIC,
  solanaConnection,
  solanaTestWallet,
  type CosmosDevnetChainManifest,
} from '@swapgw/devnet';
import { createGatewayClient, ethersSigner, runSwap, type RunSwapEvent } from '@swapgw/sdk';
import { solanaSigner } from '@swapgw/sdk/solana';
import { waitFor } from '@swapgw/testing';
import { freshSolanaWalletWith, splBalanceOf } from '@swapgw/testing/solana';
import { parseUnits } from 'ethers';
import { DevnetEvm } from './support/devnet-evm';
import { connectE2eApi, type E2eApi } from './support/e2e-api';
import { openSseStream } from './support/sse-client';

/** A message cosmjs-types lacks, as cosmjs's registry takes it: its JSON encoded by our encoder. */
const jsonType = (
  encode: (json: Record<string, unknown>) => Uint8Array,
  decode?: (bytes: Uint8Array) => unknown,
) =>
  ({
    encode: (json: Record<string, unknown>) => ({ finish: () => encode(json) }),
    decode: (bytes: Uint8Array) => decode?.(bytes) ?? {},
    fromPartial: (json: Record<string, unknown>) => json,
  }) as unknown as GeneratedType;

// USDC on devnet-a → ATOM on the Hub for a zero-gas EVM wallet (issue 46): the wallet signs typed
// data only; the devnet bridge pays Noble's forwarding account (registered by the service's Noble fee
// granter when the step is issued), which forwards the mint to Osmosis's crosschain-swaps contract
// with the `wasm` memo that swaps it for ATOM and sends the ATOM home to the Hub recipient. Balances
// are read on every chain touched: devnet-a, Noble, Osmosis and the Hub. The same route from Solana:
// a wallet without SOL signs one vault deposit whose memo names the forwarding account.
const devnet = new DevnetEvm();
const chainOf = (id: string) => devnet.cosmos(id);
const noble = chainOf('noble-devnet');
const osmosis = chainOf('osmosis-devnet');
const hub = chainOf('cosmoshub-devnet');
const manifest = devnet.manifest;
const solanaMint = new PublicKey(manifest.solana.tokens.USDC.mint);

describe('USDC on devnet-a → ATOM on the Hub through a Noble forwarding account', () => {
  let e2e: E2eApi;
  let solana: Connection;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-forwarding-e2e');
    solana = solanaConnection(manifest.solana.rpcUrl);
  });
  afterAll(async () => {
    await setRelayerRunning(true);
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

  /** 20 USDC on devnet-a → ATOM for `hubRecipient` through the forwarding route, signed by `wallet` (runSwap). */
  const swapToHubAtom = (
    wallet: Awaited<ReturnType<DevnetEvm['freshWalletHolding']>>,
    hubRecipient: string,
    events: RunSwapEvent[],
    slippageBps?: number,
  ) =>
    runSwap({
      client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey }),
      quoteRequest: {
        fromChain: 'devnet-a',
        toChain: hub.id,
        tokenIn: 'USDC',
        tokenOut: 'ATOM',
        amount: '20',
        ...(slippageBps === undefined ? {} : { slippageBps }),
      },
      route: (routes) =>
        routes.find((route) => route.providers[0] === 'devnet-bridge' && route.providers.includes('osmosis')),
      userAddress: wallet.address,
      build: { recipient: hubRecipient, waitForTxRequestMs: 20_000 },
      signers: [ethersSigner(wallet)],
      timeoutMs: 180_000,
      onEvent: (event) => events.push(event),
    });

  /** The IBC packets the swap's steps told (swap.step-packet, SSE replayed from its first event), `chain:state`. */
  const packetsToldOf = async (swapId: string): Promise<string[]> => {
    const stream = await openSseStream(`${process.env.GATEWAY_URL}/swap/${swapId}/events`, e2e.apiKey);
    await stream.ended;
    return stream.events
      .filter((e) => e.event === 'swap.step-packet')
      .map((e) => `${e.data.packet.destinationChain}:${e.data.packet.state}`);
  };

  /** A devnet test wallet's signing client on `chain`, knowing x/forwarding's and Osmosis's messages. */
  const testSigner = async (chain: CosmosDevnetChainManifest, prefix: string, index: number) => {
    const signer = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const registry = new Registry(defaultRegistryTypes);
    registry.register(MSG_CLEAR_ACCOUNT_TYPE_URL, jsonType(encodeMsgClearAccount, decodeMsgClearAccount));
    registry.register(MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL, jsonType(encodeMsgSwapExactAmountIn));
    const client = await SigningStargateClient.connectWithSigner(chain.rpc, signer, {
      registry,
      gasPrice: GasPrice.fromString(chain.minGasPrice),
      broadcastPollIntervalMs: 100,
    });
    clients.push(client);
    return { client, address: (await signer.getAccounts())[0].address };
  };

  /** The devnet relayer's control (devnet only): stopped, packets wait; started, it relays. */
  const setRelayerRunning = async (running: boolean) => {
    const res = await fetch(`${hub.rest}/devnet/ibc/relayer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ running }),
    });
    expect(res.status).toBe(200);
  };

  it('lists USDC on devnet-a and on Solana → ATOM on the Hub and → OSMO on Osmosis among the pairs', async () => {
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
        ...[hub.id, osmosis.id].map((toChain) =>
          expect.objectContaining({
            fromChain: manifest.solana.id,
            toChain,
            tokenIn: 'USDC',
            tokenOut: toChain === hub.id ? 'ATOM' : 'OSMO',
          }),
        ),
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
    const result = await swapToHubAtom(wallet, hubRecipient, events);
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

    // Completed means delivered: the Hub recipient holds the ATOM the moment the swap completes (read
    // now, not waited for).
    const minOut = parseUnits(quoted.route.minAmountOut, 6);
    expect(await balance(hub, hubRecipient, 'uatom')).toBeGreaterThanOrEqual(minOut);
    // The deposit step, as GET /swap shows it: its last packet the swap's output home to the Hub,
    // acknowledged; every packet of the route told once, in route order (swap.step-packet).
    const [deposit] = result.swap.steps.filter((step) => step.chain === 'devnet-a').slice(-1);
    expect(deposit.packet).toMatchObject({
      state: 'acknowledged',
      destinationChain: hub.id,
      sourceChannel: osmosis.ibcChannels[hub.id],
      refunded: false,
      acknowledgementError: null,
    });
    expect(deposit.packet?.receivedTxHash).toMatch(/^[0-9A-F]{64}$/);
    const packetStates = await packetsToldOf(result.swap.swapId);
    // Each read state once (which of sent and received were seen depends on when the planner read):
    // the forward's to Osmosis up to its acknowledgement, then the output's to the Hub up to its own.
    expect(packetStates).toContain(`${osmosis.id}:acknowledged`);
    expect(packetStates.at(-1)).toBe(`${hub.id}:acknowledged`);
    expect(packetStates.indexOf(`${osmosis.id}:acknowledged`)).toBeLessThan(
      packetStates.findIndex((each) => each.startsWith(`${hub.id}:`)),
    );
    expect(new Set(packetStates).size).toBe(packetStates.length);
    // Noble: the forwarding account forwarded everything it was minted, once.
    expect(await balance(noble, forwarding, 'uusdc')).toBe(0n);
    expect(BigInt((await stats()).num_of_forwards)).toBe(forwardsBefore + 1n);
    // Osmosis: the contract swapped all of it and kept none.
    expect(await balance(osmosis, contract, osmosisUsdc)).toBe(contractUsdcBefore);
  });

  it('USDC on Solana → ATOM on the Hub for a wallet without SOL: one deposit whose memo names the forwarding account; completed once the ATOM is home', async () => {
    const amount = 15_000_000n; // 15 USDC
    const wallet = await freshSolanaWalletWith(solana, solanaMint, solanaTestWallet(4), amount);
    const hubRecipient = (
      await (await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' })).getAccounts()
    )[0].address;
    const osmosisUsdc = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[noble.id]}/uusdc`);
    const contract = osmosis.crosschainSwapsContract!;
    const contractUsdcBefore = await balance(osmosis, contract, osmosisUsdc);
    const stats = () =>
      rest<{ num_of_forwards: string }>(noble, `/noble/forwarding/v1/stats/${noble.ibcChannels[osmosis.id]}`);
    const forwardsBefore = BigInt((await stats()).num_of_forwards);

    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey }),
      quoteRequest: {
        fromChain: manifest.solana.id,
        toChain: hub.id,
        tokenIn: 'USDC',
        tokenOut: 'ATOM',
        amount: '15',
      },
      route: (routes) => routes.find((route) => route.providers[0] === 'devnet-bridge'),
      userAddress: wallet.publicKey.toBase58(),
      // Sponsored (the default): the service's Solana fee payer pays, Noble's fee granter registers.
      build: { recipient: hubRecipient, waitForTxRequestMs: 20_000 },
      signers: [solanaSigner(wallet)],
      timeoutMs: 180_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    // Completed means delivered: read now, not waited for.
    const atomHome = await balance(hub, hubRecipient, 'uatom');

    const quoted = events.find((e) => e.type === 'quoted');
    if (quoted?.type !== 'quoted') throw new Error('no quote');
    expect(quoted.route.providers).toEqual(['devnet-bridge', 'ibc', 'osmosis', 'ibc']);
    expect(quoted.route.signatures.map((s) => [s.chain, s.payloadType])).toEqual([
      [manifest.solana.id, 'solana-versioned-transaction'],
    ]);
    // The one transaction's memo names Noble (CCTP domain 4) and the forwarding account.
    const signing = events.find((e) => e.type === 'signing');
    if (signing?.type !== 'signing' || signing.payload.type !== 'solana-versioned-transaction')
      throw new Error('no Solana transaction to sign');
    const tx = VersionedTransaction.deserialize(Buffer.from(signing.payload.transaction, 'base64'));
    const [memo] = tx.message.compiledInstructions
      .filter((ix) => tx.message.staticAccountKeys[ix.programIdIndex].equals(MEMO_PROGRAM_ID))
      .map((ix) => Buffer.from(ix.data).toString('utf8'));
    const forwarding = /^swapgw-bridge:v1:4:(noble1[02-9ac-hj-np-z]{38})$/.exec(memo)?.[1];
    expect(forwarding).toBeDefined();

    // Solana: exactly the 15 USDC gone, not one lamport (it never had any). The Hub: at least the
    // quote's minimum. Noble: the forwarding account forwarded all of it. Osmosis: the contract kept none.
    expect(await splBalanceOf(solana, solanaMint, wallet.publicKey)).toBe(0n);
    expect(await solana.getBalance(wallet.publicKey, 'confirmed')).toBe(0);
    expect(atomHome).toBeGreaterThanOrEqual(parseUnits(quoted.route.minAmountOut, 6));
    expect(await balance(noble, forwarding!, 'uusdc')).toBe(0n);
    expect(BigInt((await stats()).num_of_forwards)).toBe(forwardsBefore + 1n);
    expect(await balance(osmosis, contract, osmosisUsdc)).toBe(contractUsdcBefore);
    // The deposit step: its last packet the output home to the Hub, acknowledged.
    expect(result.swap.steps.map((step) => [step.chain, step.status])).toEqual([
      [manifest.solana.id, 'confirmed'],
    ]);
    expect(result.swap.steps[0].packet).toMatchObject({
      state: 'acknowledged',
      destinationChain: hub.id,
      refunded: false,
    });
  });

  it("the swap on arrival below its minimum: FORWARD_FAILED, the USDC back on the forwarding account, cleared by MsgClearAccount to the recipient's Noble key", async () => {
    const amount = 20_000_000n;
    const wallet = await devnet.freshWalletHolding('devnet-a', 'USDC', amount, 6);
    const recipientWallet = await DirectSecp256k1HdWallet.generate(12, { prefix: 'cosmos' });
    const hubRecipient = (await recipientWallet.getAccounts())[0].address;
    const nobleKey = bech32.encode('noble', bech32.decode(hubRecipient as `cosmos1${string}`).words);
    const stats = async () =>
      BigInt(
        (
          await rest<{ num_of_forwards: string }>(
            noble,
            `/noble/forwarding/v1/stats/${noble.ibcChannels[osmosis.id]}`,
          )
        ).num_of_forwards,
      );
    const forwardsBefore = await stats();

    // The relayer stopped: the forward waits on Noble while the pool moves under its minimum.
    await setRelayerRunning(false);
    const events: RunSwapEvent[] = [];
    const running = swapToHubAtom(wallet, hubRecipient, events, 1);
    await waitFor(async () => ((await stats()) > forwardsBefore ? true : null), {
      timeoutMs: 90_000,
      intervalMs: 300,
      description: "the forwarding account's forward sent on Noble",
    });
    // Someone buys ATOM with USDC in the pool the swap uses (OSMO → USDC → ATOM): less ATOM per USDC.
    const pools = await rest<{ pools: { id: string; pool_assets: { token: { denom: string } }[] }[] }>(
      osmosis,
      '/osmosis/poolmanager/v1beta1/all-pools',
    );
    const osmosisUsdc = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[noble.id]}/uusdc`);
    const osmosisAtom = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[hub.id]}/uatom`);
    const poolOf = (a: string, b: string) =>
      pools.pools.find((pool) => {
        const denoms = pool.pool_assets.map((asset) => asset.token.denom);
        return denoms.includes(a) && denoms.includes(b);
      })!.id;
    const trader = await testSigner(osmosis, 'osmo', 9);
    const moved = await trader.client.signAndBroadcast(
      trader.address,
      [
        {
          typeUrl: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
          value: {
            sender: trader.address,
            routes: [
              { poolId: poolOf('uosmo', osmosisUsdc), tokenOutDenom: osmosisUsdc },
              { poolId: poolOf(osmosisUsdc, osmosisAtom), tokenOutDenom: osmosisAtom },
            ],
            tokenIn: { denom: 'uosmo', amount: '900000000' },
            tokenOutMinAmount: '1',
          },
        },
      ],
      'auto',
    );
    expect(moved.code).toBe(0);
    await setRelayerRunning(true);

    const result = await running;
    expect(result.swap.status).toBe('failed');
    const failure = result.swap.failure as { reason: string; details: Record<string, any> };
    expect(failure.reason).toBe('FORWARD_FAILED');
    const forwarding = failure.details.fundsAt.address as string;
    expect(failure.details).toMatchObject({
      message: expect.stringContaining('swap on arrival'),
      payoutTxHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      fundsAt: { chain: noble.id, holder: 'forwarding-account', address: expect.stringMatching(/^noble1/) },
      packet: { state: 'acknowledged', refunded: true, destinationChain: osmosis.id },
    });
    expect(failure.details.fundsAt.recovery).toContain(nobleKey);
    const [deposit] = result.swap.steps.filter((step) => step.chain === 'devnet-a').slice(-1);
    expect(deposit.packet).toMatchObject({ state: 'acknowledged', refunded: true });
    // The forward's packet told up to its acknowledgement with the refund; nothing went home.
    const told = await packetsToldOf(result.swap.swapId);
    expect(told.at(-1)).toBe(`${osmosis.id}:acknowledged`);
    expect(told.every((each) => each.startsWith(`${osmosis.id}:`))).toBe(true);
    expect(new Set(told).size).toBe(told.length);

    // Nothing reached the Hub; the forward's USDC is back on the forwarding account, and stays there
    // (x/forwarding does not forward a refund again by itself).
    expect(await balance(hub, hubRecipient, 'uatom')).toBe(0n);
    const held = await balance(noble, forwarding, 'uusdc');
    expect(held).toBeGreaterThan(0n);
    expect(held).toBeLessThanOrEqual(amount);
    expect(await stats()).toBe(forwardsBefore + 1n);
    // Anyone clears it to the fallback registered with it: the recipient's own key on Noble.
    const clearer = await testSigner(noble, 'noble', 9);
    const cleared = await clearer.client.signAndBroadcast(
      clearer.address,
      [
        {
          typeUrl: MSG_CLEAR_ACCOUNT_TYPE_URL,
          value: { signer: clearer.address, address: forwarding, fallback: true },
        },
      ],
      'auto',
    );
    expect(cleared.code).toBe(0);
    expect(cleared.events.some((e) => e.type === 'noble.forwarding.v1.AccountCleared')).toBe(true);
    expect(await balance(noble, forwarding, 'uusdc')).toBe(0n);
    expect(await balance(noble, nobleKey, 'uusdc')).toBe(held);
  });
});
