// Test support for signer-surface integration specs: a fresh anvil chain on a free port with a
// small fixture contract (token-like allowance/balance and an EIP-2612-shaped permit, a claim that
// can only succeed once, a call that always reverts), and a ChainRegistry that knows it.
import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { resolveAnvilBinary } from '@swapgw/devnet';
import { CompiledContract, compileSolidityFile } from '@swapgw/evm-contracts';
import { freePort, waitFor } from '@swapgw/testing';
import { ContractFactory, HDNodeWallet, JsonRpcProvider, Network } from 'ethers';
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

/** The fixture contract's source: SignerFixture.sol next to this file. */
const FIXTURE_SOURCE_FILE = path.join(__dirname, 'SignerFixture.sol');

let compiled: CompiledContract | undefined;
function compileFixture(): CompiledContract {
  compiled ??= compileSolidityFile(FIXTURE_SOURCE_FILE, 'SignerFixture');
  return compiled;
}

export interface TestChain {
  id: string;
  chainId: number;
  rpcUrl: string;
  provider: JsonRpcProvider;
  wallet(index: number): HDNodeWallet;
  fixtureAddress: string;
  fixtureAbi: unknown[];
  stop(): Promise<void>;
}

/** Starts anvil (automine) on a free port and deploys the fixture from account 0. */
export async function startTestChain(id: string, chainId = 31337): Promise<TestChain> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    resolveAnvilBinary(),
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      String(chainId),
      '--mnemonic',
      TEST_MNEMONIC,
      '--accounts',
      '5',
      '--silent',
    ],
    { stdio: 'ignore' },
  );
  const rpcUrl = `http://127.0.0.1:${port}`;
  const network = Network.from(chainId);
  const provider = new JsonRpcProvider(rpcUrl, network, { staticNetwork: network, pollingInterval: 100 });
  const stop = async (): Promise<void> => {
    provider.destroy();
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitFor(() => provider.getBlockNumber().then(() => true), {
      timeoutMs: 20_000,
      description: `anvil on ${rpcUrl}`,
    });
    const wallet = (index: number): HDNodeWallet =>
      HDNodeWallet.fromPhrase(TEST_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`).connect(provider);
    const { abi, bytecode } = compileFixture();
    const fixture = await new ContractFactory(abi as never, bytecode, wallet(0)).deploy();
    await fixture.waitForDeployment();
    return {
      id,
      chainId,
      rpcUrl,
      provider,
      wallet,
      fixtureAddress: await fixture.getAddress(),
      fixtureAbi: abi,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A registry with the given EVM chains, as the devnet manifest would describe them. */
export function registryOf(chains: Array<{ id: string; chainId: number; rpcUrl: string }>): ChainRegistry {
  const manifest: DevnetManifestView = {
    generatedAtMs: Date.now(),
    chains: chains.map((c) => ({
      id: c.id,
      name: `Test ${c.id}`,
      chainId: c.chainId,
      rpcUrl: c.rpcUrl,
      nativeSymbol: 'ETH',
      tokens: {},
      uniswapV2: { factory: '', router: '', initCodeHash: '', pairs: {} },
      bridge: { address: '', token: 'USDC' },
    })),
    bridge: { provider: 'devnet-bridge', feeBps: 0, estimatedDurationSeconds: 1, relayer: '' },
    accounts: [],
  };
  return new ChainRegistry({ manifest });
}
