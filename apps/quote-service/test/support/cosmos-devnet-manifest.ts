import type { DevnetManifestView } from '@swapgw/chains';
import { hex, solanaDevnetSection } from './devnet-solana-section';

// The devnet manifest of the Cosmos providers' specs: devnet-a (an EVM chain with the bridge's end),
// the three Cosmos chains (Noble with the bridge's CCTP end, Osmosis with the crosschain-swaps
// contract) and, with `solana`, the bridge's Solana end.
export { hex };
export const CONTRACT = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';
const cosmosChain = (
  id: string,
  prefix: string,
  denom: string,
  symbol: string,
  port: number,
  ibcChannels: Record<string, string>,
  extra: Record<string, unknown> = {},
) => ({
  id,
  name: id,
  family: 'cosmos' as const,
  chainId: id,
  rpc: `http://127.0.0.1:${port}`,
  rest: `http://127.0.0.1:${port + 1}`,
  bech32Prefix: prefix,
  nativeDenom: denom,
  nativeSymbol: symbol,
  decimals: 6,
  minGasPrice: `0.1${denom}`,
  blockMs: 1000,
  accounts: [],
  ibcChannels,
  ...extra,
});

const base = {
  generatedAtMs: 1,
  chains: [
    {
      id: 'devnet-a',
      name: 'Devnet A',
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:1',
      nativeSymbol: 'ETH',
      tokens: {
        USDC: { address: hex(1), decimals: 6, name: 'USD Coin' },
        WETH: { address: hex(2), decimals: 18, name: 'Wrapped Ether' },
      },
      uniswapV2: { factory: hex(3), router: hex(4), initCodeHash: `0x${'ab'.repeat(32)}`, pairs: {} },
      bridge: { address: hex(5), token: 'USDC' },
    },
  ],
  bridge: { provider: 'devnet-bridge', feeBps: 10, estimatedDurationSeconds: 2, relayer: hex(6) },
  accounts: [],
  cosmos: [
    cosmosChain('cosmoshub-devnet', 'cosmos', 'uatom', 'ATOM', 10, {
      'osmosis-devnet': 'channel-0',
      'noble-devnet': 'channel-1',
    }),
    cosmosChain(
      'osmosis-devnet',
      'osmo',
      'uosmo',
      'OSMO',
      20,
      { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
      { crosschainSwapsContract: CONTRACT },
    ),
    cosmosChain(
      'noble-devnet',
      'noble',
      'uusdc',
      'USDC',
      30,
      { 'osmosis-devnet': 'channel-0', 'cosmoshub-devnet': 'channel-1' },
      {
        bridge: {
          chainId: 4,
          token: 'USDC',
          denom: 'uusdc',
          moduleAddress: 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5',
          estimatedDurationSeconds: 5,
        },
      },
    ),
  ],
};

/** The manifest, with the Solana chain and its bridge end when `withSolana`. */
export function cosmosDevnetManifest(withSolana = false): DevnetManifestView {
  return (withSolana ? { ...base, solana: solanaDevnetSection } : base) as unknown as DevnetManifestView;
}
