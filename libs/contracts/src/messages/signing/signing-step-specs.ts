import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import {
  BITCOIN_ADDRESS,
  BITCOIN_PUBLIC_KEY,
  SOLANA_ADDRESS,
  SOLANA_BRIDGE_RECIPIENT,
  WAIT_FOR_TOKEN,
  WALLET_OR_TOKEN,
} from '../chain-formats';
import {
  BASE64,
  BASE_UNITS,
  EVM_ADDRESS,
  HEX_DATA,
  IsEpochSeconds,
  IsEvmPath,
  IsNestedObject,
  IsNonEmptyString,
  IsOptionalIntegratorFees,
} from './signing-formats';

/** The contract call a step makes: `value` in wei as a decimal string, `data` 0x-hex ("0x" for none). */
export class SigningCall {
  @Matches(EVM_ADDRESS, { message: 'to must be a 0x-prefixed 20-byte address' })
  to!: string;

  @Matches(HEX_DATA, { message: 'data must be 0x-prefixed hex of whole bytes' })
  data!: string;

  @Matches(BASE_UNITS, { message: 'value must be a non-negative integer decimal string (wei)' })
  value!: string;
}

/**
 * For `kind: 'approve'`: the allowance the step grants. signer-surface reads
 * `allowance(from, spender)` first and answers `signing.step-skipped` when it already covers `amount`.
 */
export class SigningApproveSpec {
  @Matches(EVM_ADDRESS)
  token!: string;

  @Matches(EVM_ADDRESS)
  spender!: string;

  /** Base units the following step needs (not necessarily what the approve call grants). */
  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * A balance that must exist before the step can be signed (e.g. the bridged tokens on the
 * destination chain). signer-surface keeps the request waiting and re-checks it periodically.
 * `token` null means the native coin. On a Solana chain `token` is the SPL mint and `holder` the
 * wallet: the balance read is the one of the wallet's associated token account.
 */
export class SigningWaitForSpec {
  /** The token's account or mint, or on a Cosmos chain its denom; null: the native coin. */
  @IsOptional()
  @Matches(WAIT_FOR_TOKEN)
  token!: string | null;

  @Matches(WALLET_OR_TOKEN)
  holder!: string;

  @Matches(BASE_UNITS)
  minBalance!: string;
}

/**
 * A Noble forwarding account (noble-assets/forwarding) that the step's payout lands in, and that
 * forwards it on over IBC: registered by the service (its fee granter on `chain`) before the step's
 * payload is issued, so the user signs only the step. The account is derived from these fields
 * (`memo` is the devnet's extension: the forwarded packet's memo).
 */
export class NobleForwardingSpec {
  @IsString()
  @MaxLength(64)
  chain!: string;

  @Matches(/^channel-\d+$/)
  channel!: string;

  @IsString()
  @MaxLength(2048)
  recipient!: string;

  @IsString()
  @MaxLength(128)
  fallback!: string;

  @IsString()
  @MaxLength(8192)
  memo!: string;

  /** The account's address (what the step pays), derived from the fields above. */
  @IsString()
  @MaxLength(128)
  address!: string;
}

export const SOLANA_STEP_KINDS = ['bridge-deposit', 'prebuilt-transaction'] as const;
export type SolanaStepKind = (typeof SOLANA_STEP_KINDS)[number];

/**
 * The swap a `bridge-deposit` hands to its EVM `recipient`, the destination chain's
 * SwapGatewayRouter, in the deposit's memo (as a BridgeSwapIntent's message): the bridge relayer
 * releases the deposit with it and the router swaps what arrived along `path` for at least
 * `amountOutMin` to `recipient` before `deadline`, or pays `recipient` the bridged tokens.
 */
export class SolanaBridgeSwapMessageSpec {
  /** The destination chain's Uniswap V2 Router02, through which its router swaps. */
  @Matches(EVM_ADDRESS)
  venue!: string;

  /** Uniswap V2 path on the destination chain, starting with the bridged token there. */
  @IsEvmPath()
  path!: string[];

  @Matches(BASE_UNITS)
  amountOutMin!: string;

  /** The final recipient on the destination chain. */
  @Matches(EVM_ADDRESS)
  recipient!: string;

  /** Pay out native coin (the path ends with the wrapped native token). */
  @IsBoolean()
  unwrapNative!: boolean;

  /** Seconds since epoch: after it the router pays the bridged tokens instead of swapping. */
  @IsEpochSeconds()
  deadline!: number;
}

/** One integrator fee a Solana transaction pays: `amount` base units to the wallet `recipient`. */
export class SolanaIntegratorFeeSpec {
  @Matches(SOLANA_ADDRESS)
  recipient!: string;

  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * What a step on a Solana chain does (instead of an EVM `call`), one variant per `kind`:
 *  - `bridge-deposit` (SolanaBridgeDepositSpec): signer-surface builds the devnet bridge deposit;
 *  - `prebuilt-transaction` (SolanaPrebuiltTransactionSpec): an aggregator's unsigned transaction,
 *    handed out as it is.
 * The read shape the chain libraries take: every variant's fields, optional.
 */
export interface SolanaStepSpec {
  kind: SolanaStepKind;
  mint?: string;
  vault?: string;
  amount?: string;
  destinationChainId?: number;
  recipient?: string;
  message?: SolanaBridgeSwapMessageSpec;
  integratorFees?: SolanaIntegratorFeeSpec[];
  serializedTransaction?: string;
  lastValidBlockHeight?: number;
}

/**
 * `bridge-deposit`: the transferChecked of `amount` of `mint` from `from`'s associated token
 * account to `vault`, plus the memo naming `destinationChainId` and the `recipient`, and
 * `message` when there is one: then `recipient` is the destination's SwapGatewayRouter, which swaps
 * the deposit as the message says.
 */
export class SolanaBridgeDepositSpec implements SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: 'bridge-deposit';

  @Matches(SOLANA_ADDRESS)
  mint!: string;

  @Matches(SOLANA_ADDRESS)
  vault!: string;

  /** Base units of `mint`. */
  @Matches(BASE_UNITS)
  amount!: string;

  @IsInt()
  @Min(1)
  destinationChainId!: number;

  /**
   * Who is paid on the destination chain: an EVM address (with a `message`: the SwapGatewayRouter
   * there), a Bitcoin address when the destination is the Bitcoin end, or a `noble1…` account when
   * it is Noble's (the memo's form: solanaBridgeDepositMemo in @swapgw/chains checks the rest).
   */
  @Matches(SOLANA_BRIDGE_RECIPIENT)
  recipient!: string;

  /** The destination swap the deposit's memo carries to `recipient` (see SolanaBridgeSwapMessageSpec). */
  @IsOptional()
  @IsNestedObject(() => SolanaBridgeSwapMessageSpec)
  message?: SolanaBridgeSwapMessageSpec;

  /**
   * The integrator fees the transaction pays out of the wallet's `mint` before the deposit (a
   * TransferChecked per recipient to its associated token account, created first when it has none,
   * the transaction's fee payer paying its rent). `amount` comes on top of them.
   */
  @IsOptionalIntegratorFees(() => SolanaIntegratorFeeSpec)
  integratorFees?: SolanaIntegratorFeeSpec[];
}

/** `prebuilt-transaction`: an aggregator's unsigned v0 transaction (base64), valid until `lastValidBlockHeight`. */
export class SolanaPrebuiltTransactionSpec implements SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: 'prebuilt-transaction';

  @IsString()
  @Matches(BASE64)
  serializedTransaction!: string;

  @IsInt()
  @Min(0)
  lastValidBlockHeight!: number;

  /**
   * Kept when sent, never honoured: the transaction is signed as built, so signer-surface refuses a
   * prebuilt transaction that carries a bridge message or integrator fees (the step fails).
   */
  @IsOptional()
  @IsNestedObject(() => SolanaBridgeSwapMessageSpec)
  message?: SolanaBridgeSwapMessageSpec;

  @IsOptionalIntegratorFees(() => SolanaIntegratorFeeSpec)
  integratorFees?: SolanaIntegratorFeeSpec[];
}

/** The class that validates each kind of Solana step (one class and one line per kind). */
export const SOLANA_STEP_SPECS = {
  'bridge-deposit': SolanaBridgeDepositSpec,
  'prebuilt-transaction': SolanaPrebuiltTransactionSpec,
} satisfies Record<SolanaStepKind, new () => SolanaStepSpec>;

/** One integrator fee a Bitcoin step pays: an output of `amount` satoshis to the address `recipient`. */
export class BitcoinIntegratorFeeSpec {
  @Matches(BITCOIN_ADDRESS, { message: 'recipient must be a Bitcoin address' })
  recipient!: string;

  @Matches(BASE_UNITS)
  amount!: string;
}

export const BITCOIN_STEP_KINDS = ['bridge-deposit'] as const;
export type BitcoinStepKind = (typeof BITCOIN_STEP_KINDS)[number];

/**
 * What a step on a Bitcoin chain does (instead of an EVM `call`):
 *  - `bridge-deposit`: signer-surface builds the PSBT paying `amount` satoshis from `from` to the
 *    bridge's `vault`, with an OP_RETURN output carrying `memo` (the bridge's deposit memo, which
 *    names the destination chain, asset, recipient and minimum out).
 */
export class BitcoinStepSpec {
  @IsIn(BITCOIN_STEP_KINDS)
  kind!: BitcoinStepKind;

  @Matches(BITCOIN_ADDRESS, { message: 'vault must be a Bitcoin address' })
  vault!: string;

  /**
   * The public key of the step's signer (`from`), hex (compressed 33 bytes, or x-only 32 for a
   * Taproot key), as the wallet told it at build: a Taproot input needs it as `tapInternalKey`, a
   * nested-SegWit (P2SH-P2WPKH) input needs it for its redeem script; unused for P2WPKH.
   */
  @IsOptional()
  @Matches(BITCOIN_PUBLIC_KEY, { message: 'signerPublicKey must be a 32- or 33-byte public key in hex' })
  signerPublicKey?: string;

  /** Satoshis paid to the vault. */
  @Matches(BASE_UNITS)
  amount!: string;

  /** The OP_RETURN text (at most 80 bytes, the standard relay limit). */
  @IsNonEmptyString()
  @MaxLength(80)
  memo!: string;

  /**
   * The route's integrator fees, on a first leg: one output per recipient of exactly `amount`
   * satoshis beside the deposit, paid from the signer's UTXOs on top of `amount` (the quote's
   * amountIn is `amount` plus these).
   */
  @IsOptionalIntegratorFees(() => BitcoinIntegratorFeeSpec)
  integratorFees?: BitcoinIntegratorFeeSpec[];
}

/** The most messages a Cosmos step carries (a route's one signature: a transfer or a swap). */
export const MAX_COSMOS_STEP_MSGS = 4;

/**
 * One message of a Cosmos step as proto3 JSON, `{typeUrl, value}`: what the SignDoc's body encodes
 * (libs/chains' buildCosmosSignDoc, which refuses a type it does not issue) and the payload shows.
 */
export class CosmosMsgSpec {
  @Matches(/^\/[A-Za-z0-9_.]{1,200}$/, { message: 'typeUrl must be a protobuf type URL (/pkg.Msg)' })
  typeUrl!: string;

  @IsObject()
  value!: Record<string, unknown>;
}

/**
 * What a step on a Cosmos chain does (instead of an EVM `call`): the messages of one transaction
 * signed by the step's `from`, in order. signer-surface reads the account's number and sequence from
 * the chain when it issues the SignDoc; the fee is the service's fee granter's (`cosmos-fee-grant`).
 */
export class CosmosTxSpec {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_COSMOS_STEP_MSGS)
  @ValidateNested({ each: true })
  @Type(() => CosmosMsgSpec)
  msgs!: CosmosMsgSpec[];

  /**
   * The compressed secp256k1 key (33 bytes, hex) of the step's signer, as the wallet told it at
   * build (userPublicKey): the SignDoc's SignerInfo carries it, and an account that never sent a
   * transaction has none on chain yet.
   */
  @IsOptional()
  @Matches(/^0[23][0-9a-fA-F]{64}$/, { message: 'signerPublicKey must be a compressed secp256k1 key in hex' })
  signerPublicKey?: string;

  /** The transaction's memo (TxBody.memo), at most 256 characters as the SDK's default. */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  memo?: string;
}
