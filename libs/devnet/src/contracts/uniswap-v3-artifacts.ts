import fs from 'node:fs';
import path from 'node:path';
import { keccak256 } from 'ethers';
import { DevnetError } from '../devnet-error';
import { CompiledContract, repositoryRoot } from './compile';
import {
  artifactOf,
  packageFileArtifact,
  PublishedPackage,
  publishedPackageFiles,
} from './published-package';

/**
 * The published Uniswap V3 build artifacts the mainnet replica deploys: UniswapV3Factory and
 * UniswapV3Pool from `@uniswap/v3-core` 1.0.1 (a pinned devDependency), QuoterV2 and SwapRouter02
 * from `@uniswap/swap-router-contracts` 1.3.1. The latter is not a dependency: it depends on
 * hardhat-watcher, whose peer dependency pulls hardhat (133 packages, install scripts) into the
 * install. Its tarball is fetched once with `npm pack` into .cache/uniswap/ and accepted only when
 * its sha512 equals the registry's integrity pinned below.
 */
export interface UniswapV3Artifacts {
  UniswapV3Factory: CompiledContract;
  UniswapV3Pool: CompiledContract;
  QuoterV2: CompiledContract;
  SwapRouter02: CompiledContract;
  /** keccak256 of UniswapV3Pool's creation code: what the factory CREATE2s pools with. */
  poolInitCodeHash: string;
}

export const SWAP_ROUTER_CONTRACTS_PACKAGE: PublishedPackage = {
  spec: '@uniswap/swap-router-contracts@1.3.1',
  tarball: 'uniswap-swap-router-contracts-1.3.1.tgz',
  /** `npm view @uniswap/swap-router-contracts@1.3.1 dist.integrity` */
  integrity:
    'sha512-mh/YNbwKb7Mut96VuEtL+Z5bRe0xVIbjjiryn+iMMrK2sFKhR4duk/86mEz0UO5gSx4pQIw9G5276P5heY/7Rg==',
};

const SWAP_ROUTER_ARTIFACTS = {
  QuoterV2: 'package/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  SwapRouter02: 'package/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
} as const;

export function loadUniswapV3Artifacts(
  cacheDir = path.join(repositoryRoot(), '.cache', 'uniswap'),
): UniswapV3Artifacts {
  const UniswapV3Factory = packageArtifact(
    '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  );
  const UniswapV3Pool = packageArtifact(
    '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  );
  const files = publishedPackageFiles(SWAP_ROUTER_CONTRACTS_PACKAGE, cacheDir);
  const tarballArtifact = (name: keyof typeof SWAP_ROUTER_ARTIFACTS): CompiledContract =>
    packageFileArtifact(SWAP_ROUTER_CONTRACTS_PACKAGE, files, SWAP_ROUTER_ARTIFACTS[name]);
  const QuoterV2 = tarballArtifact('QuoterV2');
  const SwapRouter02 = tarballArtifact('SwapRouter02');
  const poolInitCodeHash = keccak256(UniswapV3Pool.bytecode);
  // Quoter and router compute pool addresses with a hard-coded hash (PoolAddress.POOL_INIT_CODE_HASH).
  for (const [name, artifact] of Object.entries({ QuoterV2, SwapRouter02 })) {
    if (!artifact.bytecode.toLowerCase().includes(poolInitCodeHash.slice(2).toLowerCase()))
      throw new DevnetError(
        'INIT_CODE_HASH_MISMATCH',
        `${name} does not hard-code the pool init code hash ${poolInitCodeHash} of @uniswap/v3-core's UniswapV3Pool`,
        { poolInitCodeHash },
      );
  }
  return { UniswapV3Factory, UniswapV3Pool, QuoterV2, SwapRouter02, poolInitCodeHash };
}

function packageArtifact(modulePath: string): CompiledContract {
  return artifactOf(fs.readFileSync(require.resolve(modulePath), 'utf8'), modulePath);
}
