import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainRegistry } from '../chain-registry';
import { DevnetManifestView } from '../devnet-manifest';
import { ChainFamilies } from './chain-families';
import { MULTICALL3_ADDRESS } from './evm/multicall-reads';

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

function manifestOf(chains: Array<{ id: string; chainId: number; rpcUrl: string }>, solanaRpcUrl: string) {
  return {
    generatedAtMs: 1,
    chains: chains.map((chain) => ({
      ...chain,
      name: chain.id,
      nativeSymbol: 'ETH',
      tokens: {},
      uniswapV2: {
        factory: `0x${'2'.repeat(40)}`,
        router: `0x${'3'.repeat(40)}`,
        initCodeHash: `0x${'ab'.repeat(32)}`,
        pairs: {},
      },
      bridge: { address: `0x${'4'.repeat(40)}`, token: 'USDC' },
    })),
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
      rpcUrl: solanaRpcUrl,
      nativeSymbol: 'SOL',
      tokens: {},
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
  } as DevnetManifestView;
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
      new ChainRegistry({
        manifest: manifestOf(
          [
            { id: 'devnet-a', chainId: 31337, rpcUrl: a.url },
            { id: 'devnet-b', chainId: 31338, rpcUrl: b.url },
          ],
          solana.url,
        ),
      }),
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
      new ChainRegistry({
        manifest: manifestOf(
          [
            { id: 'devnet-a', chainId: 31337, rpcUrl: alive.url },
            { id: 'devnet-b', chainId: 31338, rpcUrl: dead.url },
          ],
          solana.url,
        ),
      }),
      300,
    );
    await expect(families.warmUp()).rejects.toThrow(/^chains not warmed: devnet-b: /);
    expect(alive.asked.map((request) => request.method).sort()).toEqual(['eth_blockNumber', 'eth_getCode']);
    expect(solana.asked.map((request) => request.method)).toEqual(['getSlot']);
  });
});
