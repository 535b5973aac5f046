import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import { CodedError } from '@swapgw/contracts';
import { Wallet } from 'ethers';
import { ChainRegistry } from '../chain-registry';
import { DevnetManifestView } from '../devnet-manifest';
import { ChainFamilies } from './chain-families';
import { MULTICALL3_ADDRESS } from './evm/multicall-reads';
import { artifactFormFor, decodeSignedArtifact, verifySignedArtifact } from './signed-artifact';
import { buildSolanaPayload } from './solana/solana-transaction';

const manifest: DevnetManifestView = {
  generatedAtMs: 1,
  chains: [
    {
      id: 'devnet-a',
      name: 'Devnet A',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:8545',
      nativeSymbol: 'ETH',
      tokens: {},
      uniswapV2: {
        factory: `0x${'2'.repeat(40)}`,
        router: `0x${'3'.repeat(40)}`,
        initCodeHash: `0x${'ab'.repeat(32)}`,
        pairs: {},
      },
      bridge: { address: `0x${'4'.repeat(40)}`, token: 'USDC' },
    },
  ],
  bridge: {
    provider: 'devnet-bridge',
    feeBps: 5,
    estimatedDurationSeconds: 2,
    relayer: `0x${'5'.repeat(40)}`,
  },
  accounts: [],
  solana: {
    id: 'solana-devnet',
    name: 'Solana Devnet',
    family: 'solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6, name: 'USD Coin' } },
    accounts: [],
    slotMs: 400,
    bridge: {
      chainId: 1399811149,
      token: 'USDC',
      vault: '11111111111111111111111111111112',
      vaultOwner: '11111111111111111111111111111113',
      estimatedDurationSeconds: 3,
    },
  },
};

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (error instanceof CodedError) return error.code;
    throw error;
  }
}

describe('ChainFamilies', () => {
  const families = new ChainFamilies(new ChainRegistry({ manifest }), 1000);
  afterAll(() => families.destroy());

  it('gives each chain with an RPC its family client, built once', () => {
    const evm = families.signing('devnet-a');
    const solana = families.signing('solana-devnet');
    expect(evm.ok && evm.client.family).toBe('evm');
    expect(solana.ok && solana.client.family).toBe('solana');
    const evmClient = families.evm('devnet-a');
    const solanaClient = families.solana('solana-devnet');
    expect(evmClient.ok && evmClient.client.evmChainId).toBe(31337n);
    expect(solanaClient.ok && solanaClient.client.connection.rpcEndpoint).toBe('http://127.0.0.1:8899');
    expect(families.signing('devnet-a')).toEqual(evm);
    expect(families.status('devnet-a')).toBe(evm.ok && evm.client);
  });

  it('says why a chain has no signing client', () => {
    expect(families.signing('dogecoin')).toEqual({ ok: false, reason: 'chain dogecoin is not known' });
    expect(families.signing('base')).toEqual({
      ok: false,
      reason: 'chain base has no RPC URL configured (RPC_URL_BASE)',
    });
    expect(families.signing('bitcoin')).toEqual({
      ok: false,
      reason: 'chain bitcoin has no RPC URL configured (ESPLORA_URL_BITCOIN)',
    });
    expect(families.solana('devnet-a')).toEqual({
      ok: false,
      reason: 'chain devnet-a is a evm chain, not a Solana chain',
    });
  });

  it('has no allowances on Solana', async () => {
    const solana = families.signing('solana-devnet');
    expect(solana.ok && (await solana.client.readAllowance('mint', 'owner', 'spender'))).toBeNull();
  });

  it('checks the hash form first on a chain it cannot reach, then answers STATUS_UPSTREAM_ERROR', async () => {
    const ethereum = families.status('ethereum');
    const bitcoin = families.status('bitcoin');
    expect(families.status('dogecoin')).toBeUndefined();
    expect(await codeOf(() => ethereum?.assertTxHash('0x12'))).toBe('INVALID_TX_HASH');
    expect(await codeOf(() => ethereum?.transactionStatus(`0x${'a'.repeat(64)}`))).toBe(
      'STATUS_UPSTREAM_ERROR',
    );
    expect(await codeOf(() => bitcoin?.assertTxHash(`0x${'a'.repeat(64)}`))).toBe('INVALID_TX_HASH');
    expect(await codeOf(() => bitcoin?.transactionStatus('a'.repeat(64)))).toBe('STATUS_UPSTREAM_ERROR');
    expect(await codeOf(() => families.status('solana')?.assertTxHash('a'.repeat(64)))).toBe(
      'INVALID_TX_HASH',
    );
  });
});

describe('signed artifacts', () => {
  it('decodes a typed-data signature, an EVM transaction and a Solana transaction by their form', async () => {
    const signature = `0x${'AB'.repeat(65)}`;
    expect(decodeSignedArtifact(signature)).toMatchObject({
      family: 'evm-signature',
      signature: signature.toLowerCase(),
      rawTx: signature.toLowerCase(),
    });

    const wallet = Wallet.createRandom();
    const rawEvm = await wallet.signTransaction({
      to: wallet.address,
      chainId: 31337,
      nonce: 0,
      gasLimit: 21000,
      maxFeePerGas: 1,
      maxPriorityFeePerGas: 1,
      type: 2,
    });
    expect(decodeSignedArtifact(rawEvm)).toMatchObject({ family: 'evm', rawTx: rawEvm });

    const user = Keypair.fromSeed(new Uint8Array(32).fill(7));
    const payload = buildSolanaPayload({
      feePayer: user.publicKey,
      recentBlockhash: 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi',
      instructions: [
        SystemProgram.transfer({
          fromPubkey: user.publicKey,
          toPubkey: new PublicKey('11111111111111111111111111111112'),
          lamports: 1,
        }),
      ],
    });
    const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
    tx.sign([user]);
    const rawSolana = Buffer.from(tx.serialize()).toString('base64');
    const artifact = decodeSignedArtifact(rawSolana);
    expect(artifact).toMatchObject({ family: 'solana', rawTx: rawSolana, coSigned: null });
    if (artifact.family !== 'solana') throw new Error('not Solana');
    expect(() => verifySignedArtifact(artifact, payload)).not.toThrow();
  });

  it('names the form a step needs from its family and payload', () => {
    expect(artifactFormFor('solana', null)).toBe('solana');
    expect(artifactFormFor('evm', { type: 'evm-typed-data', typedData: {} as never })).toBe('evm-signature');
    expect(artifactFormFor('evm', null)).toBe('evm');
  });
});

interface JsonRpcRequest {
  id: number | string;
  method: string;
  params: unknown[];
}

/** A JSON-RPC node on a local port: answers what `answer` gives, or never when it gives undefined. */
async function localNode(answer: (request: JsonRpcRequest) => unknown) {
  const asked: JsonRpcRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = JSON.parse(body) as JsonRpcRequest;
      asked.push(request);
      const result = answer(request);
      if (result === undefined) return; // a node that does not answer
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    asked,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Multicall3's runtime code starts so (the address holds it on every chain that has it). */
const MULTICALL3_CODE = '0x6080604052600436106100f35760003560e01c80634d2301cc';

const evmNode = (request: JsonRpcRequest) => {
  if (request.method === 'eth_blockNumber') return '0x2a';
  if (request.method === 'eth_getCode')
    return String(request.params[0]).toLowerCase() === MULTICALL3_ADDRESS.toLowerCase()
      ? MULTICALL3_CODE
      : '0x';
  throw new Error(`unexpected ${request.method}`);
};

/** The spec's manifest with its chains on these nodes: devnet-a, devnet-b (a copy of a) and Solana. */
function manifestOn(aUrl: string, bUrl: string, solanaUrl: string): DevnetManifestView {
  const [a] = manifest.chains;
  return {
    ...manifest,
    chains: [
      { ...a, rpcUrl: aUrl },
      { ...a, id: 'devnet-b', name: 'Devnet B', chainId: 31338, rpcUrl: bUrl },
    ],
    solana: { ...manifest.solana!, rpcUrl: solanaUrl },
  };
}

describe('ChainFamilies.startupWarmup', () => {
  const nodes: Array<{ close(): Promise<void> }> = [];
  let families: ChainFamilies | undefined;

  afterEach(async () => {
    families?.destroy();
    await Promise.all(nodes.splice(0).map((node) => node.close()));
  });

  const started = async (answer: (request: JsonRpcRequest) => unknown) => {
    const node = await localNode(answer);
    nodes.push(node);
    return node;
  };

  it("reads every chain's head and Multicall3 presence (Solana's slot) once, before any request", async () => {
    const a = await started(evmNode);
    const b = await started(evmNode);
    const solana = await started((request) => (request.method === 'getSlot' ? 1234 : undefined));
    families = new ChainFamilies(
      new ChainRegistry({ manifest: manifestOn(a.url, b.url, solana.url) }),
      2000,
      'block-scoped',
    );
    const warmup = families.startupWarmup('chains');
    expect(warmup.warmupName).toBe('chains');
    await expect(warmup.warmUp()).resolves.toEqual(
      expect.arrayContaining(['devnet-a', 'devnet-b', 'solana-devnet']),
    );
    for (const node of [a, b]) {
      expect(node.asked.map((request) => request.method).sort()).toEqual(['eth_blockNumber', 'eth_getCode']);
      expect(node.asked.find((request) => request.method === 'eth_getCode')?.params[0]).toBe(
        MULTICALL3_ADDRESS,
      );
    }
    expect(solana.asked.map((request) => request.method)).toEqual(['getSlot']);
    // Built by the warm-up and kept: the client a request gets is the one warmed.
    const lookup = families.evm('devnet-a');
    expect(lookup.ok).toBe(true);
  });

  it('rejects naming a chain that does not answer within the RPC timeout, having warmed the others', async () => {
    const alive = await started(evmNode);
    const dead = await started(() => undefined);
    const solana = await started((request) => (request.method === 'getSlot' ? 7 : undefined));
    families = new ChainFamilies(
      new ChainRegistry({ manifest: manifestOn(alive.url, dead.url, solana.url) }),
      300,
    );
    await expect(families.warmUp()).rejects.toThrow(/^chains not warmed: devnet-b: /);
    expect(alive.asked.map((request) => request.method).sort()).toEqual(['eth_blockNumber', 'eth_getCode']);
    expect(solana.asked.map((request) => request.method)).toEqual(['getSlot']);
  });
});
