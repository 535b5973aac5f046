import fs from 'node:fs';
import path from 'node:path';
import { REAL_NETWORK_CATALOG } from './real-networks';

// docs/chains.md is what an operator and a reviewer read: it must name every address the code uses.
describe('docs/chains.md', () => {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../../../docs/chains.md'), 'utf8');

  it('lists every address of the shipped catalog, under its chain', () => {
    for (const entry of REAL_NETWORK_CATALOG) {
      const section = doc.split(`### \`${entry.chain}\``)[1]?.split('### ')[0] ?? '';
      const addresses = [
        ...entry.tokens.map((t) => t.address),
        entry.permit2,
        entry.gatewayRouter,
        entry.uniswapV2?.factory,
        entry.uniswapV2?.router,
        entry.uniswapV3?.factory,
        entry.uniswapV3?.quoterV2,
        entry.uniswapV3?.swapRouter02,
        entry.across?.spokePool,
      ].filter((a): a is string => a !== undefined);
      for (const address of addresses)
        expect({ chain: entry.chain, listed: section.includes(address) }).toEqual({
          chain: entry.chain,
          listed: true,
        });
    }
  });
});
