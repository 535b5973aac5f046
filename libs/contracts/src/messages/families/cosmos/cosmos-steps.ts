/**
 * The Cosmos family's classes on the wire: its steps' specs, its sponsorship mode, its step variant,
 * and the payload its wallets sign. Its address form and sponsorship data are in cosmos-wire.ts.
 */
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { IsNestedObject, IsOneOf } from '../../signing/signing-formats';
import { type FamilySteps, SigningStepVariant } from '../../signing/signing-step-variant';
import { Sponsorship, type SponsoredStepSpec } from '../../signing/signing-sponsorship';

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

/** `cosmos-fee-grant`: the service's fee granter pays the Cosmos transaction's fee (x/feegrant). */
export class CosmosFeeGrantSponsorship extends Sponsorship {}

export class CosmosSignDirectStep extends SigningStepVariant {
  declare family: 'cosmos-sign-direct';
  static readonly specField = 'cosmos';

  /** What the transaction does (see CosmosTxSpec). */
  @IsNestedObject(() => CosmosTxSpec)
  cosmos!: CosmosTxSpec;

  @IsOptional()
  @IsOneOf('mode', { 'cosmos-fee-grant': CosmosFeeGrantSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'cosmos-fee-grant' };
}

/** Cosmos's step variants and sponsorship modes, registered in SIGNING_STEP_VARIANTS (signing-steps.ts). */
export const cosmosSteps = {
  variants: { 'cosmos-sign-direct': CosmosSignDirectStep },
  sponsorships: { 'cosmos-fee-grant': CosmosFeeGrantSponsorship },
} as const satisfies FamilySteps;

// --- What its wallets are handed (SigningPayload) ---

/** A message as cosmjs's EncodeObject and the chains' JSON name it: its typeUrl, its proto3 JSON (camelCase). */
export interface CosmosMsgJson {
  typeUrl: string;
  value: Record<string, unknown>;
}

export interface CosmosCoin {
  denom: string;
  /** Base units, decimal. */
  amount: string;
}

/** The legacy amino StdSignDoc (cosmjs's StdSignDoc, Keplr's and Ledger's signAmino). */
export interface CosmosAminoSignDoc {
  chain_id: string;
  account_number: string;
  sequence: string;
  fee: { amount: CosmosCoin[]; gas: string; granter?: string };
  msgs: { type: string; value: Record<string, unknown> }[];
  memo: string;
  timeout_height?: string;
}

/**
 * What a Cosmos wallet signs: `signDoc` exactly as Keplr's and Leap's `signDirect(chainId,
 * signerAddress, signDoc)` take it (bytes base64, accountNumber decimal), the amino sign doc for
 * Ledger users (null when a message has no amino form here), and the messages for display. rawTx:
 * the signed TxRaw, base64.
 */
export interface CosmosSignDirectPayload {
  type: 'cosmos-sign-direct';
  signerAddress: string;
  signDoc: { bodyBytes: string; authInfoBytes: string; chainId: string; accountNumber: string };
  aminoSignDoc: CosmosAminoSignDoc | null;
  msgs: CosmosMsgJson[];
}
