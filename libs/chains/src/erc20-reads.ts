import { Interface, type Provider } from 'ethers';
import { addressWord, isAddressWord, selectorOf } from './families/evm/abi-words';

/**
 * The ERC-20 views the services read, through one `Interface` parsed once per process. Building an
 * ethers `Contract` per read parses its ABI each time (about a fifth of signer-surface's busy time
 * under a burst of builds went to that); an `eth_call` with calldata encoded here costs only the
 * encoding.
 */
const ERC20_VIEWS = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
]);

type Erc20View = 'allowance' | 'balanceOf' | 'nonces';

/** Each view's selector, computed once (ethers' encodeFunctionData hashes its signature per call). */
const SELECTORS: Record<Erc20View, string> = {
  allowance: selectorOf(ERC20_VIEWS, 'allowance'),
  balanceOf: selectorOf(ERC20_VIEWS, 'balanceOf'),
  nonces: selectorOf(ERC20_VIEWS, 'nonces'),
};

/** One uint256 word as a view answers it: 0x and 64 hex digits. */
const ONE_WORD = /^0x[0-9a-fA-F]{64}$/;

/**
 * The view's calldata: its selector and its address arguments as ABI words (abi-words.ts); ethers
 * encodes (and refuses) anything that is not a plain address. Its answer: a single word as a
 * uint256; ethers decodes (and refuses) any other answer (`0x` from an address without code).
 */
async function readUint(provider: Provider, token: string, view: Erc20View, args: string[]): Promise<bigint> {
  const data = args.every(isAddressWord)
    ? SELECTORS[view] + args.map(addressWord).join('')
    : ERC20_VIEWS.encodeFunctionData(view, args);
  const result = await provider.call({ to: token, data });
  return ONE_WORD.test(result)
    ? BigInt(result)
    : (ERC20_VIEWS.decodeFunctionResult(view, result)[0] as bigint);
}

/** `token.allowance(owner, spender)`. */
export function readErc20Allowance(
  provider: Provider,
  token: string,
  owner: string,
  spender: string,
): Promise<bigint> {
  return readUint(provider, token, 'allowance', [owner, spender]);
}

/** `token.balanceOf(holder)`, or the native balance when `token` is null. */
export function readEvmBalance(provider: Provider, token: string | null, holder: string): Promise<bigint> {
  if (!token) return provider.getBalance(holder);
  return readUint(provider, token, 'balanceOf', [holder]);
}

/** The EIP-2612 `nonces(owner)` of a permit token. */
export function readPermitNonce(provider: Provider, token: string, owner: string): Promise<bigint> {
  return readUint(provider, token, 'nonces', [owner]);
}
