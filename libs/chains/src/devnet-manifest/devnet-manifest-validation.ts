import { PublicKey } from '@solana/web3.js';

/**
 * Which manifest is checked: `complete`, the one `startDevnet` writes (DevnetManifest: every section
 * there); `view`, any manifest a service may be given (DevnetManifestView): the mainnet replica's (no
 * devnet chains, no bridge, no mnemonic) and ones written before a section existed (no solana,
 * bitcoin, permits or token `permit`). A section that is there is checked alike in both.
 */
export type DevnetManifestCheck = 'complete' | 'view';

/** Structural check of a parsed manifest; returns one message per problem, empty when valid. */
export function devnetManifestProblems(value: unknown, check: DevnetManifestCheck = 'complete'): string[] {
  const complete = check === 'complete';
  const problems: string[] = [];
  const expect = (ok: boolean, message: string) => {
    if (!ok) problems.push(message);
  };
  if (!isObject(value)) return ['the manifest is not an object'];
  expect(typeof value.generatedAtMs === 'number', 'generatedAtMs must be a number');
  if (complete || value.mnemonic !== undefined) {
    expect(
      typeof value.mnemonic === 'string' && value.mnemonic.split(' ').length >= 12,
      'mnemonic must be a 12+ word phrase',
    );
  }
  if (!Array.isArray(value.chains) || (complete && value.chains.length === 0)) {
    problems.push(complete ? 'chains must be a non-empty array' : 'chains must be an array');
  } else {
    value.chains.forEach((chain, i) => problems.push(...chainProblems(chain, `chains[${i}]`, complete)));
  }
  const hasDevnetChains =
    complete || (Array.isArray(value.chains) && value.chains.length > 0) || value.solana !== undefined;
  if (!isObject(value.bridge)) {
    if (!complete && hasDevnetChains && value.bridge === undefined) {
      problems.push('bridge must be an object: the manifest has chains but no bridge');
    } else if (hasDevnetChains || value.bridge !== undefined) {
      problems.push('bridge must be an object');
    }
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
  if (complete || value.solana !== undefined) problems.push(...solanaProblems(value.solana));
  if (complete || value.bitcoin !== undefined) problems.push(...bitcoinProblems(value.bitcoin));
  if (complete || value.cosmos !== undefined) problems.push(...cosmosProblems(value.cosmos));
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

function chainProblems(chain: unknown, at: string, complete: boolean): string[] {
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
        isObject(token) && (typeof token.permit === 'boolean' || (!complete && token.permit === undefined)),
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
  if (!complete && permits === undefined) return problems;
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

function cosmosProblems(cosmos: unknown): string[] {
  if (!Array.isArray(cosmos)) return ['cosmos must be an array'];
  return cosmos.flatMap((chain, i) => {
    const at = `cosmos[${i}]`;
    if (!isObject(chain)) return [`${at} must be an object`];
    const problems: string[] = [];
    const expect = (ok: boolean, message: string) => {
      if (!ok) problems.push(`${at}.${message}`);
    };
    const isUrl = (url: unknown) => typeof url === 'string' && /^https?:\/\/[^/]+(\/[^/]+)*$/.test(url);
    expect(typeof chain.id === 'string' && chain.id.length > 0, 'id must be a non-empty string');
    expect(typeof chain.name === 'string', 'name must be a string');
    expect(chain.family === 'cosmos', 'family must be cosmos');
    expect(
      typeof chain.chainId === 'string' && chain.chainId.length > 0,
      'chainId must be a non-empty string',
    );
    expect(isUrl(chain.rpc), 'rpc must be an http(s) URL without a trailing slash');
    expect(isUrl(chain.rest), 'rest must be an http(s) URL without a trailing slash');
    const prefix = chain.bech32Prefix;
    expect(typeof prefix === 'string' && /^[a-z]+$/.test(prefix), 'bech32Prefix must be lowercase letters');
    expect(
      typeof chain.nativeDenom === 'string' && chain.nativeDenom.length > 0,
      'nativeDenom must be a denom',
    );
    expect(typeof chain.nativeSymbol === 'string', 'nativeSymbol must be a string');
    expect(isNonNegativeInteger(chain.decimals), 'decimals must be an integer');
    expect(
      typeof chain.minGasPrice === 'string' &&
        /^[0-9]+(\.[0-9]+)?[a-zA-Z][a-zA-Z0-9/]*$/.test(chain.minGasPrice),
      'minGasPrice must be a decimal coin (0.005uatom)',
    );
    expect(
      isNonNegativeInteger(chain.blockMs) && (chain.blockMs as number) > 0,
      'blockMs must be a positive integer',
    );
    const channels = chain.ibcChannels;
    expect(
      isObject(channels) &&
        Object.values(channels).every((id) => typeof id === 'string' && /^channel-\d+$/.test(id)),
      'ibcChannels must map counterparty chain ids to channel ids (channel-0)',
    );
    const contract = chain.crosschainSwapsContract;
    expect(
      contract === undefined ||
        (typeof prefix === 'string' &&
          typeof contract === 'string' &&
          new RegExp(`^${prefix}1[02-9ac-hj-np-z]{38,58}$`).test(contract)),
      "crosschainSwapsContract must be a bech32 address of the chain's prefix",
    );
    const bridge = chain.bridge;
    expect(
      bridge === undefined ||
        (isObject(bridge) &&
          isNonNegativeInteger(bridge.chainId) &&
          typeof bridge.token === 'string' &&
          typeof bridge.denom === 'string' &&
          bridge.denom.length > 0 &&
          typeof bridge.moduleAddress === 'string' &&
          isNonNegativeInteger(bridge.estimatedDurationSeconds)),
      'bridge must be {chainId, token, denom, moduleAddress, estimatedDurationSeconds}',
    );
    if (!Array.isArray(chain.accounts)) {
      problems.push(`${at}.accounts must be an array`);
    } else {
      chain.accounts.forEach((account, j) => {
        expect(
          isObject(account) && isNonNegativeInteger(account.index),
          `accounts[${j}].index must be a non-negative integer`,
        );
        expect(
          isObject(account) &&
            typeof prefix === 'string' &&
            typeof account.address === 'string' &&
            account.address.startsWith(`${prefix}1`),
          `accounts[${j}].address must be a bech32 address of the chain's prefix`,
        );
      });
    }
    return problems;
  });
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
