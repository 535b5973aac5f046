import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { keccak256 } from 'ethers';
import { DevnetError } from '../devnet-error';
import { CompiledContract, repositoryRoot } from './compile';

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

export const SWAP_ROUTER_CONTRACTS_PACKAGE = {
  spec: '@uniswap/swap-router-contracts@1.3.1',
  tarball: 'uniswap-swap-router-contracts-1.3.1.tgz',
  /** `npm view @uniswap/swap-router-contracts@1.3.1 dist.integrity` */
  integrity:
    'sha512-mh/YNbwKb7Mut96VuEtL+Z5bRe0xVIbjjiryn+iMMrK2sFKhR4duk/86mEz0UO5gSx4pQIw9G5276P5heY/7Rg==',
} as const;

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
  const files = readTarball(swapRouterTarball(cacheDir));
  const tarballArtifact = (name: keyof typeof SWAP_ROUTER_ARTIFACTS): CompiledContract => {
    const text = files.get(SWAP_ROUTER_ARTIFACTS[name]);
    if (!text)
      throw new DevnetError(
        'DEPLOYMENT_FAILED',
        `${SWAP_ROUTER_CONTRACTS_PACKAGE.spec} has no ${SWAP_ROUTER_ARTIFACTS[name]}`,
      );
    return artifactOf(text, SWAP_ROUTER_ARTIFACTS[name]);
  };
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

/** The verified tarball in the cache, fetched with `npm pack` on first use. */
function swapRouterTarball(cacheDir: string): Buffer {
  const file = path.join(cacheDir, SWAP_ROUTER_CONTRACTS_PACKAGE.tarball);
  if (!fs.existsSync(file)) {
    // A directory of our own, renamed into place: two starts fetching at once never see half a file.
    const staging = fs.mkdtempSync(path.join(ensureDir(cacheDir), 'pack-'));
    try {
      const npm = spawnSync(
        npmCommand(),
        ['pack', SWAP_ROUTER_CONTRACTS_PACKAGE.spec, '--pack-destination', staging, '--silent'],
        { encoding: 'utf8', timeout: 120_000 },
      );
      const packed = path.join(staging, SWAP_ROUTER_CONTRACTS_PACKAGE.tarball);
      if (npm.status !== 0 || !fs.existsSync(packed))
        throw new DevnetError(
          'DEPLOYMENT_FAILED',
          `npm pack ${SWAP_ROUTER_CONTRACTS_PACKAGE.spec} failed (status ${npm.status}): ${(npm.stderr || npm.error?.message || '').trim().slice(-600)}`,
        );
      fs.renameSync(packed, file);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  const bytes = fs.readFileSync(file);
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  if (integrity !== SWAP_ROUTER_CONTRACTS_PACKAGE.integrity) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${file} has integrity ${integrity}, not the registry's ${SWAP_ROUTER_CONTRACTS_PACKAGE.integrity}: delete it to fetch it again`,
    );
  }
  return bytes;
}

/** npm beside the running node (the project's Node 24 puts its own first), else the PATH's. */
function npmCommand(): string {
  const sibling = path.join(path.dirname(process.execPath), process.platform === 'win32' ? 'npm.cmd' : 'npm');
  return fs.existsSync(sibling) ? sibling : 'npm';
}

/** Regular files of a .tgz (ustar, as npm writes it), keyed by path. */
export function readTarball(gzipped: Buffer): Map<string, string> {
  const tar = gunzipSync(gzipped);
  const files = new Map<string, string>();
  const field = (offset: number, length: number) =>
    tar.toString('utf8', offset, offset + length).replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = field(offset, 100);
    if (!name) break;
    const size = parseInt(field(offset + 124, 12).trim() || '0', 8);
    const type = field(offset + 156, 1);
    const prefix = field(offset + 345, 155);
    const fullName = prefix ? `${prefix}/${name}` : name;
    if (type === '0' || type === '')
      files.set(fullName, tar.toString('utf8', offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function packageArtifact(modulePath: string): CompiledContract {
  return artifactOf(fs.readFileSync(require.resolve(modulePath), 'utf8'), modulePath);
}

function artifactOf(text: string, source: string): CompiledContract {
  const json = JSON.parse(text) as { abi: unknown[]; bytecode?: string };
  if (!json.bytecode || json.bytecode === '0x')
    throw new DevnetError('DEPLOYMENT_FAILED', `${source} has no creation bytecode`);
  return { abi: json.abi, bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}` };
}

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
