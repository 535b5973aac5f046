/**
 * Our contracts on real chains: where SwapGatewayRouter goes, and putting it there.
 *
 *   npm run contracts -- address
 *   npm run contracts -- deploy --chain base [--rpc-url URL] [--key-file FILE]
 *
 * `address` prints the router's CREATE2 address (the deterministic deployment proxy, the fixed salt,
 * the compiled init code with the canonical Permit2): the same on every EVM chain. `deploy` deploys
 * it through the proxy on one catalog chain (RPC from --rpc-url or the chain's RPC_URL_* variable;
 * the deployer key from --key-file, a file holding one hex private key, never an argument), or finds
 * it already there (nothing sent, no key needed), then checks the runtime code on chain equals the
 * compiled one and prints the catalog entry. It refuses a chain whose RPC answers another chain id,
 * a chain without Permit2 or without the proxy, and an address holding other code.
 */
// @swapgw/chains (the catalog) loads decorated message classes, which need reflect-metadata first.
import 'reflect-metadata';
import fs from 'node:fs';
import { JsonRpcProvider, Wallet } from 'ethers';
import { REAL_NETWORK_CATALOG, REAL_NETWORKS } from '@swapgw/chains';
import {
  CANONICAL_PERMIT2,
  deploySwapGatewayRouter,
  DETERMINISTIC_DEPLOYMENT_PROXY,
  EvmArtifacts,
  EvmContractsError,
  loadEvmArtifacts,
  SWAP_GATEWAY_ROUTER_SALT,
  swapGatewayRouterAddress,
  verifySwapGatewayRouter,
} from '@swapgw/evm-contracts';

export class ContractsCliError extends Error {}

export type ContractsCommand =
  | { command: 'address' }
  | { command: 'deploy'; chain: string; chainId: number; rpcUrl: string; keyFile?: string };

const USAGE =
  'usage: npm run contracts -- address | deploy --chain <ethereum|base|arbitrum> [--rpc-url URL] [--key-file FILE]';

export function parseContractsArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ContractsCommand {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) throw new ContractsCliError(`${flag} needs a value`);
    return next;
  };
  const [command] = argv;
  if (command === 'address') return { command };
  if (command !== 'deploy') throw new ContractsCliError(USAGE);
  const chain = value('--chain');
  if (!chain) throw new ContractsCliError(`--chain is required\n${USAGE}`);
  const network = REAL_NETWORKS.find((n) => n.id === chain && n.family === 'evm');
  const entry = REAL_NETWORK_CATALOG.find((e) => e.chain === chain);
  if (!network?.evmChainId || !entry?.gatewayRouter)
    throw new ContractsCliError(
      `--chain ${chain}: not a catalog chain with a SwapGatewayRouter (${REAL_NETWORK_CATALOG.filter(
        (e) => e.gatewayRouter,
      )
        .map((e) => e.chain)
        .join(', ')})`,
    );
  const rpcUrl = value('--rpc-url') ?? (network.rpcEnv ? env[network.rpcEnv] : undefined);
  if (!rpcUrl) throw new ContractsCliError(`no RPC for ${chain}: pass --rpc-url or set ${network.rpcEnv}`);
  return { command, chain, chainId: network.evmChainId, rpcUrl, keyFile: value('--key-file') };
}

/** What `address` prints: how the address is made, and the address. */
export function describeRouterAddress(artifacts: EvmArtifacts): string[] {
  return [
    `SwapGatewayRouter ${swapGatewayRouterAddress(artifacts, CANONICAL_PERMIT2)}`,
    `  CREATE2 through ${DETERMINISTIC_DEPLOYMENT_PROXY}, salt ${SWAP_GATEWAY_ROUTER_SALT}`,
    `  constructor(permit2 ${CANONICAL_PERMIT2}), solc ${artifacts.solcVersion}`,
  ];
}

/**
 * Deploys (or finds) the router on the command's chain and checks its code; returns the lines to
 * print. The RPC URL is never printed (it may carry a provider key).
 */
export async function deployRouter(
  command: Extract<ContractsCommand, { command: 'deploy' }>,
  artifacts: EvmArtifacts,
): Promise<string[]> {
  const provider = new JsonRpcProvider(command.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    let chainId: bigint;
    try {
      chainId = (await provider.getNetwork()).chainId;
    } catch (error) {
      // Its code only: an ethers message may quote the URL, which may carry a provider key.
      const code = (error as { code?: string }).code ?? 'no answer';
      throw new ContractsCliError(`the RPC of ${command.chain} does not answer (${code})`);
    }
    if (chainId !== BigInt(command.chainId))
      throw new ContractsCliError(
        `the RPC given for ${command.chain} answers chain id ${chainId}, not ${command.chainId}: nothing sent`,
      );
    const address = swapGatewayRouterAddress(artifacts, CANONICAL_PERMIT2);
    const deployed = (await provider.getCode(address)) !== '0x';
    let result: { txHash?: string; alreadyDeployed: boolean };
    if (deployed) {
      await verifySwapGatewayRouter(provider, artifacts, CANONICAL_PERMIT2);
      result = { alreadyDeployed: true };
    } else {
      if (!command.keyFile)
        throw new ContractsCliError(
          `SwapGatewayRouter is not on ${command.chain} yet: pass --key-file with the deployer's key to deploy it`,
        );
      const signer = new Wallet(readKey(command.keyFile), provider);
      result = await deploySwapGatewayRouter(provider, signer, artifacts, CANONICAL_PERMIT2);
    }
    return [
      result.alreadyDeployed
        ? `${command.chain} (chain id ${chainId}): SwapGatewayRouter already at ${address}; nothing sent`
        : `${command.chain} (chain id ${chainId}): SwapGatewayRouter deployed at ${address} (tx ${result.txHash})`,
      `  runtime code verified: the compiled router with permit2 ${CANONICAL_PERMIT2}`,
      `catalog (libs/chains/src/catalog/real-networks.ts, chain '${command.chain}'):`,
      `  gatewayRouter: '${address}',`,
    ];
  } finally {
    provider.destroy();
  }
}

function readKey(file: string): string {
  let key: string;
  try {
    key = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ContractsCliError(`--key-file ${file}: ${(error as Error).message}`);
  }
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key))
    throw new ContractsCliError(`--key-file ${file} does not hold one hex private key`);
  return key.startsWith('0x') ? key : `0x${key}`;
}

export async function runContractsCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const command = parseContractsArgs(argv, env);
  const artifacts = loadEvmArtifacts();
  return command.command === 'address' ? describeRouterAddress(artifacts) : deployRouter(command, artifacts);
}

if (require.main === module) {
  void (async () => {
    try {
      for (const line of await runContractsCli(process.argv.slice(2))) console.log(line);
    } catch (error) {
      console.error(`contracts: ${(error as Error).message}`);
      process.exit(error instanceof ContractsCliError || error instanceof EvmContractsError ? 2 : 1);
    }
  })();
}
