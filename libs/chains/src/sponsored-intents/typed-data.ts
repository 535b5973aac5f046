import { hexlify, isHexString } from 'ethers';
import { encodeUniswapV3Path } from '../families/evm/evm-calldata';
import type {
  AcrossIntent,
  AcrossSwapIntent,
  BridgeIntent,
  BridgeSwapIntent,
  BridgeToIntent,
  Eip2612PermitInput,
  Permit2IntentPermit,
  SwapIntent,
  SwapV3Intent,
  TypedDataV4,
} from './intent-types';
import { destinationSwapFields } from './destination-swap-fields';
import { chainIdOf, checksummed, SponsoredIntentError, uint32String, uintString } from './intent-values';
import { intentWitness, type SharedIntentFields } from './shared-intent-fields';
import { eip2612Types, permit2WitnessTypes, type SponsoredWitnessType } from './witness-types';

// Gas-sponsored ("gasless") EVM legs: the user only signs EIP-712 typed data, the service's relayer
// sends the transaction and pays the gas. Two kinds of signature are relayed:
//  - a Permit2 PermitWitnessTransferFrom naming the SwapGatewayRouter as spender, whose witness is
//    the whole leg, the venue it goes through included (SwapIntent: Uniswap V2, SwapV3Intent:
//    Uniswap V3, BridgeIntent or BridgeToIntent: the bridge), or a bridge deposit together with
//    the swap on the destination chain (BridgeSwapIntent: the bridge hands the deposit to the
//    destination's router, which swaps it for the recipient); the router hashes the witness from
//    the arguments it acts on, so the relayer can send the leg as signed or not at all;
//  - an EIP-2612 Permit of the token to Permit2, so a user without ETH can give Permit2 its
//    allowance without an approve transaction.
// Everything here is pure encoding (ethers only): callers show the typed data to the wallet, get the
// signature back, and hand encodeSponsoredCall's result to the relayer.

/** The Permit2 witness transfer of `input` whose witness is its `kind` intent (see intentWitness for `ownFields`). */
function permit2IntentTypedData(
  kind: SponsoredWitnessType,
  input: Permit2IntentPermit & { intent: SharedIntentFields },
  ownFields: () => Record<string, unknown>,
): TypedDataV4 {
  const witness = intentWitness(kind, input.intent, input.amount, ownFields);
  return {
    domain: {
      name: 'Permit2',
      chainId: chainIdOf(input.chainId),
      verifyingContract: checksummed(input.permit2, 'permit2'),
    },
    types: permit2WitnessTypes(kind),
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: checksummed(input.token, 'token'), amount: uintString(input.amount, 'amount') },
      spender: checksummed(input.router, 'router'),
      nonce: uintString(input.nonce, 'nonce'),
      deadline: uintString(input.deadline, 'deadline'),
      witness,
    },
  };
}

/**
 * What the owner signs for a sponsored swap: Permit2 may move `amount` of `token` once, to the
 * router, which must swap all of it along `intent.path` for at least `intent.amountOutMin` to
 * `intent.recipient` before `intent.deadline`. Throws when the path does not start with the token
 * (the router would refuse it) so the user is never asked to sign a leg that cannot happen.
 */
export function swapIntentTypedData(input: Permit2IntentPermit & { intent: SwapIntent }): TypedDataV4 {
  const { intent } = input;
  const path = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (path.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (path[0] !== checksummed(input.token, 'token'))
    throw new SponsoredIntentError(
      `intent.path starts with ${path[0]}, not the permitted token ${input.token}`,
    );
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  return permit2IntentTypedData('SwapIntent', input, () => ({
    path,
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    unwrapNative: intent.unwrapNative,
  }));
}

/**
 * What the owner signs for a sponsored Uniswap V3 swap: Permit2 may move `amount` of `token` once,
 * to the router, which must swap all of it through `intent.venue` (SwapRouter02 exactInput) along
 * the V3 path of `intent.path` and `intent.fees` for at least `intent.amountOutMin` to
 * `intent.recipient` before `intent.deadline`. Throws when the path does not start with the token.
 */
export function swapV3IntentTypedData(input: Permit2IntentPermit & { intent: SwapV3Intent }): TypedDataV4 {
  const { intent } = input;
  const tokens = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (tokens.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (tokens[0] !== checksummed(input.token, 'token'))
    throw new SponsoredIntentError(
      `intent.path starts with ${tokens[0]}, not the permitted token ${input.token}`,
    );
  requirePoolFees(intent.fees, tokens.length);
  if (typeof intent.unwrapNative !== 'boolean')
    throw new SponsoredIntentError('intent.unwrapNative must be a boolean');
  return permit2IntentTypedData('SwapV3Intent', input, () => ({
    path: encodeUniswapV3Path(tokens, intent.fees),
    amountOutMin: uintString(intent.amountOutMin, 'intent.amountOutMin'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    unwrapNative: intent.unwrapNative,
  }));
}

/** What the owner signs for a sponsored bridge deposit of `amount` (of the bridge's token) to an EVM recipient. */
export function bridgeIntentTypedData(input: Permit2IntentPermit & { intent: BridgeIntent }): TypedDataV4 {
  const { intent } = input;
  return permit2IntentTypedData('BridgeIntent', input, () => ({
    recipient: checksummed(intent.recipient, 'intent.recipient'),
  }));
}

/** What the owner signs for a sponsored bridge deposit to a 32-byte recipient (Solana). */
export function bridgeToIntentTypedData(
  input: Permit2IntentPermit & { intent: BridgeToIntent },
): TypedDataV4 {
  const { intent } = input;
  if (!isHexString(intent.recipient, 32))
    throw new SponsoredIntentError('intent.recipient must be 32 bytes of 0x-hex');
  return permit2IntentTypedData('BridgeToIntent', input, () => ({
    recipient: hexlify(intent.recipient),
  }));
}

/**
 * What the owner signs for a sponsored bridge deposit whose destination swap runs without another
 * signature: `amount` of the bridge's token leaves the owner once, for the destination router on
 * `destinationChainId`, which can only swap it along `path` for at least `amountOutMin` to
 * `recipient` before `deadline` (else pays `recipient` the bridged tokens). Throws on a path shorter
 * than two tokens or a recipient that is the destination router (the router would refuse either).
 */
export function bridgeSwapIntentTypedData(
  input: Permit2IntentPermit & { intent: BridgeSwapIntent },
): TypedDataV4 {
  const { intent } = input;
  const path = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  if (path.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  return permit2IntentTypedData('BridgeSwapIntent', input, destinationSwapFields(intent, path));
}

/** What the owner signs for a sponsored Across deposit of `amount` (the SpokePool's input token). */
export function acrossIntentTypedData(input: Permit2IntentPermit & { intent: AcrossIntent }): TypedDataV4 {
  const { intent } = input;
  return permit2IntentTypedData('AcrossIntent', input, () => ({
    outputToken: checksummed(intent.outputToken, 'intent.outputToken'),
    outputAmount: uintString(intent.outputAmount, 'intent.outputAmount'),
    recipient: checksummed(intent.recipient, 'intent.recipient'),
    ...acrossQuoteTerms(intent),
  }));
}

/**
 * What the owner signs for a sponsored Across deposit whose destination swap runs without another
 * signature: the fill pays the destination router, which can only swap along the V3 path for at
 * least `amountOutMin` to `recipient` before `deadline` (else pays `recipient` the bridged tokens).
 * Throws on a path that does not start with `outputToken`, bad fees, or the router as recipient.
 */
export function acrossSwapIntentTypedData(
  input: Permit2IntentPermit & { intent: AcrossSwapIntent },
): TypedDataV4 {
  const { intent } = input;
  const tokens = intent.path.map((hop, i) => checksummed(hop, `intent.path[${i}]`));
  const outputToken = checksummed(intent.outputToken, 'intent.outputToken');
  if (tokens.length < 2) throw new SponsoredIntentError('intent.path needs at least two tokens');
  if (tokens[0] !== outputToken)
    throw new SponsoredIntentError(
      `intent.path starts with ${tokens[0]}, not the output token ${outputToken}`,
    );
  requirePoolFees(intent.fees, tokens.length);
  const destinationSwap = destinationSwapFields(intent, encodeUniswapV3Path(tokens, intent.fees));
  return permit2IntentTypedData('AcrossSwapIntent', input, () => ({
    outputToken,
    outputAmount: uintString(intent.outputAmount, 'intent.outputAmount'),
    ...acrossQuoteTerms(intent),
    ...destinationSwap(),
  }));
}

/** Across's quote terms of an intent, in witness order (uint32s as decimal strings). */
function acrossQuoteTerms(
  intent: Pick<AcrossIntent, 'exclusiveRelayer' | 'quoteTimestamp' | 'fillDeadline' | 'exclusivityParameter'>,
) {
  return {
    exclusiveRelayer: checksummed(intent.exclusiveRelayer, 'intent.exclusiveRelayer'),
    quoteTimestamp: uint32String(intent.quoteTimestamp, 'intent.quoteTimestamp'),
    fillDeadline: uint32String(intent.fillDeadline, 'intent.fillDeadline'),
    exclusivityParameter: uint32String(intent.exclusivityParameter, 'intent.exclusivityParameter'),
  };
}

/**
 * An EIP-2612 Permit (OpenZeppelin ERC20Permit domain: name, version, chainId, token), typically
 * spender Permit2 and value MaxUint256: the relayer submits it with `token.permit`, so a user with no
 * ETH gives Permit2 its allowance by signing only.
 */
export function eip2612PermitTypedData(input: Eip2612PermitInput): TypedDataV4 {
  return {
    domain: {
      name: input.tokenName,
      version: input.version ?? '1',
      chainId: chainIdOf(input.chainId),
      verifyingContract: checksummed(input.token, 'token'),
    },
    types: eip2612Types(),
    primaryType: 'Permit',
    message: {
      owner: checksummed(input.owner, 'owner'),
      spender: checksummed(input.spender, 'spender'),
      value: uintString(input.value, 'value'),
      nonce: uintString(input.nonce, 'nonce'),
      deadline: uintString(input.deadline, 'deadline'),
    },
  };
}

function requirePoolFees(fees: number[], tokens: number): void {
  if (fees.length !== tokens - 1 || !fees.every((fee) => Number.isInteger(fee) && fee > 0 && fee < 1 << 24))
    throw new SponsoredIntentError(`intent.fees must be ${tokens - 1} uint24 pool fees`);
}
