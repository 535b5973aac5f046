import { PublicKey } from '@solana/web3.js';
import type { DevnetManifest } from './devnet-manifest-schema';

const solanaKey = (n: number) => new PublicKey(Buffer.alloc(32, n)).toBase58();
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/**
 * A complete devnet manifest as startDevnet writes it (two EVM chains, Solana and Bitcoin), every
 * field valid: the fixture the manifest's reader, validator and writer are tested against. A new
 * object on each call, so a test may break a copy.
 */
export function completeDevnetManifest(): DevnetManifest {
  const chain = (id: string, chainId: number, port: number) => ({
    id,
    name: id,
    chainId,
    rpcUrl: `http://127.0.0.1:${port}`,
    nativeSymbol: 'ETH',
    tokens: {
      USDC: { address: address(1), decimals: 6, name: 'USD Coin', permit: true, permitVersion: '1' },
      WETH: { address: address(3), decimals: 18, name: 'Wrapped Ether', permit: false },
    },
    uniswapV2: {
      factory: address(4),
      router: address(5),
      initCodeHash: `0x${'ab'.repeat(32)}`,
      pairs: { 'WETH/USDC': address(6) },
    },
    bridge: { address: address(7), token: 'USDC' },
    permits: { permit2: address(10), permitRouter: address(11) },
  });
  return {
    generatedAtMs: 1,
    mnemonic: 'test test test test test test test test test test test junk',
    chains: [chain('devnet-a', 31337, 8545), chain('devnet-b', 31338, 8546)],
    bridge: { provider: 'devnet-bridge', feeBps: 5, estimatedDurationSeconds: 2, relayer: address(8) },
    accounts: [{ index: 1, address: address(9) }],
    solana: {
      id: 'solana-devnet',
      name: 'Solana Devnet (local)',
      family: 'solana',
      rpcUrl: 'http://127.0.0.1:8899',
      nativeSymbol: 'SOL',
      tokens: { USDC: { mint: solanaKey(1), decimals: 6, name: 'USD Coin' } },
      bridgeAuthority: solanaKey(2),
      accounts: [{ index: 1, address: solanaKey(3) }],
      slotMs: 400,
      bridge: {
        chainId: 1399811149,
        token: 'USDC',
        vault: solanaKey(4),
        vaultOwner: solanaKey(2),
        estimatedDurationSeconds: 3,
      },
    },
    bitcoin: {
      id: 'bitcoin-devnet',
      name: 'Bitcoin Devnet',
      family: 'bitcoin',
      network: 'regtest',
      esploraUrl: 'http://127.0.0.1:3002',
      nativeSymbol: 'BTC',
      decimals: 8,
      blockMs: 1000,
      accounts: [{ index: 1, address: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj' }],
      feeWallets: [{ index: 0, address: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj' }],
      bridge: {
        chainId: 20000000000001,
        vault: 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj',
        token: 'USDC',
        usdcPerBtc: 90_000,
        feeBps: 5,
        outboundFeeSats: 1_000,
        estimatedDurationSeconds: 4,
      },
    },
    cosmos: [
      {
        id: 'cosmoshub-devnet',
        name: 'Cosmos Hub Devnet',
        family: 'cosmos',
        chainId: 'cosmoshub-devnet',
        rpc: 'http://127.0.0.1:26657',
        rest: 'http://127.0.0.1:1317',
        bech32Prefix: 'cosmos',
        nativeDenom: 'uatom',
        nativeSymbol: 'ATOM',
        decimals: 6,
        minGasPrice: '0.005uatom',
        blockMs: 1000,
        accounts: [{ index: 1, address: 'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8z' }],
        ibcChannels: { 'osmosis-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
      },
    ],
  };
}
