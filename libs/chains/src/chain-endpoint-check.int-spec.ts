import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningMainnetReplica, startMainnetReplica } from '@swapgw/devnet';
import { freePort } from '@swapgw/testing';
import { REAL_NETWORK_CATALOG } from './catalog';
import {
  checkChainEndpoints,
  ChainEndpointMismatchError,
  verifyChainEndpointsAtBoot,
} from './chain-endpoint-check';
import { ChainRegistry } from './chain-registry';

// The boot check against real chains: the mainnet replica's anvil chains (real chain ids, every
// contract of the shipped catalog at its address, the SwapGatewayRouter deployed as on mainnet).
describe('checkChainEndpoints (mainnet replica)', () => {
  let replica: RunningMainnetReplica;
  const rpcOf = (id: string) => replica.manifest.mainnetReplica.evm.find((c) => c.id === id)!.rpcUrl;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'endpoint-check-'));
    replica = await startMainnetReplica({
      manifestPath: path.join(dir, 'manifest.json'),
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
      portSolana: 0,
    });
  }, 120_000);

  afterAll(async () => {
    await replica?.stop();
  });

  it('finds nothing wrong with RPCs of the right chains, where every listed contract has code', async () => {
    const registry = new ChainRegistry({
      rpcUrls: { ethereum: rpcOf('ethereum'), base: rpcOf('base'), arbitrum: rpcOf('arbitrum') },
      catalog: REAL_NETWORK_CATALOG,
    });
    expect(await checkChainEndpoints(registry, { timeoutMs: 5000 })).toEqual([]);
  });

  it('names a listed contract without code, and refuses to boot on an RPC of another chain', async () => {
    const base = REAL_NETWORK_CATALOG.find((e) => e.chain === 'base')!;
    const withTypo = {
      ...base,
      tokens: [
        ...base.tokens,
        { symbol: 'DAI', name: 'Dai', address: '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb', decimals: 18 },
      ],
    };
    const registry = new ChainRegistry({
      // RPC_URL_BASE pointing at the Arbitrum node: the operator's copy-paste error.
      rpcUrls: { ethereum: rpcOf('ethereum'), base: rpcOf('arbitrum') },
      catalog: [...REAL_NETWORK_CATALOG.filter((e) => e.chain !== 'base'), withTypo],
    });
    expect(await checkChainEndpoints(registry, { timeoutMs: 5000 })).toEqual([
      {
        chain: 'base',
        kind: 'wrong-chain',
        message: 'base: the RPC (RPC_URL_BASE) answers chain id 42161, not 8453',
      },
    ]);
    await expect(verifyChainEndpointsAtBoot(registry, 5000, () => undefined)).rejects.toThrow(
      ChainEndpointMismatchError,
    );

    const right = new ChainRegistry({ rpcUrls: { base: rpcOf('base') }, catalog: [withTypo] });
    const warnings: string[] = [];
    await verifyChainEndpointsAtBoot(right, 5000, (message) => warnings.push(message));
    expect(warnings).toEqual(['base: tokens.DAI 0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb has no code']);
  });

  it('warns about an RPC that does not answer without ever printing its URL (it may carry a key)', async () => {
    const secretUrl = `http://127.0.0.1:${await freePort()}/v2/secret-provider-key`;
    const registry = new ChainRegistry({ rpcUrls: { arbitrum: secretUrl }, catalog: REAL_NETWORK_CATALOG });
    const problems = await checkChainEndpoints(registry, { timeoutMs: 2000 });
    expect(problems).toEqual([
      expect.objectContaining({
        chain: 'arbitrum',
        kind: 'unreachable',
        message: expect.stringContaining('RPC_URL_ARBITRUM'),
      }),
    ]);
    expect(JSON.stringify(problems)).not.toContain('secret-provider-key');
  });
});
