import { ContractFactory, getAddress, HDNodeWallet, JsonRpcProvider } from 'ethers';
import { CompiledContract } from '@swapgw/evm-contracts';
import { DevnetError } from '../devnet-error';

export interface CanonicalPlacement {
  /** What it is, for error messages (`UniswapV3Factory`). */
  label: string;
  artifact: CompiledContract;
  constructorArgs?: unknown[];
  /** The mainnet address the contract must answer at. */
  address: string;
  /**
   * The runtime code holds address(this) in an immutable that must name the canonical address
   * (UniswapV3Factory's NoDelegateCall `original`): every occurrence of the temporary address in
   * the runtime code is replaced by the canonical one, and there must be at least one.
   */
  patchSelfAddress?: boolean;
}

interface PrestateDiff {
  post: Record<string, { code?: string; nonce?: number; storage?: Record<string, string> }>;
}

/**
 * Puts a contract at its canonical mainnet address on an anvil chain, constructor effects included:
 * deploys it at a temporary address (CREATE from `deployer`), reads what the constructor wrote
 * (`debug_traceTransaction` with the prestate tracer in diff mode: runtime code, nonce, storage
 * slots), writes the same runtime code, nonce and storage at the canonical address
 * (`anvil_setCode`, `anvil_setNonce`, `anvil_setStorageAt`), then empties the temporary address. The
 * runtime code read back at the canonical address must equal what was written.
 *
 * Immutables keep the values the constructor computed: pass canonical addresses as constructor
 * arguments (Router02's factory and WETH), and use `patchSelfAddress` for an immutable address(this).
 * Code that caches an EIP-712 separator built with address(this) must rebuild it when address(this)
 * differs (OpenZeppelin's EIP712 does); the caller checks the separator at the canonical address.
 */
export async function placeAtCanonicalAddress(
  provider: JsonRpcProvider,
  deployer: HDNodeWallet,
  placement: CanonicalPlacement,
): Promise<void> {
  const canonical = getAddress(placement.address);
  const fail = (what: string) =>
    new DevnetError('DEPLOYMENT_FAILED', `placing ${placement.label} at ${canonical}: ${what}`);
  if ((await provider.getCode(canonical)) !== '0x') throw fail('the address already has code');

  let temporary: string;
  let txHash: string;
  try {
    const contract = await new ContractFactory(
      placement.artifact.abi as never,
      placement.artifact.bytecode,
      deployer,
    ).deploy(...(placement.constructorArgs ?? []));
    const receipt = await contract.deploymentTransaction()?.wait();
    if (!receipt || receipt.status !== 1) throw new Error('deployment reverted');
    temporary = await contract.getAddress();
    txHash = receipt.hash;
  } catch (error) {
    throw fail(`deploying it at a temporary address failed: ${(error as Error).message}`);
  }

  const diff = (await provider.send('debug_traceTransaction', [
    txHash,
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  ])) as PrestateDiff;
  const written = Object.entries(diff.post).find(
    ([address]) => address.toLowerCase() === temporary.toLowerCase(),
  )?.[1];
  if (!written?.code) throw fail('the prestate trace of its deployment shows no code');

  let runtime = written.code.toLowerCase();
  if (placement.patchSelfAddress) {
    const from = temporary.slice(2).toLowerCase();
    if (!runtime.includes(from)) throw fail('its runtime code does not hold its own address to patch');
    runtime = runtime.split(from).join(canonical.slice(2).toLowerCase());
  }
  const storage = Object.entries(written.storage ?? {});
  await provider.send('anvil_setCode', [canonical, runtime]);
  await provider.send('anvil_setNonce', [canonical, toQuantity(written.nonce ?? 1)]);
  for (const [slot, value] of storage) await provider.send('anvil_setStorageAt', [canonical, slot, value]);

  // Nothing answers at the temporary address afterwards: one contract, one address, as on mainnet.
  for (const [slot] of storage) await provider.send('anvil_setStorageAt', [temporary, slot, ZERO_WORD]);
  await provider.send('anvil_setCode', [temporary, '0x']);
  await provider.send('anvil_setNonce', [temporary, '0x0']);

  if ((await provider.getCode(canonical)).toLowerCase() !== runtime) throw fail('the code read back differs');
}

const ZERO_WORD = `0x${'0'.repeat(64)}`;
const toQuantity = (n: number) => `0x${n.toString(16)}`;
