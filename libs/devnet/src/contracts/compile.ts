import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DevnetError } from '../devnet-error';
import {
  DEVNET_BRIDGE_SOURCE,
  DEVNET_PERMIT2_SOURCE,
  DEVNET_TOKEN_SOURCE,
  SWAP_GATEWAY_ROUTER_SOURCE,
} from './solidity-sources';
import { REPLICA_USDC_SOURCE, UNISWAP_V3_LIQUIDITY_PROVIDER_SOURCE } from './replica-solidity-sources';

export interface CompiledContract {
  abi: unknown[];
  /** 0x-prefixed creation bytecode. */
  bytecode: string;
}

export interface DevnetArtifacts {
  solcVersion: string;
  DevnetToken: CompiledContract;
  DevnetBridge: CompiledContract;
  Permit2: CompiledContract;
  SwapGatewayRouter: CompiledContract;
  /** Mainnet replica: USDC with FiatToken's name, decimals and permit domain (version "2"). */
  ReplicaUsdc: CompiledContract;
  /** Mainnet replica: mints Uniswap V3 positions through the pool's mint callback. */
  UniswapV3LiquidityProvider: CompiledContract;
}

const SOURCES: Record<string, string> = {
  'DevnetToken.sol': DEVNET_TOKEN_SOURCE,
  'DevnetBridge.sol': DEVNET_BRIDGE_SOURCE,
  'Permit2.sol': DEVNET_PERMIT2_SOURCE,
  'SwapGatewayRouter.sol': SWAP_GATEWAY_ROUTER_SOURCE,
  'ReplicaUsdc.sol': REPLICA_USDC_SOURCE,
  'UniswapV3LiquidityProvider.sol': UNISWAP_V3_LIQUIDITY_PROVIDER_SOURCE,
};

// cancun runs on every anvil hardfork we may meet (anvil defaults to a later one) and has the
// mcopy opcode OpenZeppelin 5.x uses.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Repository root: where node_modules (and so solc) lives; artifacts cache under its .cache. */
export function repositoryRoot(): string {
  return path.resolve(path.dirname(require.resolve('solc/package.json')), '..', '..');
}

/**
 * The devnet contracts compiled with the bundled solc (no compiler download). Compiling takes a few
 * seconds, so artifacts are cached under `.cache/devnet/` keyed by a hash of the sources, the
 * OpenZeppelin and solc versions and the settings: a changed source recompiles, nothing else does.
 */
export function loadDevnetArtifacts(
  cacheDir = path.join(repositoryRoot(), '.cache', 'devnet'),
): DevnetArtifacts {
  const solcVersion = readPackageVersion('solc');
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        SOURCES,
        SETTINGS,
        solcVersion,
        openzeppelin: readPackageVersion('@openzeppelin/contracts'),
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.join(cacheDir, `artifacts-${key}.json`);
  if (fs.existsSync(cacheFile)) {
    return JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as DevnetArtifacts;
  }
  const artifacts = compile(solcVersion);
  fs.mkdirSync(cacheDir, { recursive: true });
  // Atomic so two devnets starting together never read a half-written cache file.
  const temp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(artifacts));
  fs.renameSync(temp, cacheFile);
  return artifacts;
}

function compile(solcVersion: string): DevnetArtifacts {
  // Loaded lazily: solc-js is a large emscripten module only needed on a cache miss.
  const solc = require('solc') as {
    compile(input: string, callbacks: { import(p: string): { contents?: string; error?: string } }): string;
  };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(SOURCES).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0 || !output.contracts) {
    throw new DevnetError(
      'CONTRACT_COMPILE_FAILED',
      `solc ${solcVersion} failed: ${errors.map((e) => e.formattedMessage).join('\n')}`,
    );
  }
  const pick = (file: string, name: string): CompiledContract => {
    const contract = output.contracts?.[file]?.[name];
    if (!contract) throw new DevnetError('CONTRACT_COMPILE_FAILED', `solc output has no ${file}:${name}`);
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  return {
    solcVersion,
    DevnetToken: pick('DevnetToken.sol', 'DevnetToken'),
    DevnetBridge: pick('DevnetBridge.sol', 'DevnetBridge'),
    Permit2: pick('Permit2.sol', 'Permit2'),
    SwapGatewayRouter: pick('SwapGatewayRouter.sol', 'SwapGatewayRouter'),
    ReplicaUsdc: pick('ReplicaUsdc.sol', 'ReplicaUsdc'),
    UniswapV3LiquidityProvider: pick('UniswapV3LiquidityProvider.sol', 'UniswapV3LiquidityProvider'),
  };
}

function readImport(importPath: string): { contents?: string; error?: string } {
  try {
    return { contents: fs.readFileSync(require.resolve(importPath), 'utf8') };
  } catch (error) {
    return { error: `cannot resolve ${importPath}: ${(error as Error).message}` };
  }
}

function readPackageVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string })
    .version;
}
