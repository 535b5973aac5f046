import type {
  EvmTypedDataStep,
  RouteLeg,
  SignaturePayloadType,
  SigningStepFamily,
  SponsoredGasKind,
} from '@swapgw/contracts';
import type { CatalogToken } from '../catalog/chain-catalog';
import type { ChainDescriptor, ChainFamily, ChainNetwork } from '../chain-descriptor';
import type { PermitContracts } from '../permit-contracts';
import type { BitcoinNetworkName } from './bitcoin/bitcoin-networks';
import type { CosmosGasPrice } from './cosmos/cosmos-sponsored-gas';

/**
 * What a chain family answers to the code shared by every family, without its clients: the form of
 * its addresses and whether their case matters, its CAIP-2 namespace and how it spells its tokens,
 * which steps a wallet signs for a leg on it, and what the service pays for such a leg. Each family
 * implements it in its own folder (`evm/evm-traits.ts`, `solana/`, `bitcoin/`, `cosmos/`), and the
 * table above them, `family-traits-table.ts`, maps each family to it: address-validation,
 * address-keys, token-refs, step-split and sponsored-gas ask the table, never a family's name.
 *
 * This module is a leaf below the families (it imports none of their code, only a type or two of
 * their own): it holds the interface and the shapes it speaks in, which the shared modules re-export.
 */
export interface FamilyTraits {
  /** How messages name the family (`EVM`, `Solana`). */
  readonly label: string;
  /** How an error message names one of its wallet addresses (`a base58 Solana address`). */
  readonly addressDescription: string;
  /**
   * Whether `address` is one of the family's wallet addresses; of `chain` when given (a Bitcoin
   * address's network, a Cosmos address's prefix), of any chain of the family otherwise.
   */
  validateAddress(address: string, chain?: AddressCheckedChain): AddressValidation;
  /**
   * Whether the wallet `address` of `chain` can sign its steps with what the request tells of it
   * (`publicKey`); absent for a family that signs with the address alone.
   */
  validateSignerKey?(
    chain: AddressCheckedChain,
    address: string,
    publicKey: string | undefined,
  ): AddressValidation;
  /**
   * The address of the key behind `address` (one of the family's) on `chain`, another chain of the
   * family, where the family spells one key differently per chain (Cosmos: under the chain's bech32
   * prefix); undefined for a chain that tells no spelling. Absent where an address is the same on
   * every chain of the family.
   */
  addressOfSameKey?(address: string, chain: AddressCheckedChain): string | undefined;
  /**
   * Whether two spellings of an address differing in letter case are the same address (EVM hex:
   * EIP-55 only adds a checksum in the case); false where the case is part of the address.
   */
  readonly caseInsensitiveAddresses: boolean;
  /** The CAIP-2 namespace of its chains (`eip155`, `solana`). */
  readonly caipNamespace: string;
  /** Short CAIP-2 spellings accepted besides its chains' own, to the chain id they name. */
  readonly caip2Aliases?: Readonly<Record<string, string>>;
  /** How it spells its tokens in token references and lists; undefined for a family without tokens. */
  readonly tokens?: TokenAddressForm;
  /**
   * Whether a bridge into one of its chains can pay a forwarding account there, which runs the
   * route's following legs on that chain with no signature (Noble's x/forwarding).
   */
  readonly forwardsBridgePayouts: boolean;
  /** The payload a wallet is handed for each way of signing the family's steps (StepSigning). */
  readonly payloadTypes: Partial<Record<StepSigning, SignaturePayloadType>>;
  /**
   * Whether a route's first transaction on one of its chains can carry an integrator fee transfer
   * (a quote's `integratorFee` is paid on the source chain, in its first transaction).
   */
  readonly carriesIntegratorFees: boolean;
  /**
   * Why a route's first leg on one of its chains cannot pay the quote's integrator fees (those the
   * gateway pays) in its own transaction, or null when it can; absent where the fee transfer is not
   * part of the family's steps (a family whose `carriesIntegratorFees` is false).
   */
  integratorFeeLegProblem?(leg: RouteLeg, chains: IntegratorFeeLegChains): string | null;
  /** The steps a wallet signs for one leg on a chain of the family, in order (step-split). */
  splitLeg(split: LegSplit): SplitStep[];
  /** What the service pays for one leg on a chain of the family (sponsored-gas), through `pay`. */
  sponsoredCostsOfLeg(leg: SponsoredLegView, pay: SponsoredCostSink): void;
  /**
   * What the service pays on a chain of the family for a bridge it releases there (the devnet
   * bridge's relayer), through `pay`; absent where nothing is (a payout its bridge sends itself).
   */
  bridgeReleaseCosts?(leg: SponsoredLegView & { destinationChain: string }, pay: SponsoredCostSink): void;
  /**
   * Whether a chain of the family, its RPC URL configured, has the rest of what signing on it needs
   * (Cosmos: its REST API, for accounts and simulation); absent: the RPC URL is all it needs.
   */
  hasSigningEndpoints?(chain: ChainDescriptor): boolean;
  /** The price of a unit when the chain's node cannot tell it. */
  readonly sponsoredFeeFallback: SponsoredFeeRates;
  /** Its native coin, for a chain the registry does not list. */
  readonly nativeCoinFallback: { nativeSymbol: string; nativeDecimals: number };
}

// --- Addresses --------------------------------------------------------------------------------

/** Outcome of an address check: `reason` says what is wrong, for a 400 INVALID_ADDRESS message. */
export type AddressValidation = { ok: true } | { ok: false; reason: string };

/**
 * The chain fields an address check reads: its family, and for Bitcoin its network (`bitcoinNetwork`
 * when the chain names one, the devnet's `regtest`; else what `network` allows).
 */
export type AddressCheckedChain = Pick<ChainDescriptor, 'id' | 'family'> & {
  network?: ChainNetwork;
  bitcoinNetwork?: BitcoinNetworkName;
  cosmos?: { bech32Prefix: string };
};

// --- Integrator fees ------------------------------------------------------------------------

/** What a family's integrator fee check reads of chains: their permit contracts (the SwapGatewayRouter). */
export interface IntegratorFeeLegChains {
  permitContractsOf: (chain: string) => PermitContracts | undefined;
}

// --- Tokens -----------------------------------------------------------------------------------

/** How one family spells its tokens (families without tokens, Bitcoin, have none). */
export interface TokenAddressForm {
  /** The CAIP-2 chain reference of its namespace, checked on requests (EVM: the decimal chain id). */
  chainReference: RegExp;
  /** Kinds that name one of its tokens by address. */
  kinds: readonly string[];
  /**
   * The catalog's asset key of a token address (EVM: lower case; Solana: the mint as written), or
   * undefined when the address does not have the family's form. A loose check of form: a request
   * passed the gateway's strict one (validateAddressForFamily) already.
   */
  assetKeyOf(address: string): string | undefined;
  /** The strict check of a request's token address (EVM checksum, Solana key, Cosmos denom form). */
  isTokenAddress(address: string): boolean;
  /**
   * The field a token view (the catalog's answer) names the catalog's `mint` column by: `denom` for a
   * Cosmos denom; absent: `mint` (a Solana mint).
   */
  mintViewedAs?: 'denom';
  /** The address as the catalog stores it (EVM `address`, checksummed; Solana `mint`), or undefined. */
  catalogFieldsOf(address: string): { address: string | null; mint: string | null } | undefined;
  /**
   * A token outside the catalog can be read from the chain itself (an ERC-20's symbol() and
   * decimals()); Solana's mints carry no symbol.
   */
  metadataOnChain: boolean;
}

/**
 * A coin or token a chain lists, as the catalog discovers it: the chain's native coin, and the tokens
 * of the chain (a devnet EVM chain's ERC-20s, Solana's mints, a Cosmos chain's IBC vouchers).
 */
export interface ListedToken extends Pick<CatalogToken, 'symbol' | 'name' | 'decimals'> {
  chain: string;
  /** EVM contract address (checksummed); null for a native coin and for the other families' tokens. */
  address: string | null;
  /** Solana mint, Cosmos denom (the token's chain-native identity); null elsewhere. */
  mint: string | null;
  /** null for the chain's native coin; else the token's place in its chain's list (its list order). */
  listIndex: number | null;
  /** How many other chains a bridge (the devnet bridge, THORChain, IBC) carries it to. */
  bridgedChains: number;
}

// --- The steps of a route (step-split) --------------------------------------------------------

/**
 * How the wallet signs a step: its step variant's `family` (SIGNING_STEP_VARIANTS, where each family
 * registers its steps: `evm-transaction`, the wallet's own EVM transaction, its gas covered first on
 * a sponsored swap; `solana-transaction`, a bridge deposit the signer builds or an aggregator's
 * prebuilt transaction; `bitcoin-psbt`, the user's inputs, the service's fee input paying the miner
 * when sponsored; `cosmos-sign-direct`, a SignDoc whose fee the service's fee granter pays), except
 * EIP-712 typed data, told by what it signs, its sponsorship mode: `eip2612-permit` (the token's
 * permit granting Permit2, a sponsored approve) or `permit2-intent` (the leg as a Permit2 witness
 * transfer the relayer executes). Derived, so a new family's steps add nothing here.
 */
export type StepSigning =
  Exclude<SigningStepFamily, EvmTypedDataStep['family']> | EvmTypedDataStep['sponsored']['mode'];

/** One wallet-signed step of a route. */
export interface SplitStep {
  legIndex: number;
  kind: 'approve' | RouteLeg['kind'];
  signing: StepSigning;
  /**
   * Approve steps: who gets the allowance, the chain's Permit2 (`permit2`) or the leg's spender
   * (`spender`). Never offered when the wallet's allowance is already there (the step is skipped).
   */
  approves?: 'permit2' | 'spender';
  /** The leg's own step of a bridge-swap: it binds the next leg's swap too, which has no steps. */
  bridgeSwap?: true;
  /**
   * The leg's own step of a bridge into a Cosmos chain whose payout a forwarding account there
   * (Noble's x/forwarding) sends on: the legs after it run on chain from that account (an IBC
   * transfer, a swap on arrival, its output sent home) and have no steps (forwardingLegOf).
   */
  forwards?: true;
}

/** The legs' fields the split reads. */
export type StepSplitLeg = Pick<
  RouteLeg,
  | 'kind'
  | 'chain'
  | 'provider'
  | 'spender'
  | 'tokenIn'
  | 'tokenOut'
  | 'amountIn'
  | 'path'
  | 'poolFees'
  | 'call'
  | 'solanaTransaction'
  | 'destinationChain'
>;

/** What the split knows of chains and tokens (a ChainRegistry's answers). */
export interface StepSplitChains {
  /** undefined for a chain the caller does not know: its legs have no steps. */
  familyOf: (chain: string) => ChainFamily | undefined;
  /** Permit contracts of a chain; undefined where there are none (no permits on that chain). */
  permitContractsOf?: (chain: string) => PermitContracts | undefined;
  /** The EIP-712 domain of a token's EIP-2612 permit on a chain; undefined for tokens without one. */
  tokenPermitOf?: (chain: string, token: string) => { name: string; version: string } | undefined;
}

/** How the build pays gas and, when the user pays, the first leg's permit. */
export interface StepSplitOptions {
  gasPayment: 'sponsored' | 'user';
  /** User-paid: the permit the first leg's router call carries (none: plain approvals). */
  firstLegPermit?: 'eip2612' | 'permit2';
  /**
   * With firstLegPermit permit2: the user's allowance of the first leg's token to Permit2. Short of
   * the leg's amountIn, an approve of Permit2 comes first.
   */
  permit2Allowance?: bigint;
}

/** One leg as its family splits it: the route around it, and the two shapes of step it may make. */
export interface LegSplit {
  leg: StepSplitLeg;
  legIndex: number;
  legs: readonly StepSplitLeg[];
  chains: StepSplitChains;
  options: StepSplitOptions;
  /** The leg's own step (marked when it binds a bridge-swap or pays a forwarding account). */
  own(signing: StepSigning): SplitStep;
  /** An approve step before the leg's own. */
  approve(signing: StepSigning, approves: 'permit2' | 'spender'): SplitStep;
}

// --- Sponsored gas (sponsored-gas) ------------------------------------------------------------

/** The families a swap leg can be on: every family, Cosmos's fees paid by its fee granter (x/feegrant). */
export type SponsoredFamily = ChainFamily;

/**
 * One sponsored cost on one chain. `gasUnits` are EVM gas, on Solana the signatures paid for
 * (priced per signature), on Bitcoin virtual bytes (priced per vbyte); `tokenAccounts` counts token
 * accounts whose rent is paid.
 */
export interface SponsoredStep {
  kind: SponsoredGasKind;
  chain: string;
  family: SponsoredFamily;
  /** Index of the route leg the step belongs to. */
  leg: number;
  gasUnits: bigint;
  tokenAccounts: number;
}

/** How a family records one sponsored cost of a leg: its kind, chain, units and token accounts. */
export type SponsoredCostSink = (
  kind: SponsoredGasKind,
  chain: string,
  family: SponsoredFamily,
  gasUnits: bigint,
  tokenAccounts?: number,
) => void;

/** The parts of a route leg that decide what the relayer pays for it. */
export interface SponsoredLegView {
  kind: 'swap' | 'bridge';
  chain: string;
  family: SponsoredFamily;
  /** null = the chain's native coin. */
  tokenIn: { address: string | null };
  tokenOut: { address: string | null };
  /**
   * EVM ERC-20 input: the token implements EIP-2612 `permit` (devnet manifest `tokens[].permit`).
   * Unknown (real networks) counts as false: approve + top-up, the dearer of the two.
   */
  inputHasEip2612?: boolean;
  /** Bridge legs: the chain the bridge delivers to, and its family. */
  destinationChain?: string;
  destinationFamily?: SponsoredFamily;
  /** Bridge legs: an Across deposit (acrossWithIntent, dearer than the devnet bridge's deposit). */
  across?: boolean;
  /**
   * Bridge legs: the service's relayer sends the release on the destination (the devnet bridge).
   * False for a bridge that delivers by itself (an aggregator's): nothing is paid there by us.
   */
  releasedByRelayer?: boolean;
  /**
   * The integrator fee recipients this leg's transaction pays (addresses of the leg's chain), one
   * payment each: the route's first leg carries the quote's fees, the others none.
   */
  integratorFeeRecipients?: readonly string[];
  /** Cosmos legs: the wallet signs a transaction for this leg (not a swap run on arrival). */
  cosmosSigned?: boolean;
  /** Cosmos legs: the first signed leg on its chain, whose fee the granter may have to grant first. */
  cosmosFeeGrant?: boolean;
}

/**
 * The price of a unit on one chain: wei per gas (EVM), lamports per signature (Solana), sats per
 * vbyte (Bitcoin), base units of the fee denom per gas (Cosmos), and rent.
 */
export interface SponsoredFeeRates {
  /** EVM: wei per gas. Solana: lamports per signature. Cosmos: `gasPrice` rounded up. */
  feePerGas: bigint;
  /** Solana: lamports of rent of one token account; 0 on EVM. */
  tokenAccountRent: bigint;
  /** Cosmos: the chain's minimum gas price, exact (a fraction of a base unit per gas, e.g. 0.005uatom). */
  gasPrice?: CosmosGasPrice;
}
