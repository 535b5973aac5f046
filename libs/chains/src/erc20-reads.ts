import { Interface, type Provider } from 'ethers';

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

async function readUint(provider: Provider, token: string, view: Erc20View, args: string[]): Promise<bigint> {
  const data = ERC20_VIEWS.encodeFunctionData(view, args);
  const result = await provider.call({ to: token, data });
  return ERC20_VIEWS.decodeFunctionResult(view, result)[0] as bigint;
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
