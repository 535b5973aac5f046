import type { BitcoinDevnetBridge, BitcoinDevnetManifest } from '@swapgw/chains/devnet-manifest';
import { BITCOIN_BRIDGE_CHAIN_ID, type BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import { listenLocalChain } from '../local-http-server';
import { BitcoinChain } from './bitcoin-chain';
import { BitcoinEsploraServer } from './bitcoin-esplora-server';
import { bitcoinDevnetKey } from './bitcoin-keys';
import { BitcoinMiner } from './bitcoin-miner';
import { DEVNET_MNEMONIC } from '../anvil';

export const BITCOIN_DEVNET_CHAIN_ID = 'bitcoin-devnet';
/** esplora/electrs's HTTP port. */
export const BITCOIN_DEVNET_DEFAULT_PORT = 3002;
export const BITCOIN_DEVNET_BLOCK_MS = 1000;
/** Test wallets of the devnet: those of the EVM user accounts' indices. */
export const BITCOIN_TEST_WALLET_INDICES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** The service's miner-fee wallets: two, so two signer instances each have one. */
export const BITCOIN_FEE_WALLET_INDICES = [0, 1] as const;
/** Fixed devnet price the bridge converts at: whole USDC per BTC. */
export const BITCOIN_BRIDGE_USDC_PER_BTC = 90_000;
/**
 * The bridge's fixed miner fee per BTC payout: a payout spends one to three vault coins and has
 * three outputs (recipient, memo, change), at most about 330 vbytes, so this pays 3 sat/vB or more.
 */
export const BITCOIN_BRIDGE_OUTBOUND_FEE_SATS = 1_000;

const SATS_PER_BTC = 100_000_000n;
/** How each funded key's coins are cut: several UTXOs, so concurrent spends each take their own. */
export const BITCOIN_KEY_FUNDING = {
  wallet: { utxos: 5, sats: 1n * SATS_PER_BTC },
  'fee-wallet': { utxos: 25, sats: SATS_PER_BTC / 25n },
  'bridge-vault': { utxos: 10, sats: 5n * SATS_PER_BTC },
} as const;
/** A coinbase output is spendable 100 blocks after its own (consensus), hence the blocks mined at start. */
const MATURITY_BLOCKS = 100;

// The manifest section this chain writes is declared with the manifest's schema.
export type { BitcoinDevnetBridge, BitcoinDevnetManifest };

export interface BitcoinDevnetHandle {
  manifest: BitcoinDevnetManifest;
  chain: BitcoinChain;
  miner: BitcoinMiner;
  stop(): Promise<void>;
}

export interface StartBitcoinDevnetOptions {
  /** 0 = any free port; default 3002. */
  port?: number;
  host?: string;
  blockMs?: number;
  mnemonic?: string;
  /** The bridge's fee in basis points (the EVM bridges'). */
  bridgeFeeBps: number;
}

/** Coins a local Bitcoin chain pays at its start: `utxos` outputs of `sats` each to `script`. */
export interface BitcoinFunding {
  script: Uint8Array;
  utxos: number;
  sats: bigint;
}

export interface StartLocalBitcoinChainOptions {
  /** The network whose addresses the chain shows: `regtest` (the devnet) or `mainnet` (the replica). */
  network: BitcoinNetworkName;
  /** The chain's API id, for error messages (`bitcoin-devnet`, `bitcoin`). */
  id: string;
  port: number;
  host: string;
  blockMs: number;
  mnemonic: string;
  funding: BitcoinFunding[];
}

export interface LocalBitcoinChain {
  chain: BitcoinChain;
  miner: BitcoinMiner;
  esploraUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts an in-process Bitcoin chain (no bitcoind is installable here, so the chain is ours; its
 * acceptance rules are Bitcoin Core's, see bitcoin-chain.ts) on `network`: the funding block paying
 * `funding`, 100 blocks more so those coins are spendable, an Esplora API and a miner every
 * `blockMs`. The devnet's (regtest) and the mainnet replica's (mainnet addresses) are this one chain.
 */
export async function startLocalBitcoinChain(
  options: StartLocalBitcoinChainOptions,
): Promise<LocalBitcoinChain> {
  const { network, mnemonic } = options;
  const chain = new BitcoinChain({
    network,
    minerScript: bitcoinDevnetKey('miner', 0, mnemonic, network).script,
  });
  const miner = new BitcoinMiner(chain, options.blockMs);
  chain.mineBlock();
  chain.mineBlock(
    options.funding.flatMap(({ script, utxos, sats }) =>
      Array.from({ length: utxos }, () => ({ script, amount: sats })),
    ),
  );
  miner.mineNow(MATURITY_BLOCKS);

  // Funded before listening, so no client ever sees a chain without its coins.
  const server = new BitcoinEsploraServer(chain, miner);
  const port = await listenLocalChain(server, options.id, options.port, options.host, 'BITCOIN_START_FAILED');
  miner.start();
  return {
    chain,
    miner,
    esploraUrl: `http://${options.host}:${port}`,
    stop: async () => {
      miner.stop();
      await server.close();
    },
  };
}

/**
 * Starts the devnet's Bitcoin chain (regtest, startLocalBitcoinChain) paying the test wallets, the
 * fee wallets and the bridge vault.
 */
export async function startBitcoinDevnet(options: StartBitcoinDevnetOptions): Promise<BitcoinDevnetHandle> {
  const mnemonic = options.mnemonic ?? DEVNET_MNEMONIC;
  const blockMs = options.blockMs ?? BITCOIN_DEVNET_BLOCK_MS;
  const key = (kind: keyof typeof BITCOIN_KEY_FUNDING | 'miner', index: number) =>
    bitcoinDevnetKey(kind, index, mnemonic);
  const funded = [
    ...BITCOIN_TEST_WALLET_INDICES.map((index) => ({ kind: 'wallet' as const, index })),
    ...BITCOIN_FEE_WALLET_INDICES.map((index) => ({ kind: 'fee-wallet' as const, index })),
    { kind: 'bridge-vault' as const, index: 0 },
  ];
  const host = options.host ?? '127.0.0.1';
  const { chain, miner, esploraUrl, stop } = await startLocalBitcoinChain({
    network: 'regtest',
    id: BITCOIN_DEVNET_CHAIN_ID,
    port: options.port ?? BITCOIN_DEVNET_DEFAULT_PORT,
    host,
    blockMs,
    mnemonic,
    funding: funded.map(({ kind, index }) => ({
      script: key(kind, index).script,
      ...BITCOIN_KEY_FUNDING[kind],
    })),
  });

  const listed = (kind: 'wallet' | 'fee-wallet', indices: readonly number[]) =>
    indices.map((index) => ({ index, address: key(kind, index).address }));
  const manifest: BitcoinDevnetManifest = {
    id: BITCOIN_DEVNET_CHAIN_ID,
    name: 'Bitcoin Devnet',
    family: 'bitcoin',
    network: 'regtest',
    esploraUrl,
    nativeSymbol: 'BTC',
    decimals: 8,
    blockMs,
    accounts: listed('wallet', BITCOIN_TEST_WALLET_INDICES),
    feeWallets: listed('fee-wallet', BITCOIN_FEE_WALLET_INDICES),
    bridge: {
      chainId: BITCOIN_BRIDGE_CHAIN_ID,
      vault: key('bridge-vault', 0).address,
      token: 'USDC',
      usdcPerBtc: BITCOIN_BRIDGE_USDC_PER_BTC,
      feeBps: options.bridgeFeeBps,
      outboundFeeSats: BITCOIN_BRIDGE_OUTBOUND_FEE_SATS,
    },
  };
  return {
    manifest,
    chain,
    miner,
    stop,
  };
}
