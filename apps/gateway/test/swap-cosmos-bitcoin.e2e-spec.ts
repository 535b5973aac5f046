import { secp256k1 } from '@noble/curves/secp256k1.js';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { StargateClient } from '@cosmjs/stargate';
import { bitcoinDevnetKey, EsploraClient } from '@swapgw/devnet';
import { opReturnText } from '@swapgw/chains/bitcoin-bridge';
import { cosmosSigner, createGatewayClient, runSwap, unisatSigner, type RunSwapEvent } from '@swapgw/sdk';
import { formatUnits, parseUnits } from 'ethers';
import { bitcoinWalletOf, DevnetBitcoinWallets, unisatWalletOf } from './support/bitcoin-wallets';
import { walletHoldingOnly } from './support/cosmos-wallets';
import { DevnetEvm } from './support/devnet-evm';
import { connectE2eApi, type E2eApi } from './support/e2e-api';
import { openSseStream } from './support/sse-client';

// USDC on Noble ⇄ native BTC through the devnet bridge's Cosmos end (Noble's CCTP shape) and its
// Bitcoin end (docs/chains.md, "Noble ⇄ Bitcoin"): a Keplr-like wallet holding nothing but the USDC
// it sends signs one MsgDepositForBurn naming the devnet's Bitcoin domain and the Bitcoin address as
// 32 bytes, the fee paid by the service's fee granter; the relayer pays BTC from the bridge's vault.
// The other way a Bitcoin wallet signs one PSBT paying the vault with the bridge's memo naming a
// `noble1…` account (the service's fee wallet paying the miner fee), and the relayer mints uusdc.
// Balances are read on both chains; each swap completes only once its payout is on chain.
const devnet = new DevnetEvm();
const manifest = devnet.manifest as typeof devnet.manifest & {
  bitcoin: {
    id: string;
    esploraUrl: string;
    bridge: { vault: string; chainId: number; usdcPerBtc: number; outboundFeeSats: number };
  };
};
const noble = devnet.cosmos('noble-devnet');
const bitcoin = new DevnetBitcoinWallets(new EsploraClient(manifest.bitcoin.esploraUrl), () =>
  bitcoinDevnetKey('wallet', 7),
);
const quotedOf = (events: RunSwapEvent[]) => events.find((e) => e.type === 'quoted')!;

describe('USDC on Noble ⇄ BTC through the devnet bridge', () => {
  let e2e: E2eApi;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-bitcoin-e2e');
  });
  afterAll(() => {
    clients.forEach((c) => c.disconnect());
    devnet.destroy();
  });

  const gateway = () =>
    createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey });

  const nobleBalance = async (address: string): Promise<bigint> => {
    const reader = await StargateClient.connect(noble.rpc);
    clients.push(reader);
    return BigInt((await reader.getBalance(address, 'uusdc')).amount);
  };

  it('lists USDC (Noble) ⇄ BTC and no other BTC pair beside THORChain’s', async () => {
    const pairs = await e2e.client.get('/pairs', { query: { limit: 10000 } });
    expect(pairs.status).toBe(200);
    const withBitcoin = (pairs.body.data.pairs as { fromChain: string; toChain: string; tokenIn: string }[])
      .filter((p) => p.fromChain === manifest.bitcoin.id || p.toChain === manifest.bitcoin.id)
      .map((p) => `${p.fromChain}:${p.tokenIn}→${p.toChain}`)
      .sort();
    expect(withBitcoin).toEqual(
      [
        `${manifest.bitcoin.id}:BTC→devnet-a`,
        `${manifest.bitcoin.id}:BTC→devnet-b`,
        `${manifest.bitcoin.id}:BTC→${noble.id}`,
        `devnet-a:USDC→${manifest.bitcoin.id}`,
        `devnet-b:USDC→${manifest.bitcoin.id}`,
        `${noble.id}:USDC→${manifest.bitcoin.id}`,
      ].sort(),
    );
  });

  it('USDC on Noble → BTC: one MsgDepositForBurn to the Bitcoin domain, fee granted; the wallet loses exactly its USDC, the bcrt1 address gets the quote', async () => {
    const amount = 45_000_000n; // 45 USDC
    const { wallet, user, publicKey } = await walletHoldingOnly(noble, 'uusdc', amount, 8, (c) =>
      clients.push(c),
    );
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey()).address;
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: gateway(),
      quoteRequest: {
        fromChain: noble.id,
        toChain: manifest.bitcoin.id,
        tokenIn: 'USDC',
        tokenOut: 'BTC',
        amount: formatUnits(amount, 6),
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: user.address,
      build: { gasPayment: 'user', recipient, userPublicKey: publicKey },
      signers: [cosmosSigner(wallet)],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    // Completed only once the vault's payout is mined (the planner reads it from Esplora).
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    const signing = events.filter((e) => e.type === 'signing');
    expect(signing).toHaveLength(1);
    expect(signing[0].payload).toMatchObject({
      type: 'cosmos-sign-direct',
      msgs: [
        {
          typeUrl: '/circle.cctp.v1.MsgDepositForBurn',
          value: {
            from: user.address,
            amount: amount.toString(),
            destinationDomain: 0x425443,
            burnToken: 'uusdc',
          },
        },
      ],
    });
    // The fee was the granter's: the wallet lost exactly what it sent.
    expect(await nobleBalance(user.address)).toBe(0n);
    // 45 USDC less the bridge's fee at the Bitcoin end's price (90,000 USDC per BTC), less the
    // payout's miner fee.
    const route = quotedOf(events).route;
    const quotedSats = parseUnits(route.minAmountOut, 8);
    const { usdcPerBtc, outboundFeeSats } = manifest.bitcoin.bridge;
    const afterFee = amount - (amount * BigInt(manifest.bridge.feeBps)) / 10_000n;
    expect(quotedSats).toBe(
      (afterFee * 100_000_000n) / (BigInt(usdcPerBtc) * 1_000_000n) - BigInt(outboundFeeSats),
    );
    // Already in a block when the swap completed: the recipient holds exactly the quote.
    expect(await bitcoin.satsOf(recipient)).toBe(quotedSats);
    // GET /swap/{swapId} tells the same: the burn's step confirmed, the swap completed.
    const status = await e2e.client.get(`/swap/${result.swap.swapId}`);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'completed', failure: null });
    expect(status.body.data.steps).toEqual([
      expect.objectContaining({ chain: noble.id, status: 'confirmed' }),
    ]);
    // SSE (replayed from the first event) tells the burn's step confirmed, then the swap completed,
    // which the planner decides only once the vault's BTC payout is in a block.
    const stream = await openSseStream(
      `${process.env.GATEWAY_URL}/swap/${result.swap.swapId}/events`,
      e2e.apiKey,
    );
    await stream.ended;
    const told = stream.events.map((e) => e.event);
    expect(told.slice(-2)).toEqual(['swap.step-confirmed', 'swap.completed']);
    expect(stream.events.find((e) => e.event === 'swap.step-confirmed')?.data).toMatchObject({
      step: { current: 1, total: 1 },
      lastTxHash: result.submitted[0].txHash,
    });
  });

  it('BTC → USDC on Noble: a Unisat-like wallet signs one PSBT to the vault with the bridge memo naming the noble1 account; BTC drops by exactly the amount, Noble mints the quote', async () => {
    const wallet = await bitcoin.freshWalletWith(3_000_000n, 'p2tr');
    const [nobleRecipient] = await (
      await DirectSecp256k1HdWallet.generate(12, { prefix: 'noble' })
    ).getAccounts();
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: gateway(),
      quoteRequest: {
        fromChain: manifest.bitcoin.id,
        toChain: noble.id,
        tokenIn: 'BTC',
        tokenOut: 'USDC',
        amount: '0.001',
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: wallet.address,
      build: {
        userPublicKey: wallet.publicKey,
        recipient: nobleRecipient.address,
        waitForTxRequestMs: 20_000,
      },
      signers: [unisatSigner(unisatWalletOf(wallet))],
      timeoutMs: 120_000,
      onEvent: (event) => events.push(event),
    });
    // Completed only once Noble minted the deposit's USDC (the planner reads its MessageReceived).
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });
    expect(result.submitted).toHaveLength(1);
    const deposit = await bitcoin.esplora.json<{
      vout: { scriptpubkey_type: string; scriptpubkey: string }[];
    }>(`/tx/${result.submitted[0].txHash}`);
    const memo = deposit.vout
      .filter((output) => output.scriptpubkey_type === 'op_return')
      .map((output) => opReturnText(Buffer.from(output.scriptpubkey, 'hex')));
    const minOut = parseUnits(quotedOf(events).route.minAmountOut, 6);
    expect(memo).toEqual([`=:${noble.id}.USDC:${nobleRecipient.address}:${minOut}`]);
    // The service's fee wallet paid the miner fee: the wallet lost exactly the 100,000 sats swapped.
    expect(await bitcoin.satsOf(wallet.address)).toBe(3_000_000n - 100_000n);
    // 0.001 BTC at 90,000 USDC per BTC, less the Bitcoin end's 5 bps: minted on Noble, exactly.
    expect(minOut).toBe(89_955_000n);
    expect(await nobleBalance(nobleRecipient.address)).toBe(minOut);
  });
});
