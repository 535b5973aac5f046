import {
  AbiCoder,
  concat,
  getAddress,
  getCreate2Address,
  id,
  JsonRpcProvider,
  keccak256,
  Signer,
  zeroPadValue,
} from 'ethers';
import { EvmArtifacts, SolidityArtifact } from './compile';
import { EvmContractsError } from './evm-contracts-error';

/**
 * Arachnid's deterministic deployment proxy: the same address on every chain that has it (deployed
 * with a keyless pre-EIP-155 transaction; anvil has it from genesis). Calldata `salt ‖ initCode`
 * creates the contract with CREATE2 and returns its address (20 bytes).
 */
export const DETERMINISTIC_DEPLOYMENT_PROXY = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** Uniswap's Permit2: one address on every chain, and on the devnet and the mainnet replica. */
export const CANONICAL_PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/** The CREATE2 salt of SwapGatewayRouter: fixed, so its address depends on its init code only. */
export const SWAP_GATEWAY_ROUTER_SALT = id('swap-gateway/SwapGatewayRouter/v1');

/** SwapGatewayRouter's init code: its creation bytecode with constructor(permit2) appended. */
export function swapGatewayRouterInitCode(
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>,
  permit2 = CANONICAL_PERMIT2,
): string {
  return concat([
    artifacts.SwapGatewayRouter.bytecode,
    AbiCoder.defaultAbiCoder().encode(['address'], [permit2]),
  ]);
}

/** Where the proxy puts SwapGatewayRouter with SWAP_GATEWAY_ROUTER_SALT: the same on every chain. */
export function swapGatewayRouterAddress(
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>,
  permit2 = CANONICAL_PERMIT2,
): string {
  return getCreate2Address(
    DETERMINISTIC_DEPLOYMENT_PROXY,
    SWAP_GATEWAY_ROUTER_SALT,
    keccak256(swapGatewayRouterInitCode(artifacts, permit2)),
  );
}

/**
 * The runtime code a chain must hold for `artifact` built with these immutables (AST id → 32-byte
 * value): solc leaves immutables as zeros in deployedBytecode and says where they go.
 */
export function expectedRuntimeCode(artifact: SolidityArtifact, immutables: Record<string, string>): string {
  const code = Buffer.from(artifact.deployedBytecode.slice(2), 'hex');
  for (const [astId, ranges] of Object.entries(artifact.immutableReferences)) {
    const value = immutables[astId];
    if (value === undefined)
      throw new EvmContractsError('CODE_MISMATCH', `no value given for immutable ${astId}`);
    const word = Buffer.from(zeroPadValue(value, 32).slice(2), 'hex');
    for (const { start, length } of ranges) word.copy(code, start, 32 - length);
  }
  return `0x${code.toString('hex')}`;
}

/** SwapGatewayRouter's runtime code: its one immutable is permit2. */
export function swapGatewayRouterRuntimeCode(
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>,
  permit2 = CANONICAL_PERMIT2,
): string {
  const ids = Object.keys(artifacts.SwapGatewayRouter.immutableReferences);
  if (ids.length !== 1)
    throw new EvmContractsError(
      'CODE_MISMATCH',
      `SwapGatewayRouter has ${ids.length} immutables, expected one (permit2)`,
    );
  return expectedRuntimeCode(artifacts.SwapGatewayRouter, { [ids[0]]: permit2 });
}

export interface RouterDeployment {
  address: string;
  /** Hash of the deployment transaction; absent when the code was already there. */
  txHash?: string;
  alreadyDeployed: boolean;
}

/**
 * Deploys SwapGatewayRouter through the deterministic deployment proxy (or finds it already there:
 * anyone may deploy the same init code, and it is the same contract), then checks the runtime code
 * at its address equals the compiled one with permit2 filled in. Throws NO_DEPLOYMENT_PROXY on a
 * chain without the proxy, CODE_MISMATCH when other code answers there.
 */
export async function deploySwapGatewayRouter(
  provider: JsonRpcProvider,
  signer: Signer,
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>,
  permit2 = CANONICAL_PERMIT2,
): Promise<RouterDeployment> {
  const address = swapGatewayRouterAddress(artifacts, permit2);
  const chainId = (await provider.getNetwork()).chainId;
  if ((await provider.getCode(permit2)) === '0x')
    throw new EvmContractsError(
      'DEPLOYMENT_FAILED',
      `chain ${chainId} has no Permit2 at ${permit2}: the router would pull nothing`,
    );
  let txHash: string | undefined;
  let deployedIn: number | undefined;
  const alreadyDeployed = (await provider.getCode(address)) !== '0x';
  if (!alreadyDeployed) {
    if ((await provider.getCode(DETERMINISTIC_DEPLOYMENT_PROXY)) === '0x')
      throw new EvmContractsError(
        'NO_DEPLOYMENT_PROXY',
        `chain ${chainId} has no deterministic deployment proxy at ${DETERMINISTIC_DEPLOYMENT_PROXY}: ` +
          'SwapGatewayRouter cannot get its address there. Deploy the proxy first (its keyless transaction, ' +
          'https://github.com/Arachnid/deterministic-deployment-proxy) or ask the chain to predeploy it.',
      );
    try {
      const sent = await signer.sendTransaction({
        to: DETERMINISTIC_DEPLOYMENT_PROXY,
        data: concat([SWAP_GATEWAY_ROUTER_SALT, swapGatewayRouterInitCode(artifacts, permit2)]),
      });
      const receipt = await sent.wait();
      if (!receipt || receipt.status !== 1) throw new Error('transaction reverted');
      txHash = receipt.hash;
      deployedIn = receipt.blockNumber;
    } catch (error) {
      throw new EvmContractsError(
        'DEPLOYMENT_FAILED',
        `deploying SwapGatewayRouter on chain ${chainId} failed: ${(error as Error).message}`,
      );
    }
  }
  // At the deployment's block: ethers answers a getCode repeated within 250 ms from its cache, and
  // the one before the deployment said "no code".
  await verifySwapGatewayRouter(provider, artifacts, permit2, deployedIn);
  return { address: getAddress(address), txHash, alreadyDeployed };
}

/**
 * Throws CODE_MISMATCH unless the chain holds the compiled router's runtime code at its address
 * (at `blockTag`, or the latest block).
 */
export async function verifySwapGatewayRouter(
  provider: JsonRpcProvider,
  artifacts: Pick<EvmArtifacts, 'SwapGatewayRouter'>,
  permit2 = CANONICAL_PERMIT2,
  blockTag?: number,
): Promise<void> {
  const address = swapGatewayRouterAddress(artifacts, permit2);
  const onChain = (await provider.getCode(address, blockTag)).toLowerCase();
  const expected = swapGatewayRouterRuntimeCode(artifacts, permit2).toLowerCase();
  if (onChain !== expected)
    throw new EvmContractsError(
      'CODE_MISMATCH',
      `the code at ${address} (${(onChain.length - 2) / 2} bytes) is not the compiled SwapGatewayRouter (${(expected.length - 2) / 2} bytes)`,
    );
}
