import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { HDNodeWallet, JsonRpcProvider, Wallet } from 'ethers';
import { api, ApiClient, createApiKey, testEnv } from '@swapgw/testing';

// GET /status/transaction/{txHash} through the running stack (gateway → signer-surface → devnet).
const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as {
  chains: Array<{ id: string; chainId: number; rpcUrl: string; tokens: Record<string, { address: string }> }>;
};
const devnetA = manifest.chains.find((c) => c.id === 'devnet-a')!;

describe('GET /status/transaction/{txHash}', () => {
  let client: ApiClient;
  let provider: JsonRpcProvider;
  let wallet: HDNodeWallet;

  beforeAll(async () => {
    const gatewayUrl = process.env.GATEWAY_URL;
    if (!gatewayUrl)
      throw new Error('GATEWAY_URL is not set: run through the e2e project (global setup starts the stack)');
    client = api(gatewayUrl, await createApiKey(`status-e2e-${randomUUID().slice(0, 8)}`));
    // No response cache: back-to-back sends must each read the account's current nonce.
    provider = new JsonRpcProvider(devnetA.rpcUrl, devnetA.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
    });
    // A wallet of its own (funded by the devnet's anvil_setBalance): no nonce shared with other suites.
    wallet = Wallet.createRandom().connect(provider);
    await provider.send('anvil_setBalance', [wallet.address, '0x8AC7230489E80000']);
  });

  afterAll(() => provider?.destroy());

  it('reports a mined transaction as confirmed at its block time', async () => {
    const sent = await wallet.sendTransaction({ to: Wallet.createRandom().address, value: 1000n });
    const receipt = (await sent.wait())!;
    const block = (await provider.getBlock(receipt.blockNumber))!;
    const res = await client.get(`/status/transaction/${sent.hash}?chainRef=devnet-a`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      txHash: sent.hash,
      chain: 'devnet-a',
      status: 'confirmed',
      confirmedAtMs: block.timestamp * 1000,
    });
  });

  it('reports a reverted transaction as failed with a reason', async () => {
    // Transfer of USDC the fresh wallet does not have, with a fixed gas limit so it is mined anyway.
    const transfer =
      '0xa9059cbb' +
      wallet.address.slice(2).toLowerCase().padStart(64, '0') +
      (10n ** 12n).toString(16).padStart(64, '0');
    const sent = await wallet.sendTransaction({
      to: devnetA.tokens.USDC.address,
      data: transfer,
      gasLimit: 100_000,
    });
    await provider.waitForTransaction(sent.hash);
    const res = await client.get(`/status/transaction/${sent.hash}?chainRef=devnet-a`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      txHash: sent.hash,
      chain: 'devnet-a',
      status: 'failed',
      error: expect.any(String),
    });
  });

  it('answers 404 for a hash the chain does not know, 400 for a bad hash, chainRef or none', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    const notFound = await client.get(`/status/transaction/${unknown}?chainRef=devnet-a`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('TRANSACTION_NOT_FOUND');

    const badHash = await client.get('/status/transaction/0x1234?chainRef=devnet-a');
    expect(badHash.status).toBe(400);
    expect(badHash.body.error.code).toBe('INVALID_TX_HASH');

    const unknownChain = await client.get(`/status/transaction/${unknown}?chainRef=no-such-chain`);
    expect(unknownChain.status).toBe(400);
    expect(unknownChain.body.error.code).toBe('UNKNOWN_CHAIN');

    const missing = await client.get(`/status/transaction/${unknown}`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 502 when the chain has no reachable RPC (ethereum without RPC_URL_ETHEREUM)', async () => {
    const res = await client.get(`/status/transaction/0x${'ab'.repeat(32)}?chainRef=ethereum`);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('STATUS_UPSTREAM_ERROR');
  });

  it('answers 401 without an API key', async () => {
    const res = await api(process.env.GATEWAY_URL as string).get(
      `/status/transaction/0x${'ab'.repeat(32)}?chainRef=devnet-a`,
    );
    expect(res.status).toBe(401);
  });
});
