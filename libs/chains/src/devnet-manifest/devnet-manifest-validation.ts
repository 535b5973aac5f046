import { DEVNET_MANIFEST_SECTIONS } from './devnet-manifest-sections';
import { isAddress, isNonNegativeInteger, isObject } from './manifest-checks';

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
  // Each family's section: required in the complete manifest, checked alike wherever it is there.
  for (const [key, section] of Object.entries(DEVNET_MANIFEST_SECTIONS)) {
    if (complete || value[key] !== undefined) problems.push(...section.problems(value[key]));
  }
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
