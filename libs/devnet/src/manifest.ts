import fs from 'node:fs';
import path from 'node:path';
import { PublicKey } from '@solana/web3.js';
import { DevnetError } from './devnet-error';
import type { SolanaDevnetBridge, SolanaDevnetManifest } from './solana/solana-devnet';
import type { BitcoinDevnetBridge, BitcoinDevnetManifest } from './bitcoin/bitcoin-devnet';

/**
 * The devnet manifest: everything a service or a test needs to talk to the local chains. Written
 * by `startDevnet`, read by services through libs/chains (`DEVNET_MANIFEST`).
 */
export interface DevnetManifest {
  generatedAtMs: number;
  /** The standard anvil test mnemonic; accounts derive at m/44'/60'/0'/0/<index>. */
  mnemonic: string;
  chains: DevnetChain[];
  bridge: DevnetBridgeInfo;
  /** Accounts 1-9: funded with ETH, WETH, USDC and DAI on every chain, for trying swaps. */
  accounts: DevnetAccount[];
  /**
   * The local Solana chain (`solana-devnet`), beside `chains` so EVM readers are unchanged. Its test
   * wallets are Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")).
   */
  solana: DevnetSolanaChain;
  /**
   * The local Bitcoin chain (`bitcoin-devnet`, regtest) behind an Esplora API. Its wallets are BIP84
   * keys of the mnemonic: test wallets m/84'/1'/0'/0/<index>, fee wallets m/84'/1'/1'/0/<index>, the
   * bridge vault m/84'/1'/2'/0/0 (libs/devnet/src/bitcoin/bitcoin-keys.ts).
   */
  bitcoin: DevnetBitcoinChain;
}

export interface DevnetBitcoinChain extends BitcoinDevnetManifest {
  bridge: BitcoinDevnetBridge & {
    /** Upper bound, either direction, from the deposit's broadcast to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

/**
 * The manifest `startMainnetReplica` writes: no devnet chains (`chains` is empty, no `bridge`, no
 * top-level `solana`), so services reading it as a devnet manifest see none; they reach the
 * replica's chains as they reach mainnet, through RPC_URL_ETHEREUM / _BASE / _ARBITRUM / _SOLANA.
 */
export interface MainnetReplicaManifest {
  generatedAtMs: number;
  chains: [];
  /** Accounts 1-9 of the anvil test mnemonic: ETH, USDC and WETH on every EVM replica. */
  accounts: DevnetAccount[];
  mainnetReplica: MainnetReplicaChains;
}

export interface MainnetReplicaChains {
  evm: MainnetReplicaEvmChain[];
  solana: MainnetReplicaSolanaChain;
  /**
   * Across's API on the replica (`GET <acrossApiUrl>/suggested-fees`, as https://app.across.to/api),
   * quoting what the replica's filler fills: quote-service's ACROSS_API_URL.
   */
  acrossApiUrl: string;
}

/** An anvil chain with a real network's chain id and its contracts at their canonical addresses. */
export interface MainnetReplicaEvmChain {
  /** API id of the real network it replicates (`ethereum`, `base`, `arbitrum`). */
  id: string;
  chainId: number;
  rpcUrl: string;
}

export interface MainnetReplicaSolanaChain {
  id: 'solana';
  rpcUrl: string;
  /** Test wallets 1-9, Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")), as on the devnet. */
  accounts: DevnetAccount[];
}

export interface DevnetSolanaChain extends SolanaDevnetManifest {
  bridge: SolanaDevnetBridge & {
    /** Upper bound, either direction, from the deposit's receipt to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

export type DevnetChainId = 'devnet-a' | 'devnet-b';
export type DevnetTokenSymbol = 'USDC' | 'DAI' | 'WETH' | 'TAX';
export type DevnetPairName = 'WETH/USDC' | 'WETH/DAI' | 'USDC/DAI' | 'TAX/USDC';

export interface DevnetChain {
  /** API chain identifier, e.g. `devnet-a`. */
  id: string;
  name: string;
  /** EVM chain id, e.g. 31337. */
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<string, DevnetToken>;
  uniswapV2: DevnetUniswapV2;
  bridge: DevnetChainBridge;
  permits: DevnetChainPermits;
}

/**
 * Contracts that take a permit instead of an approval: the swap or bridge deposit carries the
 * user's signature, so the first leg is one transaction.
 */
export interface DevnetChainPermits {
  /** Permit2 (SignatureTransfer; signature-compatible with Uniswap's). Owners approve it once per token. */
  permit2: string;
  /**
   * SwapGatewayRouter: pulls the input with an EIP-2612 permit or a Permit2 transfer and performs
   * the leg (`uniswapV2.router` swap or `bridge` deposit). The spender of both kinds of permit.
   */
  permitRouter: string;
}

export interface DevnetToken {
  address: string;
  decimals: number;
  name: string;
  /** Whether the token implements EIP-2612 `permit`. */
  permit: boolean;
  /** EIP-712 domain version of the permit (present when `permit` is true). */
  permitVersion?: string;
  /**
   * Known to move without a tax or restriction (USDC, DAI, WETH): quote-service skips its tax
   * check. Absent (TAX): every quote's route is checked on chain (quote-service's token-tax probe).
   */
  verified?: boolean;
}

export interface DevnetUniswapV2 {
  factory: string;
  router: string;
  /** keccak256 of the pair creation code, as hard-coded in the router's library. */
  initCodeHash: string;
  /** Pair contract addresses keyed `A/B` (the order is the manifest's, not the pair's token0/1). */
  pairs: Record<string, string>;
}

export interface DevnetChainBridge {
  address: string;
  /** Symbol of the bridged token (USDC). */
  token: string;
}

export interface DevnetBridgeInfo {
  provider: string;
  /** Fee kept by the bridge on deposit, in basis points of the deposited amount. */
  feeBps: number;
  /** Upper bound, measured, from the deposit receipt to the release on the destination. */
  estimatedDurationSeconds: number;
  /** The only address allowed to call `release`. */
  relayer: string;
}

export interface DevnetAccount {
  index: number;
  address: string;
}

/** Reads and checks a manifest written by `startDevnet`; the error names the offending field. */
export function loadDevnetManifest(manifestPath: string): DevnetManifest {
  let text: string;
  try {
    text = fs.readFileSync(manifestPath, 'utf8');
  } catch (error) {
    throw new DevnetError(
      'MANIFEST_UNREADABLE',
      `Cannot read the devnet manifest at ${manifestPath}: ${(error as Error).message}. Start the devnet first (npm run devnet).`,
      { manifestPath },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DevnetError(
      'MANIFEST_INVALID',
      `The devnet manifest at ${manifestPath} is not JSON: ${(error as Error).message}`,
      {
        manifestPath,
      },
    );
  }
  const problems = manifestProblems(parsed);
  if (problems.length > 0) {
    throw new DevnetError(
      'MANIFEST_INVALID',
      `The devnet manifest at ${manifestPath} is invalid: ${problems.join('; ')}`,
      {
        manifestPath,
        problems,
      },
    );
  }
  return parsed as DevnetManifest;
}

/** Writes the manifest atomically (temp file + rename) so a reader never sees half a file. */
export function writeDevnetManifest(
  manifestPath: string,
  manifest: DevnetManifest | MainnetReplicaManifest,
): void {
  fs.mkdirSync(path.dirname(path.resolve(manifestPath)), { recursive: true });
  const temp = `${manifestPath}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(manifest, null, 2) + '\n');
  fs.renameSync(temp, manifestPath);
}

/** Removes the manifest at `manifestPath` if it is still the one written at `generatedAtMs`. */
export function removeManifestIfWrittenAt(manifestPath: string, generatedAtMs: number): void {
  try {
    const current = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { generatedAtMs?: number };
    if (current.generatedAtMs === generatedAtMs) fs.rmSync(manifestPath, { force: true });
  } catch {
    // Already gone or replaced by another run: nothing of ours to remove.
  }
}

/** Finds a chain by its API identifier (`devnet-a`), or throws naming the known ones. */
export function devnetChain(manifest: DevnetManifest, id: string): DevnetChain {
  const chain = manifest.chains.find((c) => c.id === id);
  if (!chain) {
    throw new DevnetError(
      'MANIFEST_INVALID',
      `Chain ${id} is not in the devnet manifest (has ${manifest.chains.map((c) => c.id).join(', ')})`,
    );
  }
  return chain;
}

/** Structural check of a parsed manifest; returns one message per problem, empty when valid. */
export function manifestProblems(value: unknown): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => {
    if (!ok) problems.push(message);
  };
  if (!isObject(value)) return ['the manifest is not an object'];
  expect(typeof value.generatedAtMs === 'number', 'generatedAtMs must be a number');
  expect(
    typeof value.mnemonic === 'string' && value.mnemonic.split(' ').length >= 12,
    'mnemonic must be a 12+ word phrase',
  );
  if (!Array.isArray(value.chains) || value.chains.length === 0) {
    problems.push('chains must be a non-empty array');
  } else {
    value.chains.forEach((chain, i) => problems.push(...chainProblems(chain, `chains[${i}]`)));
  }
  if (!isObject(value.bridge)) {
    problems.push('bridge must be an object');
  } else {
    const bridge = value.bridge;
    expect(typeof bridge.provider === 'string', 'bridge.provider must be a string');
    expect(
      isNonNegativeInteger(bridge.feeBps) && (bridge.feeBps as number) < 10_000,
      'bridge.feeBps must be an integer in [0, 10000)',
    );
    expect(
      isNonNegativeInteger(bridge.estimatedDurationSeconds),
      'bridge.estimatedDurationSeconds must be a non-negative integer',
    );
    expect(isAddress(bridge.relayer), 'bridge.relayer must be an address');
  }
  problems.push(...solanaProblems(value.solana));
  problems.push(...bitcoinProblems(value.bitcoin));
  if (!Array.isArray(value.accounts)) {
    problems.push('accounts must be an array');
  } else {
    value.accounts.forEach((account, i) => {
      expect(
        isObject(account) && isNonNegativeInteger(account.index),
        `accounts[${i}].index must be a non-negative integer`,
      );
      expect(isObject(account) && isAddress(account.address), `accounts[${i}].address must be an address`);
    });
  }
  return problems;
}

function chainProblems(chain: unknown, at: string): string[] {
  if (!isObject(chain)) return [`${at} must be an object`];
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => {
    if (!ok) problems.push(`${at}.${message}`);
  };
  expect(typeof chain.id === 'string' && chain.id.length > 0, 'id must be a non-empty string');
  expect(typeof chain.name === 'string', 'name must be a string');
  expect(isNonNegativeInteger(chain.chainId), 'chainId must be an integer');
  expect(
    typeof chain.rpcUrl === 'string' && /^https?:\/\//.test(chain.rpcUrl),
    'rpcUrl must be an http(s) URL',
  );
  expect(typeof chain.nativeSymbol === 'string', 'nativeSymbol must be a string');
  if (!isObject(chain.tokens)) {
    problems.push(`${at}.tokens must be an object`);
  } else {
    for (const [symbol, token] of Object.entries(chain.tokens)) {
      expect(isObject(token) && isAddress(token.address), `tokens.${symbol}.address must be an address`);
      expect(
        isObject(token) && isNonNegativeInteger(token.decimals),
        `tokens.${symbol}.decimals must be an integer`,
      );
      expect(
        isObject(token) && typeof token.permit === 'boolean',
        `tokens.${symbol}.permit must be a boolean`,
      );
      expect(
        isObject(token) && (token.verified === undefined || typeof token.verified === 'boolean'),
        `tokens.${symbol}.verified must be a boolean when present`,
      );
    }
  }
  const uni = chain.uniswapV2;
  if (!isObject(uni)) {
    problems.push(`${at}.uniswapV2 must be an object`);
  } else {
    expect(isAddress(uni.factory), 'uniswapV2.factory must be an address');
    expect(isAddress(uni.router), 'uniswapV2.router must be an address');
    expect(
      typeof uni.initCodeHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(uni.initCodeHash),
      'uniswapV2.initCodeHash must be a 32-byte hex',
    );
    expect(
      isObject(uni.pairs) && Object.values(uni.pairs).every(isAddress),
      'uniswapV2.pairs must map names to addresses',
    );
  }
  const bridge = chain.bridge;
  expect(isObject(bridge) && isAddress(bridge.address), 'bridge.address must be an address');
  expect(isObject(bridge) && typeof bridge.token === 'string', 'bridge.token must be a token symbol');
  const permits = chain.permits;
  expect(isObject(permits) && isAddress(permits.permit2), 'permits.permit2 must be an address');
  expect(isObject(permits) && isAddress(permits.permitRouter), 'permits.permitRouter must be an address');
  return problems;
}

function solanaProblems(solana: unknown): string[] {
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

function bitcoinProblems(bitcoin: unknown): string[] {
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
  return problems;
}

function isRegtestAddress(value: unknown): boolean {
  return typeof value === 'string' && /^bcrt1[02-9ac-hj-np-z]{39,59}$/.test(value);
}

function isPublicKey(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return false;
  try {
    return new PublicKey(value).toBase58() === value;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAddress(value: unknown): boolean {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value);
}

function isNonNegativeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
