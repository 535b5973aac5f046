import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import bs58 from 'bs58';
import { getAddress, hexlify, isAddress } from 'ethers';

// The on-chain format of the devnet USDC bridge's Solana end: what a deposit transaction carries
// (a checked USDC transfer to the vault plus a memo) and how the relayer names releases. Pure
// encoding, shared by signer-surface (builds deposits for users) and libs/devnet (its relayer reads
// them); it lives here so that production code never loads the devnet tooling. Imported as
// @swapgw/chains/solana-bridge, not through the index: only those two need @solana/spl-token.

/**
 * The id the devnet bridge uses for the local Solana chain, as `destinationChainId` of an EVM
 * `depositTo` and as `sourceChainId` of the EVM `release` paying a Solana deposit. Solana has no EVM
 * chain id; 1399811149 is the number some cross-chain APIs use for it, and it differs from every
 * devnet EVM chain id, which is all the bridge needs.
 */
export const SOLANA_BRIDGE_CHAIN_ID = 1399811149;

/** SPL Memo program v3 (in litesvm's default programs, as on every Solana cluster). */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** SPL Memo v1: accepted when reading memos, never used to write them. */
export const MEMO_V1_PROGRAM_ID = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/** What a bridge-related Solana helper needs from the manifest's `solana` section. */
export interface SolanaBridgeManifestView {
  tokens: { USDC: { mint: string; decimals: number } };
  bridge: { vault: string };
}

const DEPOSIT_MEMO = /^swapgw-bridge:v1:(\d{1,20}):(0x[0-9a-fA-F]{40})$/;
const RELEASE_MEMO = /^swapgw-bridge-release:(\d{1,78}):(\d{1,78})$/;

/** The memo that turns a USDC transfer to the vault into a bridge deposit. */
export function solanaBridgeDepositMemo(destinationChainId: number | bigint, recipient: string): string {
  if (!isAddress(recipient)) throw new Error(`bridge recipient ${recipient} is not an EVM address`);
  return `swapgw-bridge:v1:${destinationChainId.toString()}:${getAddress(recipient)}`;
}

/** Parses a deposit memo; undefined when the text is not one (wrong prefix, version, id or address). */
export function parseSolanaBridgeDepositMemo(memo: string): { destinationChainId: bigint; recipient: string } | undefined {
  const match = DEPOSIT_MEMO.exec(memo);
  if (!match) return undefined;
  let recipient: string;
  try {
    // A mixed-case address with a wrong checksum is a typo, not a recipient.
    recipient = getAddress(match[2]);
  } catch {
    return undefined;
  }
  return { destinationChainId: BigInt(match[1]), recipient };
}

/** The memo the bridge authority writes on each release: the on-chain record that makes it idempotent. */
export function solanaBridgeReleaseMemo(sourceChainId: bigint, nonce: bigint): string {
  return `swapgw-bridge-release:${sourceChainId}:${nonce}`;
}

export function parseSolanaBridgeReleaseMemo(memo: string): { sourceChainId: bigint; nonce: bigint } | undefined {
  const match = RELEASE_MEMO.exec(memo);
  return match ? { sourceChainId: BigInt(match[1]), nonce: BigInt(match[2]) } : undefined;
}

/** An SPL Memo v3 instruction; each signer key must sign the transaction (the program checks it). */
export function memoInstruction(text: string, signers: PublicKey[] = []): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: signers.map((pubkey) => ({ pubkey, isSigner: true, isWritable: false })),
    data: Buffer.from(text, 'utf8'),
  });
}

/**
 * The two instructions of a Solana → EVM bridge deposit: a checked transfer of `amount` USDC base
 * units from the user's USDC associated token account to the bridge vault, and the memo naming the
 * destination chain id and EVM recipient, signed by the user. Put them in one (v0 or legacy)
 * transaction paid and signed by `user`; the relayer pays `amount` minus the fee on the destination.
 */
export function solanaBridgeDepositInstructions(input: {
  user: PublicKey;
  amount: bigint;
  destinationChainId: number | bigint;
  recipient: string;
  manifest: SolanaBridgeManifestView;
}): TransactionInstruction[] {
  if (input.amount <= 0n) throw new Error('bridge deposit amount must be positive');
  const mint = new PublicKey(input.manifest.tokens.USDC.mint);
  return [
    createTransferCheckedInstruction(
      getAssociatedTokenAddressSync(mint, input.user, true),
      mint,
      new PublicKey(input.manifest.bridge.vault),
      input.user,
      input.amount,
      input.manifest.tokens.USDC.decimals,
    ),
    memoInstruction(solanaBridgeDepositMemo(input.destinationChainId, input.recipient), [input.user]),
  ];
}

/** A Solana address as the `bytes32 recipient` of the EVM bridge's `depositTo`. */
export function solanaRecipientBytes32(address: string): string {
  return hexlify(new PublicKey(address).toBytes());
}

/** The inverse: the base58 address a `depositTo` recipient names on Solana. */
export function bytes32ToSolanaAddress(recipient: string): string {
  return new PublicKey(Buffer.from(recipient.replace(/^0x/, ''), 'hex')).toBase58();
}

/**
 * The bridge nonce of a Solana deposit: the first 32 bytes of its transaction signature as an
 * unsigned integer. Derived from the deposit alone, so it is the same on every scan and after a
 * relayer restart, and unique because signatures are; the EVM bridge records it as a uint256.
 */
export function solanaDepositNonce(signature: string): bigint {
  const bytes = bs58.decode(signature);
  if (bytes.length !== 64) throw new Error(`${signature} is not a Solana transaction signature`);
  return BigInt(`0x${Buffer.from(bytes.subarray(0, 32)).toString('hex')}`);
}

/** Amount the destination pays for a deposit of `amount`, as the EVM bridge computes it. */
export function amountAfterBridgeFee(amount: bigint, feeBps: number): bigint {
  return amount - (amount * BigInt(feeBps)) / 10_000n;
}
