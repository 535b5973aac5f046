import path from 'node:path';
import { JsonRpcProvider } from 'ethers';
import { MULTICALL3_ADDRESS } from '@swapgw/chains';
import { DevnetError } from '../devnet-error';

/**
 * Multicall3's creation code, as viem (a pinned dependency) ships it for its deployless multicall:
 * the code its keyless deployment ran on every chain. viem does not export it from its entry point,
 * so it is read from the module that holds it.
 */
function multicall3CreationCode(): string {
  const viemRoot = path.dirname(require.resolve('viem/package.json'));
  const contracts = require(path.join(viemRoot, '_cjs/constants/contracts.js')) as {
    multicall3Bytecode?: string;
  };
  if (!contracts.multicall3Bytecode?.startsWith('0x'))
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `viem at ${viemRoot} no longer ships Multicall3's creation code`,
    );
  return contracts.multicall3Bytecode;
}

/**
 * Puts Multicall3 at its address (the one it has on every EVM network), as the chains an app meets
 * in production have it: the runtime code is what the creation code returns (run in an `eth_call`,
 * so no account's nonce moves and every other contract keeps its address), written with
 * `anvil_setCode`. The apps batch plain reads through it (`MulticallReads`, @swapgw/chains).
 */
export async function placeMulticall3(provider: JsonRpcProvider, chain: string): Promise<void> {
  const runtime = await provider.call({ data: multicall3CreationCode() });
  await provider.send('anvil_setCode', [MULTICALL3_ADDRESS, runtime]);
  const placed = await provider.getCode(MULTICALL3_ADDRESS);
  if (placed.length <= 2 || placed !== runtime)
    throw new DevnetError('DEPLOYMENT_FAILED', `${chain}: Multicall3 did not land at ${MULTICALL3_ADDRESS}`);
}
