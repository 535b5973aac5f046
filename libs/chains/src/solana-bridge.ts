import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import bs58 from 'bs58';
import { getAddress, hexlify, isAddress, ZeroAddress } from 'ethers';
import { BITCOIN_ADDRESS_PATTERN } from '@swapgw/contracts';
import { encodeBridgeSwapMessage } from './sponsored-intents/bridge-message';
import { BITCOIN_BRIDGE_CHAIN_ID, isBitcoinBridgeRecipient } from './bitcoin-bridge';
import { isCosmosAddress } from './families/cosmos/cosmos-address';
import { NOBLE_BECH32_PREFIX, NOBLE_BRIDGE_CHAIN_ID } from './families/cosmos/cctp-domains';

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

const EVM_ADDRESS = '0x[0-9a-fA-F]{40}';
const UINT = '0|[1-9][0-9]{0,77}';
/** A bech32 account of 20 bytes (32 data characters and 6 of checksum), in lower case. */
const COSMOS_ACCOUNT = '[a-z]{1,30}1[02-9ac-hj-np-z]{38}';
/** Hops of a message's path, as the SwapGatewayRouter bounds them (MAX_PATH_LENGTH). */
const MAX_PATH_LENGTH = 8;
const DEPOSIT_MEMO = new RegExp(
  `^swapgw-bridge:v1:(\\d{1,20}):(${EVM_ADDRESS}|${BITCOIN_ADDRESS_PATTERN}|${COSMOS_ACCOUNT})` +
    `(?::swap:(${EVM_ADDRESS}):((?:${EVM_ADDRESS},){1,${MAX_PATH_LENGTH - 1}}${EVM_ADDRESS}):(${UINT}):(${EVM_ADDRESS}):([01]):(${UINT}))?$`,
);
const RELEASE_MEMO = /^swapgw-bridge-release:(\d{1,78}):(\d{1,78})$/;
const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * The swap a Solana deposit hands to its EVM recipient, the destination chain's SwapGatewayRouter:
 * what the message of a BridgeSwapIntent deposit carries (path, minimum out, final recipient,
 * unwrapNative, deadline). The relayer releases such a deposit with releaseWithMessage and
 * solanaBridgeSwapMessageBytes(message), so the router's onBridgeRelease swaps it as it swaps an EVM
 * bridge-and-swap deposit, or pays the recipient the bridged USDC when the swap cannot happen.
 */
export interface SolanaBridgeSwapMessage {
  /** The destination chain's Uniswap V2 Router02, through which its router swaps. */
  venue: string;
  /** Uniswap V2 path on the destination chain; path[0] is the bridged token there. */
  path: string[];
  amountOutMin: bigint;
  /** The final recipient: of the swap's output, or of the bridged tokens when it cannot happen. */
  recipient: string;
  /** The path ends with WETH and the recipient gets native ETH. */
  unwrapNative: boolean;
  /** Seconds since epoch; after it the router pays the bridged tokens. */
  deadline: bigint;
}

/** What a deposit memo says. */
export interface SolanaBridgeDeposit {
  destinationChainId: bigint;
  /**
   * The EVM address paid on the destination (with a message, the contract that receives it); when
   * the destination is Bitcoin (BITCOIN_BRIDGE_CHAIN_ID), a P2WPKH or P2TR address paid BTC; when it
   * is Noble (NOBLE_BRIDGE_CHAIN_ID, its CCTP domain), a `noble1…` account of 20 bytes minted uusdc.
   */
  recipient: string;
  message?: SolanaBridgeSwapMessage;
}

/**
 * The memo that turns a USDC transfer to the vault into a bridge deposit:
 * `swapgw-bridge:v1:<destinationChainId>:<recipient>`, and for a deposit with a message (recipient:
 * the destination's SwapGatewayRouter) `:swap:<venue>:<path, comma-separated>:<amountOutMin>:<final
 * recipient>:<unwrapNative 0|1>:<deadline>` after it. Addresses checksummed, integers in decimal.
 * To Bitcoin (BITCOIN_BRIDGE_CHAIN_ID) the recipient is a lower-case bech32 P2WPKH or P2TR address,
 * without a message. To Noble (NOBLE_BRIDGE_CHAIN_ID) the recipient is a `noble1…` account of 20
 * bytes (bech32, lower case: a wallet's key or a forwarding account, as CCTP's 32-byte mint_recipient
 * of a Noble account holds 20), without a message. The depositor signs the memo instruction, so
 * nobody can change what it says.
 */
export function solanaBridgeDepositMemo(
  destinationChainId: number | bigint,
  recipient: string,
  message?: SolanaBridgeSwapMessage,
): string {
  if (BigInt(destinationChainId) === BigInt(BITCOIN_BRIDGE_CHAIN_ID)) {
    if (!isBitcoinBridgeRecipient(recipient))
      throw new Error(`bridge recipient ${recipient} is not a P2WPKH or P2TR Bitcoin address`);
    if (message !== undefined) throw new Error('a deposit to Bitcoin carries no message');
    return `swapgw-bridge:v1:${destinationChainId.toString()}:${recipient}`;
  }
  if (BigInt(destinationChainId) === BigInt(NOBLE_BRIDGE_CHAIN_ID)) {
    if (!isNobleBridgeRecipient(recipient))
      throw new Error(`bridge recipient ${recipient} is not a ${NOBLE_BECH32_PREFIX}1… account of 20 bytes`);
    if (message !== undefined) throw new Error('a deposit to Noble carries no message');
    return `swapgw-bridge:v1:${destinationChainId.toString()}:${recipient}`;
  }
  if (!isAddress(recipient)) throw new Error(`bridge recipient ${recipient} is not an EVM address`);
  const plain = `swapgw-bridge:v1:${destinationChainId.toString()}:${getAddress(recipient)}`;
  if (message === undefined) return plain;
  const problem = bridgeSwapMessageProblem(getAddress(recipient), message);
  if (problem !== null) throw new Error(`bridge message: ${problem}`);
  const path = message.path.map((hop) => getAddress(hop)).join(',');
  return `${plain}:swap:${getAddress(message.venue)}:${path}:${message.amountOutMin}:${getAddress(message.recipient)}:${message.unwrapNative ? 1 : 0}:${message.deadline}`;
}

/**
 * Parses a deposit memo; undefined when the text is not one (wrong prefix, version, id or address,
 * or a message the destination router would refuse: see bridgeSwapMessageProblem).
 */
export function parseSolanaBridgeDepositMemo(memo: string): SolanaBridgeDeposit | undefined {
  const match = DEPOSIT_MEMO.exec(memo);
  if (!match) return undefined;
  const destinationChainId = BigInt(match[1]);
  if (destinationChainId === BigInt(BITCOIN_BRIDGE_CHAIN_ID)) {
    const payable = isBitcoinBridgeRecipient(match[2]) && match[3] === undefined;
    return payable ? { destinationChainId, recipient: match[2] } : undefined;
  }
  if (destinationChainId === BigInt(NOBLE_BRIDGE_CHAIN_ID)) {
    const payable = isNobleBridgeRecipient(match[2]) && match[3] === undefined;
    return payable ? { destinationChainId, recipient: match[2] } : undefined;
  }
  if (!isAddress(match[2])) return undefined;
  try {
    // A mixed-case address with a wrong checksum is a typo, not a recipient.
    const recipient = getAddress(match[2]);
    const deposit: SolanaBridgeDeposit = { destinationChainId, recipient };
    if (match[3] === undefined) return deposit;
    const message: SolanaBridgeSwapMessage = {
      venue: getAddress(match[3]),
      path: match[4].split(',').map((hop) => getAddress(hop)),
      amountOutMin: BigInt(match[5]),
      recipient: getAddress(match[6]),
      unwrapNative: match[7] === '1',
      deadline: BigInt(match[8]),
    };
    return bridgeSwapMessageProblem(recipient, message) === null ? { ...deposit, message } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether Noble's end can mint to `recipient`: a `noble1…` account of 20 bytes, in lower case (a
 * 32-byte module account is not a CCTP mint recipient of the bridge: its memo names accounts only).
 */
function isNobleBridgeRecipient(recipient: string): boolean {
  return recipient === recipient.toLowerCase() && isCosmosAddress(NOBLE_BECH32_PREFIX, recipient);
}

/**
 * Why the destination router would refuse `message` for a deposit paid to `router` (its release
 * would revert and never settle), or null: a path of 2 to 8 addresses, uints that fit 256 bits, a
 * final recipient that is neither zero nor the router. Anything else (a passed deadline, a minimum
 * the swap cannot reach, a path that does not start with the bridged token) the router settles by
 * paying the recipient the bridged tokens.
 */
export function bridgeSwapMessageProblem(router: string, message: SolanaBridgeSwapMessage): string | null {
  if (!isAddress(router) || getAddress(router) === ZeroAddress)
    return `the recipient ${router} is not a contract address`;
  if (!isAddress(message.venue) || getAddress(message.venue) === ZeroAddress)
    return `the venue ${message.venue} is not a contract address`;
  if (message.path.length < 2 || message.path.length > MAX_PATH_LENGTH)
    return `the path has ${message.path.length} tokens, not 2 to ${MAX_PATH_LENGTH}`;
  const notAddress = message.path.find((hop) => !isAddress(hop));
  if (notAddress !== undefined) return `path token ${notAddress} is not an EVM address`;
  for (const [field, value] of [
    ['amountOutMin', message.amountOutMin],
    ['deadline', message.deadline],
  ] as const) {
    if (value < 0n || value > MAX_UINT256) return `${field} ${value} is not a uint256`;
  }
  if (!isAddress(message.recipient)) return `the final recipient ${message.recipient} is not an EVM address`;
  const finalRecipient = getAddress(message.recipient);
  if (finalRecipient === ZeroAddress || finalRecipient === getAddress(router))
    return `the final recipient ${finalRecipient} cannot be zero or the deposit's recipient`;
  return null;
}

/**
 * The message bytes the relayer releases a Solana deposit's message with (releaseWithMessage): the
 * SwapGatewayRouter's BridgeSwapMessage, its owner the zero address (the depositor is a Solana
 * wallet; the release names the deposit by source chain id and nonce).
 */
export function solanaBridgeSwapMessageBytes(message: SolanaBridgeSwapMessage): string {
  return encodeBridgeSwapMessage({ owner: ZeroAddress, ...message });
}

/** The memo the bridge authority writes on each release: the on-chain record that makes it idempotent. */
export function solanaBridgeReleaseMemo(sourceChainId: bigint, nonce: bigint): string {
  return `swapgw-bridge-release:${sourceChainId}:${nonce}`;
}

export function parseSolanaBridgeReleaseMemo(
  memo: string,
): { sourceChainId: bigint; nonce: bigint } | undefined {
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
 * destination chain id and recipient (an EVM address, or a `noble1…` account towards Noble; and the
 * `message` for an EVM recipient, if any), signed by the user. Put
 * them in one (v0 or legacy) transaction signed by `user` (and paid by it or by a fee payer); the
 * relayer pays `amount` minus the fee on the destination, with the message through
 * releaseWithMessage.
 */
export function solanaBridgeDepositInstructions(input: {
  user: PublicKey;
  amount: bigint;
  destinationChainId: number | bigint;
  recipient: string;
  message?: SolanaBridgeSwapMessage;
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
    memoInstruction(solanaBridgeDepositMemo(input.destinationChainId, input.recipient, input.message), [
      input.user,
    ]),
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
