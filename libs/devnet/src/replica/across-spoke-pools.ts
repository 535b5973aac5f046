import {
  BaseContract,
  Contract,
  ContractFactory,
  getAddress,
  HDNodeWallet,
  Interface,
  JsonRpcProvider,
  ZeroAddress,
} from 'ethers';
import type { ChainDeployments } from '@swapgw/chains';
import { AcrossArtifacts } from '../contracts/across-artifacts';
import { CompiledContract } from '../contracts/compile';
import { DevnetError } from '../devnet-error';
import { placeAtCanonicalAddress } from './canonical-placement';

/**
 * Across's own deployment constants (`QUOTE_TIME_BUFFER`, `FILL_DEADLINE_BUFFER` of
 * @across-protocol/contracts' consts): a deposit's quoteTimestamp may be up to an hour old, its
 * fillDeadline at most six hours ahead of the origin chain's clock.
 */
export const ACROSS_DEPOSIT_QUOTE_TIME_BUFFER = 3600;
export const ACROSS_FILL_DEADLINE_BUFFER = 6 * 3600;
/**
 * Across's HubPool on Ethereum: every mainnet SpokePool's withdrawal recipient and cross-domain
 * admin. The replica has no HubPool (no code there), so admin calls and refunds to the hub are
 * inert, while the storage reads as on mainnet; initialize refuses the zero address for both.
 */
export const ACROSS_HUB_POOL = '0xc186fA914353c44b2E33eBE05f21846F1048bEda';
/** ERC-1967's implementation slot: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1). */
export const ERC1967_IMPLEMENTATION_SLOT =
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

export interface AcrossSpokePoolInput {
  catalog: ChainDeployments;
  chainId: number;
  provider: JsonRpcProvider;
  deployer: HDNodeWallet;
  across: AcrossArtifacts;
}

export interface PlacedSpokePool {
  spokePool: string;
  implementation: string;
}

// Calls go through artifact ABIs, which ethers types dynamically.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DynamicContract = BaseContract & Record<string, any>;

/**
 * Each replicated chain's SpokePool flavour with the arguments its mainnet deployment was made with,
 * less the bridges the replica does not have: no CCTP TokenMessenger (zero address: CCTP off), no
 * OFT endpoint (eid and fee cap 0), no Arbitrum L2 gateway router, no V5 Gateway (V5 fills off).
 */
function spokePoolDeploymentOf(
  chain: string,
  artifacts: AcrossArtifacts,
  weth: string,
  usdc: string,
  initialDepositId: number,
): { artifact: CompiledContract; constructorArgs: unknown[]; initialize: unknown[] } {
  const buffers = [weth, ACROSS_DEPOSIT_QUOTE_TIME_BUFFER, ACROSS_FILL_DEADLINE_BUFFER];
  switch (chain) {
    case 'ethereum':
      return {
        artifact: artifacts.Ethereum_SpokePool,
        constructorArgs: [...buffers, ZeroAddress],
        initialize: [initialDepositId, ACROSS_HUB_POOL],
      };
    case 'base':
      return {
        artifact: artifacts.OP_SpokePool,
        constructorArgs: [...buffers, usdc, ZeroAddress, ZeroAddress],
        initialize: [initialDepositId, ACROSS_HUB_POOL, ACROSS_HUB_POOL],
      };
    case 'arbitrum':
      return {
        artifact: artifacts.Arbitrum_SpokePool,
        constructorArgs: [...buffers, usdc, ZeroAddress, 0, 0, ZeroAddress],
        initialize: [initialDepositId, ZeroAddress, ACROSS_HUB_POOL, ACROSS_HUB_POOL],
      };
    default:
      throw new DevnetError('DEPLOYMENT_FAILED', `no Across SpokePool flavour for ${chain}`);
  }
}

/**
 * Puts Across's SpokePool at the catalog's address, as Across deploys it: the chain's implementation
 * (published bytecode, constructor immutables: the catalog's WETH, Across's buffers) at an ordinary
 * address, and an ERC1967Proxy initialized with `initialize(...)` placed at the canonical address
 * (its storage, written by initialize through the proxy, copied along). Then reads back through the
 * canonical address what a relayer or an integrator relies on, and refuses to start otherwise.
 */
export async function placeAcrossSpokePool(input: AcrossSpokePoolInput): Promise<PlacedSpokePool> {
  const { catalog, chainId, provider, deployer, across } = input;
  if (!catalog.across)
    throw new DevnetError('DEPLOYMENT_FAILED', `catalog ${catalog.chain} has no Across SpokePool`);
  const spokePool = getAddress(catalog.across.spokePool);
  const weth = getAddress(catalog.wrappedNative ?? ZeroAddress);
  const usdc = getAddress(catalog.tokens.find((t) => t.symbol === 'USDC')?.address ?? ZeroAddress);
  const flavour = spokePoolDeploymentOf(catalog.chain, across, weth, usdc, 0);
  const label = `${catalog.chain} Across SpokePool`;

  let implementation: string;
  try {
    const contract = await new ContractFactory(
      flavour.artifact.abi as never,
      flavour.artifact.bytecode,
      deployer,
    ).deploy(...flavour.constructorArgs);
    await contract.waitForDeployment();
    implementation = await contract.getAddress();
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${label}: deploying the implementation failed: ${(error as Error).message}`,
    );
  }
  const initData = new Interface(flavour.artifact.abi as never).encodeFunctionData(
    'initialize',
    flavour.initialize,
  );
  await placeAtCanonicalAddress(provider, deployer, {
    label: `${label} proxy`,
    artifact: across.ERC1967Proxy,
    address: spokePool,
    constructorArgs: [implementation, initData],
  });

  const problems: string[] = [];
  const expectEqual = (what: string, actual: unknown, expected: unknown) => {
    const same =
      typeof actual === 'string' && typeof expected === 'string'
        ? actual.toLowerCase() === expected.toLowerCase()
        : actual === expected;
    if (!same) problems.push(`${what} is ${String(actual)}, expected ${String(expected)}`);
  };
  const slot = await provider.getStorage(spokePool, ERC1967_IMPLEMENTATION_SLOT);
  expectEqual('the ERC-1967 implementation slot', getAddress(`0x${slot.slice(-40)}`), implementation);
  const pool = new Contract(spokePool, flavour.artifact.abi as never, provider) as DynamicContract;
  expectEqual('wrappedNativeToken()', await pool.wrappedNativeToken(), weth);
  expectEqual(
    'depositQuoteTimeBuffer()',
    Number(await pool.depositQuoteTimeBuffer()),
    ACROSS_DEPOSIT_QUOTE_TIME_BUFFER,
  );
  expectEqual('fillDeadlineBuffer()', Number(await pool.fillDeadlineBuffer()), ACROSS_FILL_DEADLINE_BUFFER);
  expectEqual('chainId()', Number(await pool.chainId()), chainId);
  expectEqual('pausedDeposits()', await pool.pausedDeposits(), false);
  expectEqual('pausedFills()', await pool.pausedFills(), false);
  expectEqual('numberOfDeposits()', Number(await pool.numberOfDeposits()), 0);
  expectEqual('withdrawalRecipient()', await pool.withdrawalRecipient(), ACROSS_HUB_POOL);
  expectEqual('crossDomainAdmin()', await pool.crossDomainAdmin(), ACROSS_HUB_POOL);
  if (problems.length > 0)
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${label} does not answer as Across's: ${problems.join('; ')}`,
      {
        problems,
      },
    );
  return { spokePool, implementation };
}
