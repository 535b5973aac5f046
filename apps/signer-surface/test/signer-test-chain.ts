// Test support for signer-surface integration specs: a fresh anvil chain on a free port with a
// small fixture contract (token-like allowance/balance and an EIP-2612-shaped permit, a claim that
// can only succeed once, a call that always reverts), and a ChainRegistry that knows it.
import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { resolveAnvilBinary } from '@swapgw/devnet';
import { freePort, waitFor } from '@swapgw/testing';
import { ContractFactory, HDNodeWallet, JsonRpcProvider, Network } from 'ethers';
import { ChildProcess, spawn } from 'node:child_process';

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';

const FIXTURE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract SignerFixture {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    bool public claimed;
    function mint(address to, uint256 amount) external { balanceOf[to] += amount; }
    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        return true;
    }
    function claim() external {
        require(!claimed, "fixture: already claimed");
        claimed = true;
    }
    function alwaysFails() external pure { revert("fixture: always fails"); }
    // EIP-2612's shape for sponsored permit steps: signer-surface checks the signature before a
    // relayer sends it, so the fixture only records the allowance.
    mapping(address => uint256) public nonces;
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8, bytes32, bytes32) external {
        require(block.timestamp <= deadline, "fixture: permit expired");
        allowance[owner][spender] = value;
        nonces[owner] += 1;
    }
}`;

let compiled: { abi: unknown[]; bytecode: string } | undefined;
function compileFixture(): { abi: unknown[]; bytecode: string } {
  if (compiled) return compiled;
  const solc = require('solc') as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'SignerFixture.sol': { content: FIXTURE_SOURCE } },
        settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['SignerFixture.sol'].SignerFixture;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
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
