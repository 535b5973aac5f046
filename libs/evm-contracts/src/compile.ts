import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EvmContractsError } from './evm-contracts-error';

/** What deploying a contract needs: its ABI and creation bytecode (ours, or a published build's). */
export interface CompiledContract {
  abi: unknown[];
  /** 0x-prefixed creation bytecode. */
  bytecode: string;
}

/** A contract of ours compiled here: also its runtime code, to check what a chain holds. */
export interface SolidityArtifact extends CompiledContract {
  /** 0x-prefixed runtime bytecode, immutables left as zeros (see immutableReferences). */
  deployedBytecode: string;
  /** Where each immutable sits in deployedBytecode: AST id → byte ranges (solc's output). */
  immutableReferences: Record<string, { start: number; length: number }[]>;
}

export interface EvmArtifacts {
  solcVersion: string;
  DevnetToken: SolidityArtifact;
  DevnetBridge: SolidityArtifact;
  Permit2: SolidityArtifact;
  SwapGatewayRouter: SolidityArtifact;
  /** Mainnet replica: USDC with FiatToken's name, decimals and permit domain (version "2"). */
  ReplicaUsdc: SolidityArtifact;
  /** Mainnet replica: mints Uniswap V3 positions through the pool's mint callback. */
  UniswapV3LiquidityProvider: SolidityArtifact;
  /** Devnet: a fee-on-transfer token taxing buys and sells on its pools (quote-service finds the taxes). */
  DevnetTaxedToken: SolidityArtifact;
  /** Never deployed: quote-service runs its runtime code in an `eth_call` to measure a token's taxes. */
  TokenTaxProbe: SolidityArtifact;
  /** Devnet: THORChain_Router's deposit and transferOut surface (depositWithExpiry, Deposit event). */
  ThorchainRouter: SolidityArtifact;
}

/** The contracts compiled, each from src/solidity/<name>.sol. */
const CONTRACT_NAMES = [
  'DevnetToken',
  'DevnetBridge',
  'Permit2',
  'SwapGatewayRouter',
  'ReplicaUsdc',
  'UniswapV3LiquidityProvider',
  'DevnetTaxedToken',
  'TokenTaxProbe',
  'ThorchainRouter',
] as const;

// cancun runs on every anvil hardfork we may meet (anvil defaults to a later one) and has the
// mcopy opcode OpenZeppelin 5.x uses. bytecodeHash "none": the metadata appended to the bytecode
// carries no hash of the sources, so a comment or a file name does not move SwapGatewayRouter's
// CREATE2 address; only code, compiler version and these settings do.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  outputSelection: {
    '*': {
      '*': [
        'abi',
        'evm.bytecode.object',
        'evm.deployedBytecode.object',
        'evm.deployedBytecode.immutableReferences',
      ],
    },
  },
};

/** Repository root: where node_modules (and so solc) lives; artifacts cache under its .cache. */
export function repositoryRoot(): string {
  return path.resolve(path.dirname(require.resolve('solc/package.json')), '..', '..');
}

/**
 * The .sol files, read from the repository (the swc build copies only .ts and .json, so dist/ has
 * no copy; compiling happens in development and operator tooling run from a checkout).
 */
export function soliditySourceDir(): string {
  // The checkout this file runs from, from source or from its build (dist/ under the checkout): a
  // git worktree's node_modules, hence solc, may be a link into another checkout. Else solc's.
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'libs', 'evm-contracts', 'src', 'solidity');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  return path.join(repositoryRoot(), 'libs', 'evm-contracts', 'src', 'solidity');
}

function readSources(): Record<string, string> {
  return Object.fromEntries(
    CONTRACT_NAMES.map((name) => [
      `${name}.sol`,
      fs.readFileSync(path.join(soliditySourceDir(), `${name}.sol`), 'utf8'),
    ]),
  );
}

/**
 * Our contracts compiled with the bundled solc (no compiler download). Compiling takes a few
 * seconds, so artifacts are cached under `.cache/evm-contracts/` keyed by a hash of the sources,
 * the OpenZeppelin and solc versions and the settings: a changed source recompiles, nothing else does.
 */
export function loadEvmArtifacts(
  cacheDir = path.join(repositoryRoot(), '.cache', 'evm-contracts'),
): EvmArtifacts {
  const sources = readSources();
  const solcVersion = readPackageVersion('solc');
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        sources,
        SETTINGS,
        solcVersion,
        openzeppelin: readPackageVersion('@openzeppelin/contracts'),
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.join(cacheDir, `artifacts-${key}.json`);
  if (fs.existsSync(cacheFile)) {
    return JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as EvmArtifacts;
  }
  const artifacts = compile(sources, solcVersion);
  fs.mkdirSync(cacheDir, { recursive: true });
  // Atomic so two processes starting together never read a half-written cache file.
  const temp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(artifacts));
  fs.renameSync(temp, cacheFile);
  return artifacts;
}

interface SolcContractOutput {
  abi: unknown[];
  evm: {
    bytecode: { object: string };
    deployedBytecode: {
      object: string;
      immutableReferences?: Record<string, { start: number; length: number }[]>;
    };
  };
}

/**
 * Compiles one contract of a .sol file that is not ours to deploy (a test fixture next to its spec)
 * with the same bundled solc and settings as ours; not cached (a fixture compiles in a moment).
 */
export function compileSolidityFile(sourceFile: string, contractName: string): CompiledContract {
  const fileName = path.basename(sourceFile);
  const contracts = runSolc({ [fileName]: fs.readFileSync(sourceFile, 'utf8') }, readPackageVersion('solc'));
  const contract = contracts[fileName]?.[contractName];
  if (!contract)
    throw new EvmContractsError('CONTRACT_COMPILE_FAILED', `solc output has no ${fileName}:${contractName}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

function runSolc(
  sources: Record<string, string>,
  solcVersion: string,
): Record<string, Record<string, SolcContractOutput>> {
  // Loaded lazily: solc-js is a large emscripten module only needed on a cache miss (or for a fixture).
  const solc = require('solc') as {
    compile(input: string, callbacks: { import(p: string): { contents?: string; error?: string } }): string;
  };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, SolcContractOutput>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0 || !output.contracts) {
    throw new EvmContractsError(
      'CONTRACT_COMPILE_FAILED',
      `solc ${solcVersion} failed: ${errors.map((e) => e.formattedMessage).join('\n')}`,
    );
  }
  return output.contracts;
}

function compile(sources: Record<string, string>, solcVersion: string): EvmArtifacts {
  const contracts = runSolc(sources, solcVersion);
  const pick = (name: string): SolidityArtifact => {
    const contract = contracts[`${name}.sol`]?.[name];
    if (!contract)
      throw new EvmContractsError('CONTRACT_COMPILE_FAILED', `solc output has no ${name}.sol:${name}`);
    return {
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      immutableReferences: contract.evm.deployedBytecode.immutableReferences ?? {},
    };
  };
  const artifacts = { solcVersion } as EvmArtifacts;
  for (const name of CONTRACT_NAMES) artifacts[name] = pick(name);
  return artifacts;
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
