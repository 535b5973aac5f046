import fs from 'node:fs';
import { keccak256 } from 'ethers';
import { DevnetError } from '../devnet-error';
import { CompiledContract } from './compile';

/** The published Uniswap V2 and WETH9 build artifacts, as shipped in their npm packages. */
export interface UniswapArtifacts {
  WETH9: CompiledContract;
  UniswapV2Factory: CompiledContract;
  UniswapV2Pair: CompiledContract;
  UniswapV2Router02: CompiledContract;
  /** keccak256 of UniswapV2Pair's creation code: what the factory CREATE2s pairs with. */
  pairInitCodeHash: string;
}

export function loadUniswapArtifacts(): UniswapArtifacts {
  const artifacts = {
    WETH9: readArtifact('@uniswap/v2-periphery/build/WETH9.json'),
    UniswapV2Factory: readArtifact('@uniswap/v2-core/build/UniswapV2Factory.json'),
    UniswapV2Pair: readArtifact('@uniswap/v2-core/build/UniswapV2Pair.json'),
    UniswapV2Router02: readArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  };
  const pairInitCodeHash = keccak256(artifacts.UniswapV2Pair.bytecode);
  assertRouterMatchesPair(
    artifacts.UniswapV2Router02.bytecode,
    artifacts.UniswapV2Factory.bytecode,
    artifacts.UniswapV2Pair.bytecode,
    pairInitCodeHash,
  );
  return { ...artifacts, pairInitCodeHash };
}

/**
 * The router computes pair addresses off-chain-style with a hard-coded init code hash
 * (UniswapV2Library.pairFor) instead of asking the factory. If the published periphery artifact
 * was built against a different pair bytecode than the factory embeds, every router call would
 * target an empty address; refuse to start rather than deploy a router that cannot swap.
 */
export function assertRouterMatchesPair(
  routerBytecode: string,
  factoryBytecode: string,
  pairBytecode: string,
  pairInitCodeHash: string,
): void {
  if (!factoryBytecode.includes(pairBytecode.replace(/^0x/, ''))) {
    throw new DevnetError(
      'INIT_CODE_HASH_MISMATCH',
      'UniswapV2Factory does not embed the UniswapV2Pair creation code of @uniswap/v2-core',
    );
  }
  if (!routerBytecode.toLowerCase().includes(pairInitCodeHash.replace(/^0x/, '').toLowerCase())) {
    throw new DevnetError(
      'INIT_CODE_HASH_MISMATCH',
      `UniswapV2Router02 does not hard-code the pair init code hash ${pairInitCodeHash} of the deployed factory's pairs`,
      { pairInitCodeHash },
    );
  }
}

function readArtifact(modulePath: string): CompiledContract {
  const json = JSON.parse(fs.readFileSync(require.resolve(modulePath), 'utf8')) as {
    abi: unknown[];
    bytecode?: string;
    evm?: { bytecode?: { object?: string } };
  };
  const raw = json.bytecode ?? json.evm?.bytecode?.object;
  if (!raw) throw new DevnetError('DEPLOYMENT_FAILED', `${modulePath} has no creation bytecode`);
  return { abi: json.abi, bytecode: raw.startsWith('0x') ? raw : `0x${raw}` };
}
