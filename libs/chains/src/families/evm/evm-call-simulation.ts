import { AbiCoder, type JsonRpcProvider, keccak256, toBeHex, toQuantity, zeroPadValue } from 'ethers';
import { decodeRevertData, isRpcUnreachable, revertDataOf, shortMessageOf } from './evm-chain-errors';

/** The transaction a wallet would send, as `eth_call` runs it. */
export interface SimulatedEvmCall {
  from: string;
  to: string;
  data: string;
  /** wei, decimal string or bigint */
  value: string | bigint;
}

/** `eth_call`'s third parameter: per account, storage slots to read as given (geth and anvil). */
export type EvmStateOverride = Record<string, { stateDiff: Record<string, string> }>;

export type EvmSimulation =
  | { kind: 'ok' }
  | { kind: 'reverted'; reason: string; data?: string }
  /** The node failed, did not answer, or refused the call itself (not a revert): nothing is known. */
  | { kind: 'unavailable'; reason: string };

/**
 * Runs `call` with `eth_call` on the latest block, with `override` applied, and says whether it
 * reverts (with the decoded reason) or could not be run. Never throws.
 */
export async function simulateEvmCall(
  provider: JsonRpcProvider,
  call: SimulatedEvmCall,
  override?: EvmStateOverride,
): Promise<EvmSimulation> {
  const tx = { from: call.from, to: call.to, data: call.data, value: toQuantity(BigInt(call.value)) };
  try {
    await provider.send('eth_call', override ? [tx, 'latest', override] : [tx, 'latest']);
    return { kind: 'ok' };
  } catch (error) {
    if (isRpcUnreachable(error)) return { kind: 'unavailable', reason: shortMessageOf(error) };
    const revert = revertDataOf(error);
    if (!revert) return { kind: 'unavailable', reason: shortMessageOf(error) };
    const reason = revert.data ? decodeRevertData(revert.data) : messageReason(error);
    return { kind: 'reverted', reason, ...(revert.data ? { data: revert.data } : {}) };
  }
}

/** A revert without data: the node's words after "execution reverted", if any. */
function messageReason(error: unknown): string {
  const message = shortMessageOf(error);
  const match = /execution reverted:?\s*(.*)$/i.exec(message);
  return match && match[1] ? match[1] : 'execution reverted (no reason given)';
}

/**
 * Where ERC-20 compilers keep `allowance(owner, spender)` when the mapping is declared at `index`:
 * Solidity `keccak(spender . keccak(owner . index))`, Vyper `keccak(keccak(index . owner) . spender)`.
 */
export function allowanceSlotsOf(owner: string, spender: string, index: number): string[] {
  // The ABI encoding of each pair, written as words: the hot path of every preflight simulation.
  const ownerWord = wordOf(owner);
  const spenderWord = wordOf(spender);
  const indexWord = index.toString(16).padStart(64, '0');
  const solidity = keccak256(`0x${spenderWord}${keccak256(`0x${ownerWord}${indexWord}`).slice(2)}`);
  const vyper = keccak256(`0x${keccak256(`0x${indexWord}${ownerWord}`).slice(2)}${spenderWord}`);
  return [solidity, vyper];
}

/** An address as one ABI word: 32 bytes, left-padded, no 0x. */
function wordOf(address: string): string {
  return address.slice(2).toLowerCase().padStart(64, '0');
}

/** How many declaration slots are tried: ERC-20s keep their allowances in one of the first few (USDC: 10). */
const ALLOWANCE_SLOT_CANDIDATES = 24;

/**
 * A state override giving `owner`'s allowance of `token` to `spender` the value `amount`, without
 * knowing the token's storage layout: every candidate slot of a Solidity or Vyper mapping is set (a
 * mapping slot is a hash, so setting the ones the token does not use changes nothing it reads).
 * Whether it took is for the caller to check (`allowance()` under the same override).
 */
export function allowanceStateOverride(
  token: string,
  owner: string,
  spender: string,
  amount: bigint,
): EvmStateOverride {
  const value = zeroPadValue(toBeHex(amount), 32);
  const stateDiff: Record<string, string> = {};
  for (const slot of candidateAllowanceSlots(owner, spender)) stateDiff[slot] = value;
  return { [token]: { stateDiff } };
}

/** The most owner/spender pairs whose candidate slots are kept (each 48 hashes to compute). */
const SLOT_PAIRS_KEPT = 10_000;
const slotsByPair = new Map<string, readonly string[]>();

/** Every candidate slot of `owner`'s allowance to `spender`, computed once per pair while kept. */
function candidateAllowanceSlots(owner: string, spender: string): readonly string[] {
  const key = `${owner.toLowerCase()}:${spender.toLowerCase()}`;
  let slots = slotsByPair.get(key);
  if (!slots) {
    const computed: string[] = [];
    for (let index = 0; index < ALLOWANCE_SLOT_CANDIDATES; index++)
      computed.push(...allowanceSlotsOf(owner, spender, index));
    if (slotsByPair.size >= SLOT_PAIRS_KEPT) slotsByPair.clear();
    slotsByPair.set(key, computed);
    slots = computed;
  }
  return slots;
}

/** `allowance(owner, spender)` under `override` (to check an allowanceStateOverride took); throws on RPC errors. */
export async function readAllowanceWithOverride(
  provider: JsonRpcProvider,
  token: string,
  owner: string,
  spender: string,
  override: EvmStateOverride,
): Promise<bigint> {
  const coder = AbiCoder.defaultAbiCoder();
  const data = `0xdd62ed3e${coder.encode(['address', 'address'], [owner, spender]).slice(2)}`;
  const result = (await provider.send('eth_call', [{ to: token, data }, 'latest', override])) as string;
  return BigInt(coder.decode(['uint256'], result)[0] as bigint);
}
