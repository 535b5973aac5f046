import { isNonNegativeInteger, isObject } from '../../devnet-manifest/manifest-checks';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { DevnetManifestSection } from '../../devnet-manifest/devnet-manifest-section';
import type { ListedToken } from '../family-traits';

/**
 * The Bitcoin family's section of the devnet manifest (`bitcoin`): its type and its check, registered
 * in devnet-manifest-sections.ts.
 */

/** The manifest's `bitcoin` section: the local Bitcoin chain, its Esplora API and its end of the bridge. */
export interface DevnetBitcoinView {
  /** API identifier, always `bitcoin-devnet`. */
  id: string;
  name: string;
  family: 'bitcoin';
  /** Address format: regtest (`bcrt1…`). */
  network: 'regtest';
  /** Esplora HTTP API of the chain, no trailing slash. */
  esploraUrl: string;
  nativeSymbol: string;
  decimals: number;
  blockMs: number;
  /** Test wallets: BIP84 m/84'/1'/0'/0/<index> of the test mnemonic, P2WPKH. */
  accounts: { index: number; address: string }[];
  /** The service's miner-fee wallets: m/84'/1'/1'/0/<index>. */
  feeWallets: { index: number; address: string }[];
  bridge: {
    /** The bridge's id for Bitcoin (EVM depositTo destinationChainId, Solana memo, release sourceChainId). */
    chainId: number;
    /** A deposit is a payment to the vault with an OP_RETURN memo. */
    vault: string;
    /** What the bridge pays for BTC on the other chains, and takes for BTC. */
    token: string;
    /** The devnet bridge's fixed price: whole USDC per BTC. */
    usdcPerBtc: number;
    feeBps: number;
    /** The miner fee each BTC payout bears, taken from what it pays (THORChain's outbound fee). */
    outboundFeeSats: number;
    estimatedDurationSeconds: number;
    /** The local THORNode over this end (THORNODE_URL) and the THORChain prefix of each EVM chain. */
    thornode?: { url: string; chains: Record<string, string> };
  };
}

export interface DevnetBitcoinChain extends BitcoinDevnetManifest {
  bridge: BitcoinDevnetBridge & {
    /** Upper bound, either direction, from the deposit's broadcast to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

/** The `bitcoin` section as the local Bitcoin chain describes itself (startBitcoinDevnet). */
export interface BitcoinDevnetManifest {
  id: 'bitcoin-devnet';
  name: 'Bitcoin Devnet';
  family: 'bitcoin';
  network: 'regtest';
  /** Esplora HTTP API, no trailing slash. */
  esploraUrl: string;
  nativeSymbol: 'BTC';
  decimals: 8;
  blockMs: number;
  /** Test wallets: m/84'/1'/0'/0/<index>, P2WPKH, 5 BTC each in 1 BTC coins. */
  accounts: { index: number; address: string }[];
  /** The service's miner-fee wallets: m/84'/1'/1'/0/<index>, 1 BTC each in 25 coins. */
  feeWallets: { index: number; address: string }[];
  bridge: BitcoinDevnetBridge;
}

/** The bridge's Bitcoin end: BTC paid to the vault with a memo, USDC paid out at a fixed price. */
export interface BitcoinDevnetBridge {
  /** BITCOIN_BRIDGE_CHAIN_ID. */
  chainId: number;
  /** m/84'/1'/2'/0/0, 50 BTC in 5 BTC coins. */
  vault: string;
  token: 'USDC';
  usdcPerBtc: number;
  feeBps: number;
  /** The miner fee each BTC payout of the bridge bears (BitcoinBridgeTerms.outboundFeeSats). */
  outboundFeeSats: number;
  /**
   * The local THORNode serving THORChain's API over this end (quote-service's THORNODE_URL), and
   * the THORChain chain prefix it gives each devnet EVM chain (`{"devnet-a": "ETH", …}`).
   */
  thornode?: { url: string; chains: Record<string, string> };
}

/** Structural check of the manifest's `bitcoin` section; one message per problem, empty when valid. */
export function bitcoinManifestProblems(bitcoin: unknown): string[] {
  if (!isObject(bitcoin)) return ['bitcoin must be an object'];
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => {
    if (!ok) problems.push(`bitcoin.${message}`);
  };
  expect(bitcoin.id === 'bitcoin-devnet', 'id must be bitcoin-devnet');
  expect(bitcoin.family === 'bitcoin', 'family must be bitcoin');
  expect(bitcoin.network === 'regtest', 'network must be regtest');
  expect(
    typeof bitcoin.esploraUrl === 'string' && /^https?:\/\/[^/]+(\/[^/]+)*$/.test(bitcoin.esploraUrl),
    'esploraUrl must be an http(s) URL without a trailing slash',
  );
  expect(bitcoin.nativeSymbol === 'BTC', 'nativeSymbol must be BTC');
  expect(bitcoin.decimals === 8, 'decimals must be 8');
  expect(
    isNonNegativeInteger(bitcoin.blockMs) && (bitcoin.blockMs as number) > 0,
    'blockMs must be a positive integer',
  );
  for (const list of ['accounts', 'feeWallets'] as const) {
    const entries = bitcoin[list];
    if (!Array.isArray(entries)) {
      problems.push(`bitcoin.${list} must be an array`);
      continue;
    }
    entries.forEach((entry, i) => {
      expect(
        isObject(entry) && isNonNegativeInteger(entry.index),
        `${list}[${i}].index must be a non-negative integer`,
      );
      expect(
        isObject(entry) && isRegtestAddress(entry.address),
        `${list}[${i}].address must be a bcrt1 address`,
      );
    });
  }
  const bridge = bitcoin.bridge;
  if (!isObject(bridge)) return [...problems, 'bitcoin.bridge must be an object'];
  expect(isNonNegativeInteger(bridge.chainId), 'bridge.chainId must be an integer');
  expect(isRegtestAddress(bridge.vault), 'bridge.vault must be a bcrt1 address');
  expect(bridge.token === 'USDC', 'bridge.token must be USDC');
  expect(
    isNonNegativeInteger(bridge.usdcPerBtc) && (bridge.usdcPerBtc as number) > 0,
    'bridge.usdcPerBtc must be a positive integer',
  );
  expect(
    isNonNegativeInteger(bridge.feeBps) && (bridge.feeBps as number) < 10_000,
    'bridge.feeBps must be an integer in [0, 10000)',
  );
  expect(
    isNonNegativeInteger(bridge.outboundFeeSats),
    'bridge.outboundFeeSats must be a non-negative integer',
  );
  expect(
    isNonNegativeInteger(bridge.estimatedDurationSeconds),
    'bridge.estimatedDurationSeconds must be a non-negative integer',
  );
  const thornode = bridge.thornode;
  expect(
    thornode === undefined ||
      (isObject(thornode) &&
        typeof thornode.url === 'string' &&
        /^https?:\/\//.test(thornode.url) &&
        isObject(thornode.chains) &&
        Object.values(thornode.chains).every(
          (prefix) => typeof prefix === 'string' && /^[A-Z][A-Z0-9]{1,9}$/.test(prefix),
        )),
    'bridge.thornode must be {url, chains} (an http URL, THORChain prefixes by chain id)',
  );
  return problems;
}

function isRegtestAddress(value: unknown): boolean {
  return typeof value === 'string' && /^bcrt1[02-9ac-hj-np-z]{39,59}$/.test(value);
}

/**
 * The local Bitcoin chain: its Esplora API is both its signing surface (UTXOs, broadcast, fees) and
 * its status look-up. Its CAIP-2 reference is its API id, as for the local Solana chain: regtest
 * genesis blocks are not one fixed chain.
 */
function devnetBitcoinDescriptor(bitcoin: DevnetBitcoinView): ChainDescriptor {
  return {
    id: bitcoin.id,
    name: bitcoin.name,
    family: 'bitcoin',
    network: 'testnet',
    bitcoinNetwork: bitcoin.network,
    caip2: `bip122:${bitcoin.id}`,
    nativeSymbol: bitcoin.nativeSymbol,
    nativeDecimals: bitcoin.decimals,
    rpcUrl: bitcoin.esploraUrl,
    statusApiUrl: bitcoin.esploraUrl,
    devnet: true,
  };
}

/** The devnet Bitcoin chain's BTC, its only coin; `nobleEnd`: the devnet bridge has its Cosmos (Noble) end. */
function bitcoinDevnetTokens(bitcoin: DevnetBitcoinView, nobleEnd: boolean): ListedToken[] {
  return [
    {
      chain: bitcoin.id,
      symbol: bitcoin.nativeSymbol,
      name: 'Bitcoin',
      decimals: bitcoin.decimals,
      address: null,
      mint: null,
      listIndex: null,
      // THORChain (the devnet's local THORNode) swaps BTC to and from the chains it names; the
      // devnet bridge's Bitcoin end to and from Noble's only.
      bridgedChains: Object.keys(bitcoin.bridge.thornode?.chains ?? {}).length + (nobleEnd ? 1 : 0),
    },
  ];
}

/** The `bitcoin` section in the sections table: its chain and BTC (THORChain its bridge). */
export const bitcoinManifestSection: DevnetManifestSection<DevnetBitcoinView> = {
  problems: bitcoinManifestProblems,
  descriptors: (bitcoin) => [devnetBitcoinDescriptor(bitcoin)],
  listedTokens: (bitcoin, { sectionsWithBridgeEnd }) =>
    bitcoinDevnetTokens(bitcoin, sectionsWithBridgeEnd.has('cosmos')),
};
