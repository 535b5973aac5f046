import type { ChainDeployments } from './catalog';
import type { ChainDescriptor } from './chain-descriptor';
import type { ChainRegistry } from './chain-registry';
import { boundedEvmProvider } from './families/bounded-rpc';
import type { JsonRpcProvider } from 'ethers';

/** What an endpoint check found wrong with one chain. */
export interface ChainEndpointProblem {
  chain: string;
  /**
   * `wrong-chain`: the RPC answers for another chain id (signing there would be signing for the
   * wrong network: fatal); `unreachable`: the RPC did not answer in time (the chain is down or the
   * URL wrong; its routes fail until it answers); `missing-code`: a contract of the chain's
   * deployments has no code there (not deployed yet, or the catalog is wrong).
   */
  kind: 'wrong-chain' | 'unreachable' | 'missing-code';
  message: string;
}

/** An EVM chain the check can ask: it has an RPC URL and the chain id the RPC must answer. */
type CheckableEvmChain = ChainDescriptor & { rpcUrl: string; evmChainId: number };

const isCheckableEvmChain = (chain: ChainDescriptor): chain is CheckableEvmChain =>
  chain.family === 'evm' && chain.evmChainId !== undefined && Boolean(chain.rpcUrl);

/** The contracts of a chain's deployments, named for messages (`uniswapV3.quoterV2`). */
export function deployedContractsOf(deployments: ChainDeployments): { name: string; address: string }[] {
  const contracts: { name: string; address: string }[] = deployments.tokens.map((token) => ({
    name: `tokens.${token.symbol}`,
    address: token.address,
  }));
  const add = (name: string, address: string | undefined) => {
    if (address) contracts.push({ name, address });
  };
  add('permit2', deployments.permit2);
  add('gatewayRouter', deployments.gatewayRouter);
  add('uniswapV2.factory', deployments.uniswapV2?.factory);
  add('uniswapV2.router', deployments.uniswapV2?.router);
  add('uniswapV3.factory', deployments.uniswapV3?.factory);
  add('uniswapV3.quoterV2', deployments.uniswapV3?.quoterV2);
  add('uniswapV3.swapRouter02', deployments.uniswapV3?.swapRouter02);
  add('across.spokePool', deployments.across?.spokePool);
  return contracts;
}

/**
 * Checks every EVM chain that has an RPC URL the way an operator would before trusting it: the node
 * answers `eth_chainId` with the chain's id, and every contract of the chain's deployments has code
 * there. One round of calls per chain, in parallel, each bounded by `timeoutMs`. Solana and Bitcoin
 * are not checked (a Solana cluster is named by its genesis hash, which a local replica cannot have).
 */
export async function checkChainEndpoints(
  registry: ChainRegistry,
  options: { timeoutMs: number },
): Promise<ChainEndpointProblem[]> {
  const chains = registry.list().filter(isCheckableEvmChain);
  const perChain = await Promise.all(
    chains.map(async (chain): Promise<ChainEndpointProblem[]> => {
      const provider = boundedEvmProvider(chain.rpcUrl, chain.evmChainId, options.timeoutMs, chain.id);
      try {
        return await checkEvmChain(chain, provider, registry.deployments(chain.id));
      } finally {
        provider.destroy();
      }
    }),
  );
  return perChain.flat();
}

async function checkEvmChain(
  chain: CheckableEvmChain,
  provider: JsonRpcProvider,
  deployments: ChainDeployments | undefined,
): Promise<ChainEndpointProblem[]> {
  let answered: bigint;
  try {
    answered = BigInt((await provider.send('eth_chainId', [])) as string);
  } catch (error) {
    // An RPC URL often carries a provider key: the message names the variable, never the URL.
    const reason = (error as Error).message.split(chain.rpcUrl).join(chain.rpcEnv ?? 'the RPC URL');
    return [
      {
        chain: chain.id,
        kind: 'unreachable',
        message: `${chain.id}: the RPC (${chain.rpcEnv ?? 'devnet manifest'}) did not answer eth_chainId: ${reason}`,
      },
    ];
  }
  if (answered !== BigInt(chain.evmChainId)) {
    return [
      {
        chain: chain.id,
        kind: 'wrong-chain',
        message: `${chain.id}: the RPC (${chain.rpcEnv ?? 'devnet manifest'}) answers chain id ${answered}, not ${chain.evmChainId}`,
      },
    ];
  }
  if (!deployments) return [];
  const contracts = deployedContractsOf(deployments);
  const codes = await Promise.allSettled(
    contracts.map(
      (contract) => provider.send('eth_getCode', [contract.address, 'latest']) as Promise<string>,
    ),
  );
  return contracts.flatMap((contract, i): ChainEndpointProblem[] => {
    const code = codes[i];
    if (code.status === 'rejected' || code.value !== '0x') return [];
    return [
      {
        chain: chain.id,
        kind: 'missing-code',
        message: `${chain.id}: ${contract.name} ${contract.address} has no code`,
      },
    ];
  });
}

export class ChainEndpointMismatchError extends Error {
  constructor(readonly problems: ChainEndpointProblem[]) {
    super(
      `Refusing to start: ${problems.map((p) => p.message).join('; ')}. Fix the RPC URL: a service must never sign or quote for one network on another's node.`,
    );
    this.name = 'ChainEndpointMismatchError';
  }
}

/**
 * The boot check of a service that reads or signs on chains: throws ChainEndpointMismatchError when
 * an RPC answers for another chain id; hands every other problem (an RPC that does not answer yet,
 * a contract without code) to `warn`, since the service can run and its health shows the chain.
 */
export async function verifyChainEndpointsAtBoot(
  registry: ChainRegistry,
  timeoutMs: number,
  warn: (message: string) => void,
): Promise<void> {
  const problems = await checkChainEndpoints(registry, { timeoutMs });
  const fatal = problems.filter((problem) => problem.kind === 'wrong-chain');
  if (fatal.length > 0) throw new ChainEndpointMismatchError(fatal);
  for (const problem of problems) warn(problem.message);
}
