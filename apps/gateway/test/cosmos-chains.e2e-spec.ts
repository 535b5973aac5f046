import { randomUUID } from 'node:crypto';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { makeCosmoshubPath } from '@cosmjs/amino';
import { parseUnits } from 'ethers';
import { api, ApiClient, createApiKey, waitFor } from '@swapgw/testing';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { CosmosDevnetChainManifest } from '@swapgw/devnet';
import { devnetManifest } from './support/devnet-evm';
import { connectE2eApi } from './support/e2e-api';
import { OpenApiValidator } from './support/openapi-validator';

// The devnet's Cosmos chains through the running stack (gateway → quote-service and signer-surface
// → the in-process Cosmos SDK chains): listed by GET /chains and /tokens with their denoms, and their
// transactions looked up by GET /status/transaction, as a Keplr user's client reads them.
const manifest = devnetManifest();
const cosmosChain = (id: string): CosmosDevnetChainManifest => {
  const chain = manifest.cosmos.find((c) => c.id === id);
  if (!chain) throw new Error(`the devnet has no Cosmos chain ${id}`);
  return chain;
};

interface TokenBody {
  chain: string;
  symbol: string;
  decimals: number;
  denom?: string;
  address?: string;
  mint?: string;
}

describe('Cosmos chains in the catalog and the status look-up', () => {
  let client: ApiClient;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    ({ client, openApi } = await connectE2eApi('cosmos-chains-e2e'));
  });

  const listedOn = async (chainRef: string): Promise<TokenBody[]> => {
    const res = await client.get('/tokens', { query: { chainRef } });
    expect(res.status).toBe(200);
    openApi.assertResponse('GET', '/tokens', res.status, res.body);
    return res.body.data.tokens;
  };

  it('GET /chains lists the Hub, Osmosis and Noble as chains of the cosmos family, devnet and mainnet', async () => {
    const res = await client.get('/chains');
    expect(res.status).toBe(200);
    openApi.assertResponse('GET', '/chains', res.status, res.body);
    const cosmos = res.body.data.chains.filter((c: { family: string }) => c.family === 'cosmos');
    expect(cosmos).toEqual([
      ...['cosmoshub-devnet', 'osmosis-devnet', 'noble-devnet'].map((id) => ({
        id,
        name: cosmosChain(id).name,
        family: 'cosmos',
        network: 'testnet',
        chainId: null,
        caip2: `cosmos:${cosmosChain(id).chainId}`,
        nativeSymbol: cosmosChain(id).nativeSymbol,
      })),
      // The shipped catalog's mainnets, from the chain-registry package, listed though not configured here.
      ...[
        ['cosmoshub-4', 'Cosmos Hub', 'ATOM'],
        ['osmosis-1', 'Osmosis', 'OSMO'],
        ['noble-1', 'Noble', 'USDC'],
      ].map(([id, name, nativeSymbol]) => ({
        id,
        name,
        family: 'cosmos',
        network: 'mainnet',
        chainId: null,
        caip2: `cosmos:${id}`,
        nativeSymbol,
      })),
    ]);
  });

  it("GET /tokens lists each Cosmos mainnet's coin and the IBC vouchers wallets hold (USDC from Noble)", async () => {
    const osmosis = await listedOn('osmosis-1');
    expect(osmosis.map((t) => [t.symbol, t.denom, t.decimals])).toEqual(
      expect.arrayContaining([
        ['OSMO', 'uosmo', 6],
        ['ATOM', 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2', 6],
        ['USDC', 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4', 6],
      ]),
    );
    const noble = await listedOn('noble-1');
    expect(noble.find((t) => t.symbol === 'USDC')?.denom).toBe('uusdc');
  });

  it('GET /tokens names every Cosmos token by the denom its chain holds it under', async () => {
    const listed = listedOn;
    const hub = await listed('cosmoshub-devnet');
    expect(hub).toEqual([
      { chain: 'cosmoshub-devnet', symbol: 'ATOM', name: 'ATOM', decimals: 6, denom: 'uatom' },
    ]);
    const noble = await listed('noble-devnet');
    expect(noble).toEqual([
      { chain: 'noble-devnet', symbol: 'USDC', name: 'USDC', decimals: 6, denom: 'uusdc' },
    ]);

    const osmosisTokens = await listed('osmosis-devnet');
    const bySymbol = new Map(osmosisTokens.map((t) => [t.symbol, t]));
    expect([...bySymbol.keys()].sort()).toEqual(['ATOM', 'OSMO', 'USDC']);
    expect(bySymbol.get('OSMO')).toMatchObject({ denom: 'uosmo', decimals: 6 });
    for (const token of osmosisTokens) {
      expect(token.address).toBeUndefined();
      expect(token.mint).toBeUndefined();
    }
    // What Osmosis itself holds: its pools' assets (poolmanager), and the denom traces behind the
    // vouchers (ibc-transfer), as an explorer reads them from the chain's REST API.
    const osmosis = cosmosChain('osmosis-devnet');
    const pools = (await (await fetch(`${osmosis.rest}/osmosis/poolmanager/v1beta1/all-pools`)).json()) as {
      pools: { pool_assets: { token: { denom: string } }[] }[];
    };
    const pooled = new Set(pools.pools.flatMap((p) => p.pool_assets.map((a) => a.token.denom)));
    expect([...pooled].sort()).toEqual(osmosisTokens.map((t) => t.denom as string).sort());
    for (const [symbol, origin] of [
      ['ATOM', cosmosChain('cosmoshub-devnet')],
      ['USDC', cosmosChain('noble-devnet')],
    ] as const) {
      const denom = bySymbol.get(symbol)?.denom as string;
      expect(denom).toMatch(/^ibc\/[0-9A-F]{64}$/);
      const trace = (await (
        await fetch(`${osmosis.rest}/ibc/apps/transfer/v1/denom_traces/${denom.slice('ibc/'.length)}`)
      ).json()) as { denom_trace: { path: string; base_denom: string } };
      expect(trace.denom_trace).toEqual({
        path: `transfer/${osmosis.ibcChannels[origin.id]}`,
        base_denom: origin.nativeDenom,
      });
    }
  });

  it('GET /status/transaction answers for a Cosmos tx a cosmjs wallet sent, in either letter case', async () => {
    const hub = cosmosChain('cosmoshub-devnet');
    const index = hub.accounts[hub.accounts.length - 1].index;
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(manifest.mnemonic, {
      prefix: hub.bech32Prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const [{ address }] = await wallet.getAccounts();
    const signer = await SigningStargateClient.connectWithSigner(hub.rpc, wallet, {
      gasPrice: GasPrice.fromString(hub.minGasPrice),
    });
    const reader = await StargateClient.connect(hub.rpc);
    try {
      const recipient = (
        await (await DirectSecp256k1HdWallet.generate(12, { prefix: hub.bech32Prefix })).getAccounts()
      )[0].address;
      const sent = await signer.sendTokens(
        address,
        recipient,
        [{ denom: hub.nativeDenom, amount: '1234' }],
        'auto',
      );
      expect(sent.code).toBe(0);
      expect((await reader.getBalance(recipient, hub.nativeDenom)).amount).toBe('1234');
      const block = await reader.getBlock(sent.height);

      const res = await client.get(`/status/transaction/${sent.transactionHash}?chainRef=cosmoshub-devnet`);
      expect(res.status).toBe(200);
      openApi.assertResponse('GET', '/status/transaction/{txHash}', res.status, res.body);
      expect(res.body.data).toEqual({
        txHash: sent.transactionHash,
        chain: 'cosmoshub-devnet',
        status: 'confirmed',
        confirmedAtMs: Date.parse(block.header.time),
      });
      const lower = await client.get(
        `/status/transaction/${sent.transactionHash.toLowerCase()}?chainRef=cosmoshub-devnet`,
      );
      expect(lower.body.data).toEqual(res.body.data);
    } finally {
      signer.disconnect();
      reader.disconnect();
    }
  });

  it("GET /status/transaction answers failed, with the chain's codespace, code and log, for a Cosmos tx its block refused; 404 for a hash no node knows", async () => {
    const hub = cosmosChain('cosmoshub-devnet');
    const index = hub.accounts[hub.accounts.length - 1].index;
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(manifest.mnemonic, {
      prefix: hub.bech32Prefix,
      hdPaths: [makeCosmoshubPath(index)],
    });
    const [{ address }] = await wallet.getAccounts();
    const signer = await SigningStargateClient.connectWithSigner(hub.rpc, wallet);
    const reader = await StargateClient.connect(hub.rpc);
    try {
      const held = BigInt((await reader.getBalance(address, hub.nativeDenom)).amount);
      // More than the wallet holds: CheckTx (the ante handler, the fee) takes it, the block's bank refuses it.
      const signed = await signer.sign(
        address,
        [
          {
            typeUrl: '/cosmos.bank.v1beta1.MsgSend',
            value: {
              fromAddress: address,
              toAddress: address,
              amount: [{ denom: hub.nativeDenom, amount: String(held * 2n) }],
            },
          },
        ],
        { amount: [{ denom: hub.nativeDenom, amount: '5000' }], gas: '200000' },
        '',
      );
      const hash = await signer.broadcastTxSync(TxRaw.encode(signed).finish());
      const committed = await waitFor(async () => (await reader.getTx(hash)) ?? null, {
        timeoutMs: 30_000,
        description: 'the refused send in a block',
      });
      expect(committed.code).toBe(5);

      const res = await client.get(`/status/transaction/${hash}?chainRef=cosmoshub-devnet`);
      expect(res.status).toBe(200);
      openApi.assertResponse('GET', '/status/transaction/{txHash}', res.status, res.body);
      expect(res.body.data).toEqual({
        txHash: hash,
        chain: 'cosmoshub-devnet',
        status: 'failed',
        error: `sdk/5: ${committed.rawLog}`.trim(),
      });
      expect(res.body.data.error).toMatch(/^sdk\/5: .*insufficient funds/);

      const unknown = await client.get(`/status/transaction/${'AB'.repeat(32)}?chainRef=cosmoshub-devnet`);
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    } finally {
      signer.disconnect();
      reader.disconnect();
    }
  });

  it('POST /quote prices ATOM on the Hub → OSMO at what Osmosis estimates, one cosmos-sign-direct signature', async () => {
    const res = await client.post('/quote', {
      fromChain: 'cosmoshub-devnet',
      toChain: 'osmosis-devnet',
      tokenIn: 'ATOM',
      tokenOut: 'OSMO',
      amount: '1.5',
    });
    expect(res.status).toBe(200);
    openApi.assertResponse('POST', '/quote', res.status, res.body);
    const route = res.body.data.routes.find((r: { providers: string[] }) => r.providers.includes('osmosis'));
    expect(route).toMatchObject({
      providers: ['ibc', 'osmosis'],
      signatures: [
        { chain: 'cosmoshub-devnet', kind: 'bridge', payloadType: 'cosmos-sign-direct', mayBeSkipped: false },
      ],
    });
    // What Osmosis itself says 1.5 ATOM buys in pool 1, in OSMO (6 decimals), as a front end asks it.
    const osmosis = cosmosChain('osmosis-devnet');
    const atom = (await listedOn('osmosis-devnet')).find((t) => t.symbol === 'ATOM')?.denom as string;
    const estimate = (await (
      await fetch(
        `${osmosis.rest}/osmosis/poolmanager/v1beta1/1/estimate/swap_exact_amount_in_with_primitive_types?token_in=1500000${atom}&routes_pool_id=1&routes_token_out_denom=uosmo`,
      )
    ).json()) as { token_out_amount: string };
    expect(parseUnits(route.expectedAmountOut, 6)).toBe(BigInt(estimate.token_out_amount));
  });

  it('answers 404 for a Cosmos hash the chain does not know and 400 for an EVM-style one', async () => {
    const caller = api(
      process.env.GATEWAY_URL as string,
      await createApiKey(`cosmos-status-${randomUUID().slice(0, 8)}`),
    );
    const unknown = await caller.get(`/status/transaction/${'AB'.repeat(32)}?chainRef=osmosis-devnet`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('TRANSACTION_NOT_FOUND');
    const evmStyle = await caller.get(`/status/transaction/0x${'ab'.repeat(32)}?chainRef=osmosis-devnet`);
    expect(evmStyle.status).toBe(400);
    expect(evmStyle.body.error.code).toBe('INVALID_TX_HASH');
  });
});
