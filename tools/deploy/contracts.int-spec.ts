import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonRpcProvider } from 'ethers';
import { DEVNET_MNEMONIC, devnetWallet, startAnvil } from '@swapgw/devnet';
import {
  CANONICAL_PERMIT2,
  DETERMINISTIC_DEPLOYMENT_PROXY,
  loadEvmArtifacts,
  swapGatewayRouterAddress,
  swapGatewayRouterRuntimeCode,
} from '@swapgw/evm-contracts';
import { freePort } from '@swapgw/testing';
import { runContractsCli } from './contracts';

// `npm run contracts -- deploy` against an anvil with Base's chain id: what an operator meets on a
// fresh chain (deploys), on a chain that has it (a no-op check), and on chains it must refuse.
describe('npm run contracts -- deploy (anvil, chain id 8453)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contracts-cli-'));
  const keyFile = path.join(dir, 'deployer.key');
  const artifacts = loadEvmArtifacts();
  const router = swapGatewayRouterAddress(artifacts);
  let node: Awaited<ReturnType<typeof startAnvil>>;
  let provider: JsonRpcProvider;
  let proxyCode: string;
  const deploy = (...extra: string[]) =>
    runContractsCli(['deploy', '--chain', 'base', '--rpc-url', node.rpcUrl, ...extra], {});

  beforeAll(async () => {
    node = await startAnvil({
      port: await freePort(),
      chainId: 8453,
      mnemonic: DEVNET_MNEMONIC,
      accounts: 2,
    });
    provider = new JsonRpcProvider(node.rpcUrl, 8453, { staticNetwork: true });
    fs.writeFileSync(keyFile, devnetWallet(DEVNET_MNEMONIC, 1).privateKey, { mode: 0o600 });
    proxyCode = await provider.getCode(DETERMINISTIC_DEPLOYMENT_PROXY);
  }, 60_000);

  afterAll(async () => {
    provider?.destroy();
    await node?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a chain without Permit2, then one without the deployment proxy, sending nothing', async () => {
    expect(proxyCode).not.toBe('0x');
    await expect(deploy('--key-file', keyFile)).rejects.toThrow(
      /no Permit2 at 0x000000000022D473030F116dDEE9F6B43aC78BA3/,
    );
    // Permit2's code is all the deployment needs there (the router only keeps its address).
    await provider.send('anvil_setCode', [CANONICAL_PERMIT2, artifacts.Permit2.deployedBytecode]);
    await provider.send('anvil_setCode', [DETERMINISTIC_DEPLOYMENT_PROXY, '0x']);
    await expect(deploy('--key-file', keyFile)).rejects.toThrow(
      /no deterministic deployment proxy at 0x4e59b44847b379578588920cA78FbF26c0B4956C/,
    );
    await provider.send('anvil_setCode', [DETERMINISTIC_DEPLOYMENT_PROXY, proxyCode]);
    expect(await provider.getCode(router)).toBe('0x');
  });

  it('refuses to deploy without a key, and an RPC of another chain', async () => {
    await expect(deploy()).rejects.toThrow(/pass --key-file/);
    await expect(
      runContractsCli(['deploy', '--chain', 'arbitrum', '--rpc-url', node.rpcUrl, '--key-file', keyFile], {}),
    ).rejects.toThrow(/answers chain id 8453, not 42161/);
  });

  it('deploys through the proxy, verifies the code and prints the catalog entry; run again it sends nothing', async () => {
    const first = await deploy('--key-file', keyFile);
    expect(first[0]).toMatch(new RegExp(`deployed at ${router} \\(tx 0x[0-9a-f]{64}\\)`));
    expect(first).toContain(`  gatewayRouter: '${router}',`);
    expect((await provider.getCode(router)).toLowerCase()).toBe(
      swapGatewayRouterRuntimeCode(artifacts).toLowerCase(),
    );
    const nonce = await provider.getTransactionCount(devnetWallet(DEVNET_MNEMONIC, 1).address);
    const again = await deploy();
    expect(again[0]).toBe(`base (chain id 8453): SwapGatewayRouter already at ${router}; nothing sent`);
    expect(await provider.getTransactionCount(devnetWallet(DEVNET_MNEMONIC, 1).address)).toBe(nonce);
  });

  it('refuses other code at the router address', async () => {
    await provider.send('anvil_setCode', [router, artifacts.Permit2.deployedBytecode]);
    await expect(deploy()).rejects.toThrow(/is not the compiled SwapGatewayRouter/);
  });
});
