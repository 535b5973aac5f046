import {
  BaseContract,
  Contract,
  ContractFactory,
  ContractTransactionResponse,
  getCreate2Address,
  getCreateAddress,
  HDNodeWallet,
  JsonRpcProvider,
  MaxUint256,
  solidityPackedKeccak256,
} from 'ethers';
import { devnetWallet } from '../accounts';
import {
  CANONICAL_PERMIT2,
  CompiledContract,
  deploySwapGatewayRouter,
  EvmArtifacts,
} from '@swapgw/evm-contracts';
import { UniswapArtifacts } from '../contracts/uniswap-artifacts';
import { DevnetError } from '../devnet-error';
import {
  BRIDGE,
  DEVNET_THORCHAIN_ROUTER,
  DEPLOYER_INDEX,
  DevnetChainSpec,
  PERMIT_VERSION,
  POOLS,
  TAXED_TOKEN,
  TOKENS,
  USER_ACCOUNT_INDICES,
  USER_FUNDING,
} from '../devnet-parameters';
import { DevnetChain } from '../manifest';
import { placeAtCanonicalAddress } from '../replica/canonical-placement';
import { placeMulticall3 } from '../contracts/multicall3';

export interface DeployChainInput {
  spec: DevnetChainSpec;
  rpcUrl: string;
  provider: JsonRpcProvider;
  mnemonic: string;
  relayerAddress: string;
  artifacts: EvmArtifacts;
  uniswap: UniswapArtifacts;
}

/**
 * Deploys and seeds one fresh chain. Every deployer transaction is sent in a fixed order from
 * nonce 0, so contract addresses are the same on every start (and, with the same deployer, on
 * both chains).
 */
export async function deployDevnetChain(input: DeployChainInput): Promise<DevnetChain> {
  const { spec, provider, mnemonic, artifacts, uniswap } = input;
  const deployer = devnetWallet(mnemonic, DEPLOYER_INDEX, provider);
  const startNonce = await provider.getTransactionCount(deployer.address);
  if (startNonce !== 0) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${spec.id}: deployer nonce is ${startNonce}, not 0; the chain is not fresh so addresses would differ`,
    );
  }
  const step = async (what: string, send: () => Promise<ContractTransactionResponse>) => {
    try {
      const receipt = await (await send()).wait();
      if (!receipt || receipt.status !== 1) throw new Error('transaction reverted');
    } catch (error) {
      throw new DevnetError('DEPLOYMENT_FAILED', `${spec.id}: ${what} failed: ${(error as Error).message}`);
    }
  };

  const usdc = await deploy(spec.id, 'USDC', artifacts.DevnetToken, deployer, [
    TOKENS.USDC.name,
    TOKENS.USDC.symbol,
    TOKENS.USDC.decimals,
  ]);
  const dai = await deploy(spec.id, 'DAI', artifacts.DevnetToken, deployer, [
    TOKENS.DAI.name,
    TOKENS.DAI.symbol,
    TOKENS.DAI.decimals,
  ]);
  const weth = await deploy(spec.id, 'WETH9', uniswap.WETH9, deployer, []);
  const factory = await deploy(spec.id, 'UniswapV2Factory', uniswap.UniswapV2Factory, deployer, [
    deployer.address,
  ]);
  const router = await deploy(spec.id, 'UniswapV2Router02', uniswap.UniswapV2Router02, deployer, [
    factory.address,
    weth.address,
  ]);
  const bridge = await deploy(spec.id, 'DevnetBridge', artifacts.DevnetBridge, deployer, [
    usdc.address,
    input.relayerAddress,
    BRIDGE.feeBps,
  ]);
  // After everything above so that the earlier contracts keep their addresses. Permit2 sits at its
  // canonical address, as on every real chain, so the SwapGatewayRouter (constructor(permit2) only,
  // CREATE2 through the deterministic deployment proxy anvil has from genesis) gets the address it
  // has everywhere: one address for the devnet, the mainnet replica and the real networks.
  await placeAtCanonicalAddress(provider, deployer, {
    label: `${spec.id} Permit2`,
    artifact: artifacts.Permit2,
    address: CANONICAL_PERMIT2,
  });
  await placeMulticall3(provider, spec.id);
  let permitRouter: string;
  try {
    permitRouter = (await deploySwapGatewayRouter(provider, deployer, artifacts)).address;
  } catch (error) {
    throw new DevnetError('DEPLOYMENT_FAILED', `${spec.id}: SwapGatewayRouter: ${(error as Error).message}`);
  }

  // Deployer's working balances: what the pools take, minted once.
  const poolUsdc = POOLS['WETH/USDC'].amountB + POOLS['USDC/DAI'].amountA;
  const poolDai = POOLS['WETH/DAI'].amountB + POOLS['USDC/DAI'].amountB;
  await step('mint pool USDC', () => usdc.contract.mint(deployer.address, poolUsdc));
  await step('mint pool DAI', () => dai.contract.mint(deployer.address, poolDai));
  await step('mint bridge liquidity', () => usdc.contract.mint(bridge.address, BRIDGE.liquidity));
  for (const index of USER_ACCOUNT_INDICES) {
    const user = devnetWallet(mnemonic, index).address;
    await step(`mint USDC to account ${index}`, () => usdc.contract.mint(user, USER_FUNDING.USDC));
    await step(`mint DAI to account ${index}`, () => dai.contract.mint(user, USER_FUNDING.DAI));
  }

  await step('approve router for USDC', () => usdc.contract.approve(router.address, MaxUint256));
  await step('approve router for DAI', () => dai.contract.approve(router.address, MaxUint256));
  // WETH pools are seeded with native ETH through addLiquidityETH: the router wraps it.
  const wethUsdc = POOLS['WETH/USDC'];
  await step('seed WETH/USDC', () =>
    router.contract.addLiquidityETH(
      usdc.address,
      wethUsdc.amountB,
      wethUsdc.amountB,
      wethUsdc.amountA,
      deployer.address,
      MaxUint256,
      {
        value: wethUsdc.amountA,
      },
    ),
  );
  const wethDai = POOLS['WETH/DAI'];
  await step('seed WETH/DAI', () =>
    router.contract.addLiquidityETH(
      dai.address,
      wethDai.amountB,
      wethDai.amountB,
      wethDai.amountA,
      deployer.address,
      MaxUint256,
      {
        value: wethDai.amountA,
      },
    ),
  );
  const usdcDai = POOLS['USDC/DAI'];
  await step('seed USDC/DAI', () =>
    router.contract.addLiquidity(
      usdc.address,
      dai.address,
      usdcDai.amountA,
      usdcDai.amountB,
      usdcDai.amountA,
      usdcDai.amountB,
      deployer.address,
      MaxUint256,
    ),
  );

  // Users wrap their own ETH (WETH9 has no mint); different senders, so in parallel.
  await Promise.all(
    USER_ACCOUNT_INDICES.map((index) => {
      const user = devnetWallet(mnemonic, index, provider);
      const userWeth = new Contract(weth.address, uniswap.WETH9.abi as never, user);
      return step(`wrap ETH for account ${index}`, () => userWeth.deposit({ value: USER_FUNDING.WETH }));
    }),
  );

  // The taxed token comes last so every contract above keeps its address.
  const tax = await deploy(spec.id, 'TAX', artifacts.DevnetTaxedToken, deployer, [
    TAXED_TOKEN.name,
    TAXED_TOKEN.symbol,
    TAXED_TOKEN.buyTaxBps,
    TAXED_TOKEN.sellTaxBps,
    TAXED_TOKEN.treasury,
  ]);
  const taxUsdc = POOLS['TAX/USDC'];
  await step('mint pool TAX', () => tax.contract.mint(deployer.address, taxUsdc.amountA));
  await step('mint pool USDC for TAX', () => usdc.contract.mint(deployer.address, taxUsdc.amountB));
  await step('approve router for TAX', () => tax.contract.approve(router.address, MaxUint256));
  await step('seed TAX/USDC', () =>
    router.contract.addLiquidity(
      tax.address,
      usdc.address,
      taxUsdc.amountA,
      taxUsdc.amountB,
      taxUsdc.amountA,
      taxUsdc.amountB,
      deployer.address,
      MaxUint256,
    ),
  );
  // Taxed from here on: the seed above went in whole.
  const taxPair = (await factory.contract.getPair(tax.address, usdc.address)) as string;
  await step('tax TAX/USDC', () => tax.contract.setPool(taxPair, true));

  // Last, so every contract above keeps its address: THORChain's router at its fixed devnet address.
  await placeAtCanonicalAddress(provider, deployer, {
    label: `${spec.id} THORChain router`,
    artifact: artifacts.ThorchainRouter,
    address: DEVNET_THORCHAIN_ROUTER,
  });

  const tokenAddress: Record<string, string> = {
    USDC: usdc.address,
    DAI: dai.address,
    WETH: weth.address,
    TAX: tax.address,
  };
  const pairs: Record<string, string> = {};
  for (const [name, pool] of Object.entries(POOLS)) {
    const pair = (await factory.contract.getPair(tokenAddress[pool.a], tokenAddress[pool.b])) as string;
    const expected = pairAddress(
      factory.address,
      tokenAddress[pool.a],
      tokenAddress[pool.b],
      uniswap.pairInitCodeHash,
    );
    // The router derives pair addresses from the init code hash; a pair elsewhere is unreachable.
    if (pair.toLowerCase() !== expected.toLowerCase()) {
      throw new DevnetError(
        'INIT_CODE_HASH_MISMATCH',
        `${spec.id}: pair ${name} is at ${pair}, but the router would look for it at ${expected}`,
      );
    }
    pairs[name] = pair;
  }

  return {
    id: spec.id,
    name: spec.name,
    chainId: spec.chainId,
    rpcUrl: input.rpcUrl,
    nativeSymbol: 'ETH',
    tokens: {
      USDC: {
        address: usdc.address,
        decimals: TOKENS.USDC.decimals,
        name: TOKENS.USDC.name,
        permit: true,
        permitVersion: PERMIT_VERSION,
        verified: true,
      },
      DAI: {
        address: dai.address,
        decimals: TOKENS.DAI.decimals,
        name: TOKENS.DAI.name,
        permit: true,
        permitVersion: PERMIT_VERSION,
        verified: true,
      },
      WETH: {
        address: weth.address,
        decimals: TOKENS.WETH.decimals,
        name: TOKENS.WETH.name,
        permit: false,
        verified: true,
      },
      TAX: { address: tax.address, decimals: TAXED_TOKEN.decimals, name: TAXED_TOKEN.name, permit: false },
    },
    uniswapV2: {
      factory: factory.address,
      router: router.address,
      initCodeHash: uniswap.pairInitCodeHash,
      pairs,
    },
    bridge: { address: bridge.address, token: BRIDGE.token },
    permits: { permit2: CANONICAL_PERMIT2, permitRouter },
  };
}

/** Uniswap V2 pair address: CREATE2 by the factory, salt keccak(token0, token1) sorted. */
export function pairAddress(factory: string, tokenA: string, tokenB: string, initCodeHash: string): string {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
  return getCreate2Address(
    factory,
    solidityPackedKeccak256(['address', 'address'], [token0, token1]),
    initCodeHash,
  );
}

interface Deployed {
  address: string;
  // Calls go through the artifact ABI, which ethers types dynamically.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: BaseContract & Record<string, any>;
}

async function deploy(
  chain: string,
  label: string,
  artifact: CompiledContract,
  deployer: HDNodeWallet,
  args: unknown[],
): Promise<Deployed> {
  const nonce = await deployer.getNonce();
  const expected = getCreateAddress({ from: deployer.address, nonce });
  try {
    const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, deployer).deploy(
      ...args,
    );
    await contract.waitForDeployment();
    const address = await contract.getAddress();
    if (address !== expected) throw new Error(`deployed at ${address}, expected ${expected}`);
    return { address, contract: contract as Deployed['contract'] };
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${chain}: deploying ${label} failed: ${(error as Error).message}`,
    );
  }
}
