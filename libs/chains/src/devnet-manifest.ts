import fs from 'node:fs';

/** Where `npm run devnet` writes the manifest unless DEVNET_MANIFEST says otherwise. */
export const DEFAULT_DEVNET_MANIFEST = '.run/devnet/manifest.json';

/**
 * The part of the devnet manifest (written by libs/devnet) that services read. Declared here, not
 * imported from @swapgw/devnet, so that services do not load the devnet tooling (anvil, solc).
 */
export interface DevnetManifestView {
  generatedAtMs: number;
  /** Devnet EVM chains; empty in a manifest that brings no devnet chains (the mainnet replica's). */
  chains: DevnetChainView[];
  /** The devnet bridge between the chains; absent exactly when there are no devnet chains. */
  bridge?: { provider: string; feeBps: number; estimatedDurationSeconds: number; relayer: string };
  accounts: { index: number; address: string }[];
  /** The local Solana chain (`solana-devnet`); absent in manifests written before it existed. */
  solana?: DevnetSolanaView;
  /** The local Bitcoin chain (`bitcoin-devnet`); absent in manifests written before it existed. */
  bitcoin?: DevnetBitcoinView;
}

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
  };
}

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

export interface DevnetChainView {
  id: string;
  name: string;
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<
    string,
    {
      address: string;
      decimals: number;
      name: string;
      permit?: boolean;
      permitVersion?: string;
      /** Known untaxed and unrestricted: quote-service skips its token-tax probe. */
      verified?: boolean;
    }
  >;
  uniswapV2: { factory: string; router: string; initCodeHash: string; pairs: Record<string, string> };
  bridge: { address: string; token: string };
  /**
   * Permit2 and the permit-aware SwapGatewayRouter (spender of both kinds of permit, in front of
   * `uniswapV2.router` and `bridge`); absent in manifests written before they were deployed.
   */
  permits?: { permit2: string; permitRouter: string };
}

export class DevnetManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevnetManifestError';
  }
}

/** Reads the manifest; throws DevnetManifestError naming the path and the problem. */
export function readDevnetManifest(manifestPath: string): DevnetManifestView {
  let text: string;
  try {
    text = fs.readFileSync(manifestPath, 'utf8');
  } catch (error) {
    throw new DevnetManifestError(
      `Cannot read the devnet manifest at ${manifestPath}: ${(error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DevnetManifestError(
      `The devnet manifest at ${manifestPath} is not JSON: ${(error as Error).message}`,
    );
  }
  const manifest = parsed as Partial<DevnetManifestView>;
  if (!Array.isArray(manifest.chains)) {
    throw new DevnetManifestError(`The devnet manifest at ${manifestPath} lacks chains`);
  }
  const hasDevnetChains = manifest.chains.length > 0 || manifest.solana !== undefined;
  if (hasDevnetChains && (!manifest.bridge || typeof manifest.bridge.feeBps !== 'number')) {
    throw new DevnetManifestError(`The devnet manifest at ${manifestPath} has chains but no bridge`);
  }
  for (const chain of manifest.chains) {
    if (
      !chain ||
      typeof chain.id !== 'string' ||
      typeof chain.chainId !== 'number' ||
      typeof chain.rpcUrl !== 'string'
    ) {
      throw new DevnetManifestError(
        `The devnet manifest at ${manifestPath} has a chain without id, chainId or rpcUrl`,
      );
    }
  }
  const solana = manifest.solana;
  if (solana !== undefined) {
    if (
      !solana ||
      typeof solana.id !== 'string' ||
      typeof solana.rpcUrl !== 'string' ||
      typeof solana.tokens?.USDC?.mint !== 'string' ||
      typeof solana.bridge?.vault !== 'string'
    ) {
      throw new DevnetManifestError(
        `The devnet manifest at ${manifestPath} has a solana section without id, rpcUrl, tokens.USDC.mint or bridge.vault`,
      );
    }
  }
  const bitcoin = manifest.bitcoin;
  if (bitcoin !== undefined) {
    if (
      !bitcoin ||
      bitcoin.id !== 'bitcoin-devnet' ||
      bitcoin.network !== 'regtest' ||
      typeof bitcoin.esploraUrl !== 'string' ||
      !/^https?:\/\/.*[^/]$/.test(bitcoin.esploraUrl) ||
      !Array.isArray(bitcoin.accounts) ||
      !Array.isArray(bitcoin.feeWallets) ||
      typeof bitcoin.bridge?.vault !== 'string' ||
      typeof bitcoin.bridge?.chainId !== 'number' ||
      typeof bitcoin.bridge?.usdcPerBtc !== 'number' ||
      typeof bitcoin.bridge?.feeBps !== 'number' ||
      typeof bitcoin.bridge?.outboundFeeSats !== 'number'
    ) {
      throw new DevnetManifestError(
        `The devnet manifest at ${manifestPath} has a bitcoin section without id bitcoin-devnet, network regtest, esploraUrl (no trailing slash), accounts, feeWallets or bridge (vault, chainId, usdcPerBtc, feeBps, outboundFeeSats)`,
      );
    }
  }
  return manifest as DevnetManifestView;
}
