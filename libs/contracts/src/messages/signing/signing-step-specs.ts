import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { WAIT_FOR_TOKEN, WALLET_OR_TOKEN } from '../chain-formats';
import { BASE_UNITS, EVM_ADDRESS, HEX_DATA } from './signing-formats';

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
