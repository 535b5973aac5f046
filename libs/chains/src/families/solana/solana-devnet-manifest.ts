import { PublicKey } from '@solana/web3.js';
import { isNonNegativeInteger, isObject } from '../../devnet-manifest/manifest-checks';
import type { ChainDeployments } from '../../catalog/chain-catalog';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { DevnetManifestSection } from '../../devnet-manifest/devnet-manifest-section';
import type { ListedToken } from '../family-traits';

/**
 * The Solana family's section of the devnet manifest (`solana`): its type and its check, registered
 * in devnet-manifest-sections.ts.
 */

/** The manifest's `solana` section: the local Solana chain and its end of the USDC bridge. */
export interface DevnetSolanaView {
  /** API identifier, always `solana-devnet`. */
  id: string;
  name: string;
  family: 'solana';
  rpcUrl: string;
  nativeSymbol: string;
  tokens: { USDC: { mint: string; decimals: number; name: string } };
  accounts: { index: number; address: string }[];
  slotMs: number;
  bridge: {
    /** The id the EVM bridge contracts use for this chain (`depositTo` destinationChainId, deposit memo). */
    chainId: number;
    /** Symbol of the bridged token (USDC). */
    token: string;
    /** USDC token account of the bridge: a Solana deposit is a transfer into it plus a memo. */
    vault: string;
    vaultOwner: string;
    /** Upper bound, either direction, from the deposit to the release. */
    estimatedDurationSeconds: number;
  };
}

export interface DevnetSolanaChain extends SolanaDevnetManifest {
  bridge: SolanaDevnetBridge & {
    /** Upper bound, either direction, from the deposit's receipt to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

/** The `solana` section as the local Solana chain describes itself (startSolanaDevnet). */
export interface SolanaDevnetManifest {
  id: 'solana-devnet';
  name: string;
  family: 'solana';
  rpcUrl: string;
  nativeSymbol: 'SOL';
  tokens: { USDC: { mint: string; decimals: number; name: string } };
  /** Holds the USDC mint authority: the bridge relayer mints on Solana with it. */
  bridgeAuthority: string;
  /** Test wallets 1..9: Keypair.fromSeed(sha256(`swapgw-devnet/solana/wallet/${index}`)). */
  accounts: { index: number; address: string }[];
  /** Wall-clock length of a slot; a transaction is `confirmed` one slot after it executed. */
  slotMs: number;
  bridge: SolanaDevnetBridge;
}

/** Lock-and-release USDC bridge on Solana: deposits lock in the vault, releases pay from it. */
export interface SolanaDevnetBridge {
  /** The id EVM `depositTo`/`release` use for this chain (SOLANA_BRIDGE_CHAIN_ID). */
  chainId: number;
  /** Symbol of the bridged token (USDC). */
  token: string;
  /** The vault: the bridge authority's USDC associated token account. Deposits transfer here. */
  vault: string;
  /** Owner of the vault, signer of every release (the same key as `bridgeAuthority`). */
  vaultOwner: string;
}

/** Structural check of the manifest's `solana` section; one message per problem, empty when valid. */
export function solanaManifestProblems(solana: unknown): string[] {
  if (!isObject(solana)) return ['solana must be an object'];
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => {
    if (!ok) problems.push(`solana.${message}`);
  };
  expect(solana.id === 'solana-devnet', 'id must be solana-devnet');
  expect(solana.family === 'solana', 'family must be solana');
  expect(
    typeof solana.rpcUrl === 'string' && /^https?:\/\//.test(solana.rpcUrl),
    'rpcUrl must be an http(s) URL',
  );
  expect(
    isNonNegativeInteger(solana.slotMs) && (solana.slotMs as number) > 0,
    'slotMs must be a positive integer',
  );
  const usdc = isObject(solana.tokens) ? solana.tokens.USDC : undefined;
  expect(isObject(usdc) && isPublicKey(usdc.mint), 'tokens.USDC.mint must be a base58 public key');
  expect(isObject(usdc) && isNonNegativeInteger(usdc.decimals), 'tokens.USDC.decimals must be an integer');
  expect(isPublicKey(solana.bridgeAuthority), 'bridgeAuthority must be a base58 public key');
  const bridge = solana.bridge;
  if (!isObject(bridge)) {
    problems.push('solana.bridge must be an object');
  } else {
    expect(isNonNegativeInteger(bridge.chainId), 'bridge.chainId must be an integer');
    expect(typeof bridge.token === 'string', 'bridge.token must be a token symbol');
    expect(isPublicKey(bridge.vault), 'bridge.vault must be a base58 public key');
    expect(isPublicKey(bridge.vaultOwner), 'bridge.vaultOwner must be a base58 public key');
    expect(
      isNonNegativeInteger(bridge.estimatedDurationSeconds),
      'bridge.estimatedDurationSeconds must be a non-negative integer',
    );
  }
  if (!Array.isArray(solana.accounts)) {
    problems.push('solana.accounts must be an array');
  } else {
    solana.accounts.forEach((account, i) => {
      expect(
        isObject(account) && isNonNegativeInteger(account.index),
        `accounts[${i}].index must be a non-negative integer`,
      );
      expect(
        isObject(account) && isPublicKey(account.address),
        `accounts[${i}].address must be a base58 public key`,
      );
    });
  }
  return problems;
}

function isPublicKey(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return new PublicKey(value).toBase58() === value;
  } catch {
    return false;
  }
}

/**
 * The local Solana chain. Its CAIP-2 reference is its API id: the local ledger's genesis hash is
 * not fixed, and a distinct reference keeps it apart from Solana's public devnet.
 */
function devnetSolanaDescriptor(solana: DevnetSolanaView): ChainDescriptor {
  return {
    id: solana.id,
    name: solana.name,
    family: 'solana',
    network: 'testnet',
    caip2: `solana:${solana.id}`,
    nativeSymbol: solana.nativeSymbol,
    nativeDecimals: 9,
    rpcUrl: solana.rpcUrl,
    devnet: true,
  };
}

function devnetSolanaDeployments(solana: DevnetSolanaView): ChainDeployments {
  return {
    chain: solana.id,
    tokens: Object.entries(solana.tokens).map(([symbol, token]) => ({
      symbol,
      name: token.name,
      address: token.mint,
      decimals: token.decimals,
    })),
  };
}

/** The devnet Solana chain's SOL and mints; the bridge's token reaches every other bridge end. */
function solanaDevnetTokens(
  solana: DevnetSolanaView,
  descriptor: ChainDescriptor,
  bridgeEnds: number,
): ListedToken[] {
  return [
    {
      chain: solana.id,
      symbol: solana.nativeSymbol,
      name: 'Solana',
      decimals: descriptor.nativeDecimals,
      address: null,
      mint: null,
      listIndex: null,
      bridgedChains: 0,
    },
    ...Object.entries(solana.tokens).map(([symbol, token], index) => ({
      chain: solana.id,
      symbol,
      name: token.name,
      decimals: token.decimals,
      address: null,
      mint: token.mint,
      listIndex: index,
      bridgedChains: solana.bridge.token === symbol ? bridgeEnds - 1 : 0,
    })),
  ];
}

/** The `solana` section in the sections table: its chain, its mints, one end of the devnet bridge. */
export const solanaManifestSection: DevnetManifestSection<DevnetSolanaView> = {
  problems: solanaManifestProblems,
  descriptors: (solana) => [devnetSolanaDescriptor(solana)],
  deployments: (solana) => [devnetSolanaDeployments(solana)],
  bridgeEnds: () => 1,
  listedTokens: (solana, { chain, bridgeEnds }) => solanaDevnetTokens(solana, chain(solana.id), bridgeEnds),
};
