import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { StargateClient } from '@cosmjs/stargate';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { amountAfterBridgeFee } from '@swapgw/chains/solana-bridge';
import { ibcVoucherDenom } from '@swapgw/chains/families';
import { solanaConnection, type CosmosDevnetChainManifest } from '@swapgw/devnet';
import { cosmosSigner, createGatewayClient, runSwap, type RunSwapEvent } from '@swapgw/sdk';
import { splBalanceOf } from '@swapgw/testing/solana';
import { parseUnits } from 'ethers';
import { hubWalletHoldingOnly, devnetCosmosChain } from './support/cosmos-wallets';
import { devnetManifest } from './support/devnet-evm';
import { connectE2eApi, type E2eApi } from './support/e2e-api';

// ATOM on the Hub → USDC on Solana through the running stack (issue 46): the wallet signs on the Hub
// one MsgTransfer whose memo swaps the ATOM on arrival on Osmosis into USDC, sent home by the
// crosschain-swaps contract to the wallet's own Noble account; once it arrived the same wallet (its
// key under Noble's prefix) signs a MsgDepositForBurn of it towards Solana (CCTP domain 5), and the
// devnet bridge's relayer pays the Solana recipient. Both fees are the service's fee granters'
// (x/feegrant): the wallet holds only the ATOM it swaps. The swap completes only once Solana paid, so
// the payout is read right when runSwap returns. Balances are read on every chain touched.
const manifest = devnetManifest();
const chainOf = devnetCosmosChain;
const hub = chainOf('cosmoshub-devnet');
const osmosis = chainOf('osmosis-devnet');
const noble = chainOf('noble-devnet');
const solanaMint = new PublicKey(manifest.solana.tokens.USDC.mint);
const AMOUNT = 2_000_000n; // 2 ATOM

describe('ATOM on the Hub → USDC on Solana, through Osmosis and Noble’s CCTP, fees granted', () => {
  let e2e: E2eApi;
  let solana: Connection;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    e2e = await connectE2eApi('swap-cosmos-solana-e2e');
    solana = solanaConnection(manifest.solana.rpcUrl);
  });
  afterAll(() => clients.forEach((c) => c.disconnect()));

  const balance = async (chain: CosmosDevnetChainManifest, address: string, denom: string) => {
    const reader = await StargateClient.connect(chain.rpc);
    clients.push(reader);
    return BigInt((await reader.getBalance(address, denom)).amount);
  };

  it('lists ATOM on the Hub → USDC on Solana among the pairs', async () => {
    const pairs = await e2e.client.get('/pairs', { query: { limit: 10000 } });
    expect(pairs.status).toBe(200);
    expect(pairs.body.data.pairs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          fromChain: hub.id,
          toChain: manifest.solana.id,
          tokenIn: 'ATOM',
          tokenOut: 'USDC',
        }),
      ]),
    );
  });

  it('a wallet holding only 2 ATOM signs on the Hub, then on Noble; it loses exactly 2 ATOM and the Solana recipient is paid before the swap completes', async () => {
    const { wallet, user, receiver, publicKey } = await hubWalletHoldingOnly(hub, AMOUNT, 7, (c) =>
      clients.push(c),
    );
    // The same key on Noble, as Keplr's getOfflineSigner('noble-…') gives it.
    const nobleWallet = await DirectSecp256k1HdWallet.fromMnemonic(wallet.mnemonic, { prefix: 'noble' });
    const [onNoble] = await nobleWallet.getAccounts();
    const solanaRecipient = Keypair.generate().publicKey;
    const usdcOnOsmosis = ibcVoucherDenom(`transfer/${osmosis.ibcChannels[noble.id]}/uusdc`);
    const contract = osmosis.crosschainSwapsContract!;
    const contractBefore = await balance(osmosis, contract, usdcOnOsmosis);

    // One Cosmos signer per chain, as a dApp holds Keplr's per-chain signers: the SDK hands each
    // payload to the one holding its signerAddress.
    const signers = [cosmosSigner([wallet, nobleWallet])];
    const events: RunSwapEvent[] = [];
    const result = await runSwap({
      client: createGatewayClient({ baseUrl: process.env.GATEWAY_URL as string, apiKey: e2e.apiKey }),
      quoteRequest: {
        fromChain: hub.id,
        toChain: manifest.solana.id,
        tokenIn: 'ATOM',
        tokenOut: 'USDC',
        amount: '2',
      },
      route: (routes) => routes.find((route) => route.providers.includes('devnet-bridge')),
      userAddress: user.address,
      build: { gasPayment: 'user', recipient: solanaRecipient.toBase58(), userPublicKey: publicKey },
      signers,
      timeoutMs: 150_000,
      onEvent: (event) => events.push(event),
    });
    expect(result.swap).toMatchObject({ status: 'completed', failure: null });

    // Paid on Solana when the swap says completed: read at once, no waiting.
    const paid = await splBalanceOf(solana, solanaMint, solanaRecipient);

    const quoted = events.find((e) => e.type === 'quoted');
    if (quoted?.type !== 'quoted') throw new Error('no quote');
    expect(quoted.route.providers).toEqual(['ibc', 'osmosis', 'osmosis', 'devnet-bridge']);
    expect(quoted.route.signatures.map((s) => [s.chain, s.payloadType])).toEqual([
      [hub.id, 'cosmos-sign-direct'],
      [noble.id, 'cosmos-sign-direct'],
    ]);

    // Two signatures: the Hub's transfer, its memo paying the swap's USDC to the wallet's Noble
    // account; then Noble's burn from that account, of what the swap guaranteed, to Solana.
    const signed = events.flatMap((e) => (e.type === 'signing' ? [e.payload] : [])) as {
      type: string;
      signerAddress: string;
      msgs: { typeUrl: string; value: Record<string, unknown> }[];
    }[];
    expect(signed.map((p) => [p.type, p.signerAddress, p.msgs.map((m) => m.typeUrl)])).toEqual([
      ['cosmos-sign-direct', user.address, ['/ibc.applications.transfer.v1.MsgTransfer']],
      ['cosmos-sign-direct', onNoble.address, ['/circle.cctp.v1.MsgDepositForBurn']],
    ]);
    const transfer = signed[0].msgs[0].value;
    expect(transfer).toMatchObject({
      receiver: contract,
      token: { denom: 'uatom', amount: AMOUNT.toString() },
    });
    const swapMsg = (
      JSON.parse(transfer.memo as string) as { wasm: { msg: { osmosis_swap: Record<string, unknown> } } }
    ).wasm.msg.osmosis_swap;
    expect(swapMsg).toMatchObject({ output_denom: usdcOnOsmosis, receiver: onNoble.address });
    const burn = signed[1].msgs[0].value;
    expect(burn).toMatchObject({ from: onNoble.address, destinationDomain: 5, burnToken: 'uusdc' });
    const burnt = BigInt(burn.amount as string);

    // The steps as GET /swap shows them: the Hub's transfer settled by its packet, the burn by Solana's mint.
    expect(result.swap.steps.map((s) => [s.chain, s.status])).toEqual([
      [hub.id, 'confirmed'],
      [noble.id, 'confirmed'],
    ]);
    expect(result.swap.steps[0].packet).toMatchObject({
      state: 'acknowledged',
      destinationChain: osmosis.id,
      acknowledgementError: null,
      refunded: false,
    });
    expect(result.swap.steps[1].txHash).toMatch(/^[0-9A-F]{64}$/);

    // Hub: exactly the 2 ATOM gone, no fee. Solana: the burn less the bridge's fee, at least the
    // quote's minimum. Noble: what arrived beyond the burn (the swap's output above its minimum)
    // stays with the wallet. Osmosis: the contract kept nothing, nothing was recovered.
    expect(await balance(hub, user.address, 'uatom')).toBe(0n);
    expect(paid).toBe(amountAfterBridgeFee(burnt, manifest.bridge.feeBps));
    expect(paid).toBeGreaterThanOrEqual(parseUnits(quoted.route.minAmountOut, 6));
    // What Osmosis's pool paid out on arrival (its token_swapped event in the receive) is what
    // reached Noble: the burn plus what the wallet keeps there.
    const osmosisReader = await StargateClient.connect(osmosis.rpc);
    clients.push(osmosisReader);
    const received = await osmosisReader.getTx(result.swap.steps[0].packet!.receivedTxHash!);
    const swapped = received?.events
      .find((e) => e.type === 'token_swapped')
      ?.attributes.find((a) => a.key === 'tokens_out')?.value;
    expect(swapped?.endsWith(usdcOnOsmosis)).toBe(true);
    const swappedOut = BigInt(swapped!.slice(0, -usdcOnOsmosis.length));
    expect(burnt).toBeLessThanOrEqual(swappedOut);
    expect(burnt + (await balance(noble, onNoble.address, 'uusdc'))).toBe(swappedOut);
    expect(await balance(osmosis, contract, usdcOnOsmosis)).toBe(contractBefore);
    expect(await balance(osmosis, receiver, usdcOnOsmosis)).toBe(0n);
  });
});
