import {
  BaseContract,
  Contract,
  ContractFactory,
  ContractTransactionResponse,
  getAddress,
  HDNodeWallet,
  JsonRpcProvider,
  MaxUint256,
  TypedDataEncoder,
  ZeroAddress,
} from 'ethers';
import type { ChainDeployments } from '@swapgw/chains';
import { devnetWallet } from '../accounts';
import { CompiledContract, EvmArtifacts } from '@swapgw/evm-contracts';
import { UniswapArtifacts } from '../contracts/uniswap-artifacts';
import { UniswapV3Artifacts } from '../contracts/uniswap-v3-artifacts';
import { pairAddress } from '../deploy/deploy-chain';
import { DevnetError } from '../devnet-error';
import { DEPLOYER_INDEX, USER_ACCOUNT_INDICES } from '../devnet-parameters';
import { placeAtCanonicalAddress } from './canonical-placement';
import { placeMulticall3 } from '../contracts/multicall3';
import {
  REPLICA_DEPLOYER_ETH,
  REPLICA_USER_FUNDING,
  REPLICA_V2_POOL,
  REPLICA_V3_EXTRA_FEE_TIER,
  REPLICA_V3_POOLS,
  REPLICA_WETH_PRICE,
} from './replica-parameters';
import { planV3Position, sortTokens, sqrtPriceX96Of, uniswapV3PoolAddress } from './uniswap-v3-positions';

export interface DeployReplicaChainInput {
  /** The chain's entry of REAL_NETWORK_CATALOG: every address below comes from it. */
  catalog: ChainDeployments;
  chainId: number;
  provider: JsonRpcProvider;
  mnemonic: string;
  artifacts: EvmArtifacts;
  uniswapV2: UniswapArtifacts;
  uniswapV3: UniswapV3Artifacts;
}

/**
 * The catalog addresses this module fills with code (Across: across-replica.ts; the gateway router is
 * deployed as on mainnet: replica-gateway-router.ts).
 */
export interface ReplicaChainAddresses {
  usdc: string;
  weth: string;
  permit2: string;
  v2Factory: string;
  v2Router: string;
  v3Factory: string;
  quoterV2: string;
  swapRouter02: string;
}

/** Gas for one V3 position's mint: about 350,000 when its ticks and the oracle are written fresh. */
const V3_MINT_GAS_LIMIT = 1_000_000n;

// Calls go through artifact ABIs, which ethers types dynamically.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DynamicContract = BaseContract & Record<string, any>;

/**
 * Fills one fresh anvil chain with what a wallet meets on the mainnet it replicates, at the
 * catalog's canonical addresses: WETH9, USDC (ours, FiatToken's surface), Permit2 (ours),
 * Uniswap V2 factory and Router02, Uniswap V3 factory, QuoterV2 and SwapRouter02 (published
 * bytecode); a V2 pair and V3 pools (fees 500 and 3000) of USDC/WETH at 1 WETH = 3000 USDC, created
 * through the factories; test accounts 1-9 funded with USDC and WETH. Then checks on chain that
 * everything answers as the catalog says, and refuses to start otherwise.
 */
export async function deployReplicaChain(input: DeployReplicaChainInput): Promise<ReplicaChainAddresses> {
  const { catalog, provider, mnemonic, artifacts, uniswapV2, uniswapV3 } = input;
  const addresses = replicaAddressesOf(catalog);
  const deployer = devnetWallet(mnemonic, DEPLOYER_INDEX, provider);
  const step = async (what: string, send: () => Promise<ContractTransactionResponse>) => {
    try {
      const receipt = await (await send()).wait();
      if (!receipt || receipt.status !== 1) throw new Error('transaction reverted');
    } catch (error) {
      throw new DevnetError(
        'DEPLOYMENT_FAILED',
        `${catalog.chain}: ${what} failed: ${(error as Error).message}`,
      );
    }
  };
  const place = (
    label: string,
    artifact: CompiledContract,
    address: string,
    constructorArgs: unknown[] = [],
    patchSelfAddress = false,
  ) =>
    placeAtCanonicalAddress(provider, deployer, {
      label: `${catalog.chain} ${label}`,
      artifact,
      address,
      constructorArgs,
      patchSelfAddress,
    });
  const at = (address: string, artifact: CompiledContract, runner = deployer) =>
    new Contract(address, artifact.abi as never, runner) as DynamicContract;

  await provider.send('anvil_setBalance', [deployer.address, `0x${REPLICA_DEPLOYER_ETH.toString(16)}`]);
  await place('WETH9', uniswapV2.WETH9, addresses.weth);
  await place('USDC', artifacts.ReplicaUsdc, addresses.usdc);
  await place('Permit2', artifacts.Permit2, addresses.permit2);
  await placeMulticall3(provider, catalog.chain);
  await place('UniswapV2Factory', uniswapV2.UniswapV2Factory, addresses.v2Factory, [deployer.address]);
  await place('UniswapV2Router02', uniswapV2.UniswapV2Router02, addresses.v2Router, [
    addresses.v2Factory,
    addresses.weth,
  ]);
  // NoDelegateCall keeps address(this) in an immutable: it must name the canonical factory.
  await place('UniswapV3Factory', uniswapV3.UniswapV3Factory, addresses.v3Factory, [], true);
  await place('QuoterV2', uniswapV3.QuoterV2, addresses.quoterV2, [addresses.v3Factory, addresses.weth]);
  // No NonfungiblePositionManager on the replica: SwapRouter02's positionManager is the zero address.
  await place('SwapRouter02', uniswapV3.SwapRouter02, addresses.swapRouter02, [
    addresses.v2Factory,
    addresses.v3Factory,
    ZeroAddress,
    addresses.weth,
  ]);

  const usdc = at(addresses.usdc, artifacts.ReplicaUsdc);
  const weth = at(addresses.weth, uniswapV2.WETH9);
  const v3Factory = at(addresses.v3Factory, uniswapV3.UniswapV3Factory);
  await step('enable V3 fee tier 100', () =>
    v3Factory.enableFeeAmount(REPLICA_V3_EXTRA_FEE_TIER.fee, REPLICA_V3_EXTRA_FEE_TIER.tickSpacing),
  );

  // Pools: USDC/WETH on V2 and on V3 (fees 500 and 3000), all at 1 WETH = 3000 USDC.
  const [token0] = sortTokens(addresses.usdc, addresses.weth);
  const wethIs0 = token0 === addresses.weth;
  const sqrtPriceX96 = wethIs0
    ? sqrtPriceX96Of(REPLICA_WETH_PRICE.weth, REPLICA_WETH_PRICE.usdc)
    : sqrtPriceX96Of(REPLICA_WETH_PRICE.usdc, REPLICA_WETH_PRICE.weth);
  const positions = REPLICA_V3_POOLS.map((pool) => ({
    ...pool,
    plan: planV3Position({
      sqrtPriceX96,
      tickSpacing: pool.tickSpacing,
      rangeFactor: pool.rangeFactor,
      depthIn: wethIs0 ? 0 : 1,
      depth: pool.wethInRange,
    }),
  }));
  // The pools' needs plus 1%: the plans are floating point estimates of what the pools will ask.
  const margin = (amount: bigint) => amount + amount / 100n;
  const poolWeth =
    REPLICA_V2_POOL.weth +
    positions.reduce((sum, p) => sum + margin(wethIs0 ? p.plan.amount0 : p.plan.amount1), 0n);
  const poolUsdc =
    REPLICA_V2_POOL.usdc +
    positions.reduce((sum, p) => sum + margin(wethIs0 ? p.plan.amount1 : p.plan.amount0), 0n);
  await step('mint pool USDC', () => usdc.mint(deployer.address, poolUsdc));
  await step('wrap pool WETH', () => weth.deposit({ value: poolWeth }));

  const v2Router = at(addresses.v2Router, uniswapV2.UniswapV2Router02);
  await step('approve Router02 for USDC', () => usdc.approve(addresses.v2Router, MaxUint256));
  await step('approve Router02 for WETH', () => weth.approve(addresses.v2Router, MaxUint256));
  await step('seed the V2 USDC/WETH pair', () =>
    v2Router.addLiquidity(
      addresses.usdc,
      addresses.weth,
      REPLICA_V2_POOL.usdc,
      REPLICA_V2_POOL.weth,
      REPLICA_V2_POOL.usdc,
      REPLICA_V2_POOL.weth,
      deployer.address,
      MaxUint256,
    ),
  );

  const provide = await deployHelper(artifacts.UniswapV3LiquidityProvider, deployer, catalog.chain);
  await step('approve the liquidity provider for USDC', () => usdc.approve(provide.address, MaxUint256));
  await step('approve the liquidity provider for WETH', () => weth.approve(provide.address, MaxUint256));
  for (const { fee, plan } of positions) {
    await step(`create the V3 USDC/WETH ${fee} pool`, () =>
      v3Factory.createPool(addresses.usdc, addresses.weth, fee),
    );
    const pool = (await v3Factory.getPool(addresses.usdc, addresses.weth, fee)) as string;
    await step(`initialize the V3 ${fee} pool`, () =>
      at(pool, uniswapV3.UniswapV3Pool).initialize(plan.sqrtPriceX96),
    );
    // A fixed gas limit, not the estimate: the pool writes its oracle only when the block's second
    // differs from its last observation's, so an estimate made in the second of `initialize` comes
    // out a few thousand gas short when the mint lands a second later (seen on loaded machines).
    await step(`add liquidity to the V3 ${fee} pool`, () =>
      provide.contract.mint(pool, plan.tickLower, plan.tickUpper, plan.liquidity, {
        gasLimit: V3_MINT_GAS_LIMIT,
      }),
    );
  }

  for (const index of USER_ACCOUNT_INDICES) {
    const user = devnetWallet(mnemonic, index).address;
    await step(`mint USDC to account ${index}`, () => usdc.mint(user, REPLICA_USER_FUNDING.USDC));
  }
  // Users wrap their own ETH (WETH9 has no mint); different senders, so in parallel.
  await Promise.all(
    USER_ACCOUNT_INDICES.map((index) => {
      const user = devnetWallet(mnemonic, index, provider);
      return step(`wrap ETH for account ${index}`, () =>
        at(addresses.weth, uniswapV2.WETH9, user).deposit({ value: REPLICA_USER_FUNDING.WETH }),
      );
    }),
  );

  await verifyReplicaChain(input, addresses, deployer.address);
  return addresses;
}

/** The catalog entry's addresses the replica fills, or an error naming what the catalog lacks. */
export function replicaAddressesOf(catalog: ChainDeployments): ReplicaChainAddresses {
  const usdc = catalog.tokens.find((t) => t.symbol === 'USDC')?.address;
  const missing = (field: string) =>
    new DevnetError(
      'DEPLOYMENT_FAILED',
      `catalog ${catalog.chain} has no ${field}: nothing to replicate there`,
    );
  if (!usdc) throw missing('USDC');
  if (!catalog.wrappedNative) throw missing('wrappedNative');
  if (!catalog.permit2) throw missing('permit2');
  if (!catalog.uniswapV2) throw missing('uniswapV2');
  if (!catalog.uniswapV3) throw missing('uniswapV3');
  return {
    usdc: getAddress(usdc),
    weth: getAddress(catalog.wrappedNative),
    permit2: getAddress(catalog.permit2),
    v2Factory: getAddress(catalog.uniswapV2.factory),
    v2Router: getAddress(catalog.uniswapV2.router),
    v3Factory: getAddress(catalog.uniswapV3.factory),
    quoterV2: getAddress(catalog.uniswapV3.quoterV2),
    swapRouter02: getAddress(catalog.uniswapV3.swapRouter02),
  };
}

/**
 * What a wallet or an integrator would check before trusting the chain: the constructor state
 * copied over (owners, fee tiers), the immutables pointing at the catalog's contracts, the permit
 * domains verifying at the canonical addresses, the pools where the init code hashes put them.
 */
async function verifyReplicaChain(
  input: DeployReplicaChainInput,
  addresses: ReplicaChainAddresses,
  deployer: string,
): Promise<void> {
  const { catalog, chainId, provider, artifacts, uniswapV2, uniswapV3 } = input;
  const problems: string[] = [];
  const expectEqual = (what: string, actual: unknown, expected: unknown) => {
    const same =
      typeof actual === 'string' && typeof expected === 'string'
        ? actual.toLowerCase() === expected.toLowerCase()
        : actual === expected;
    if (!same) problems.push(`${what} is ${String(actual)}, expected ${String(expected)}`);
  };
  const read = (address: string, artifact: CompiledContract) =>
    new Contract(address, artifact.abi as never, provider) as DynamicContract;

  const v3Factory = read(addresses.v3Factory, uniswapV3.UniswapV3Factory);
  expectEqual('UniswapV3Factory.owner()', await v3Factory.owner(), deployer);
  for (const [fee, spacing] of [
    [100, 1n],
    [500, 10n],
    [3000, 60n],
    [10000, 200n],
  ] as const)
    expectEqual(
      `UniswapV3Factory.feeAmountTickSpacing(${fee})`,
      await v3Factory.feeAmountTickSpacing(fee),
      spacing,
    );
  const quoter = read(addresses.quoterV2, uniswapV3.QuoterV2);
  expectEqual('QuoterV2.factory()', await quoter.factory(), addresses.v3Factory);
  expectEqual('QuoterV2.WETH9()', await quoter.WETH9(), addresses.weth);
  const swapRouter = read(addresses.swapRouter02, uniswapV3.SwapRouter02);
  expectEqual('SwapRouter02.factory()', await swapRouter.factory(), addresses.v3Factory);
  expectEqual('SwapRouter02.factoryV2()', await swapRouter.factoryV2(), addresses.v2Factory);
  expectEqual('SwapRouter02.WETH9()', await swapRouter.WETH9(), addresses.weth);
  const v2Router = read(addresses.v2Router, uniswapV2.UniswapV2Router02);
  expectEqual('UniswapV2Router02.factory()', await v2Router.factory(), addresses.v2Factory);
  expectEqual('UniswapV2Router02.WETH()', await v2Router.WETH(), addresses.weth);
  expectEqual(
    'UniswapV2Factory.feeToSetter()',
    await read(addresses.v2Factory, uniswapV2.UniswapV2Factory).feeToSetter(),
    deployer,
  );
  expectEqual('WETH9.symbol()', await read(addresses.weth, uniswapV2.WETH9).symbol(), 'WETH');

  const usdcToken = catalog.tokens.find((t) => t.symbol === 'USDC');
  const usdc = read(addresses.usdc, artifacts.ReplicaUsdc);
  expectEqual('USDC.decimals()', Number(await usdc.decimals()), usdcToken?.decimals);
  expectEqual('USDC.name()', await usdc.name(), usdcToken?.name);
  const permitDomain = usdcToken?.permit ?? { name: 'USD Coin', version: '2' };
  expectEqual(
    'USDC.DOMAIN_SEPARATOR()',
    await usdc.DOMAIN_SEPARATOR(),
    TypedDataEncoder.hashDomain({ ...permitDomain, chainId, verifyingContract: addresses.usdc }),
  );
  expectEqual(
    'Permit2.DOMAIN_SEPARATOR()',
    await read(addresses.permit2, artifacts.Permit2).DOMAIN_SEPARATOR(),
    TypedDataEncoder.hashDomain({ name: 'Permit2', chainId, verifyingContract: addresses.permit2 }),
  );

  const pair = (await read(addresses.v2Factory, uniswapV2.UniswapV2Factory).getPair(
    addresses.usdc,
    addresses.weth,
  )) as string;
  expectEqual(
    'the V2 USDC/WETH pair',
    pair,
    pairAddress(addresses.v2Factory, addresses.usdc, addresses.weth, catalog.uniswapV2?.initCodeHash ?? ''),
  );
  for (const { fee } of REPLICA_V3_POOLS) {
    expectEqual(
      `the V3 USDC/WETH ${fee} pool`,
      await v3Factory.getPool(addresses.usdc, addresses.weth, fee),
      uniswapV3PoolAddress(
        addresses.v3Factory,
        addresses.usdc,
        addresses.weth,
        fee,
        catalog.uniswapV3?.poolInitCodeHash ?? '',
      ),
    );
  }
  if (problems.length > 0) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${catalog.chain}: the replica does not answer as the catalog says: ${problems.join('; ')}`,
      { problems },
    );
  }
}

async function deployHelper(
  artifact: CompiledContract,
  deployer: HDNodeWallet,
  chain: string,
): Promise<{ address: string; contract: DynamicContract }> {
  try {
    const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, deployer).deploy();
    await contract.waitForDeployment();
    return { address: await contract.getAddress(), contract: contract as DynamicContract };
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${chain}: deploying the V3 liquidity provider failed: ${(error as Error).message}`,
    );
  }
}
