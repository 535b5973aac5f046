import { Interface, isHexString, Signature } from 'ethers';
import type { SponsoredCall, TypedDataV4 } from './intent-types';
import { checksummed, SponsoredIntentError } from './intent-values';
import { sponsoredTypedDataKind } from './signed-typed-data';
import { SPONSORED_INTENT_TYPES, type SponsoredWitnessType } from './witness-types';

// The calls a relayer sends for signed typed data: the router's `...WithIntent` entry points and a
// token's EIP-2612 permit.

const PERMIT_TUPLE = '((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit';
/** The router's IntegratorFee[] as an ABI tuple array. */
export const INTEGRATOR_FEES_TUPLE = '(address recipient, uint256 amount)[] integratorFees';

/** The SwapGatewayRouter's sponsored entry points (the `...WithIntent` functions). */
export const sponsoredRouterInterface = new Interface([
  `function swapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 amountOut)`,
  `function swapV3WithIntent(${PERMIT_TUPLE}, address owner, (address venue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 amountOut)`,
  `function bridgeWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address recipient, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function bridgeToWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, bytes32 recipient, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function bridgeAndSwapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address destinationRouter, address destinationVenue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function acrossWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address recipient, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature)`,
  `function acrossAndSwapWithIntent(${PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, address destinationRouter, address destinationVenue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, ${INTEGRATOR_FEES_TUPLE}) intent, bytes signature)`,
]);

/** The destination router's Across message handler (AcrossMessageHandler), as a SpokePool's fill calls it. */
export const acrossMessageHandlerInterface = new Interface([
  'function handleV3AcrossMessage(address tokenSent, uint256 amount, address relayer, bytes message)',
]);

/** EIP-2612 `permit`, sent by the relayer on the user's behalf. */
export const eip2612PermitInterface = new Interface([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);

const ROUTER_METHOD: Record<SponsoredWitnessType, string> = {
  SwapIntent: 'swapWithIntent',
  SwapV3Intent: 'swapV3WithIntent',
  BridgeIntent: 'bridgeWithIntent',
  BridgeToIntent: 'bridgeToWithIntent',
  BridgeSwapIntent: 'bridgeAndSwapWithIntent',
  AcrossIntent: 'acrossWithIntent',
  AcrossSwapIntent: 'acrossAndSwapWithIntent',
};

/**
 * The transaction the relayer sends for signed typed data: for a Permit2 intent the router's
 * swapWithIntent / swapV3WithIntent / bridgeWithIntent / bridgeToWithIntent / bridgeAndSwapWithIntent / acrossWithIntent / acrossAndSwapWithIntent (to = the signed
 * spender), for an EIP-2612
 * Permit `token.permit(owner, spender, value, deadline, v, r, s)` (to = the token). Encodes only:
 * check `recoverTypedDataSigner(td, signature)` is `owner` first (an EOA owner), or the call reverts
 * with InvalidSigner at the relayer's expense.
 */
export function encodeSponsoredCall(td: TypedDataV4, owner: string, signature: string): SponsoredCall {
  const kind = sponsoredTypedDataKind(td);
  const ownerAddress = checksummed(owner, 'owner');
  const message = td.message as Record<string, never>;
  if (kind === 'Eip2612Permit') {
    if (checksummed(message.owner, 'message.owner') !== ownerAddress)
      throw new SponsoredIntentError(`the permit is for ${message.owner}, not ${ownerAddress}`);
    const { v, r, s } = Signature.from(signature);
    return {
      to: checksummed(String(td.domain.verifyingContract), 'domain.verifyingContract'),
      data: eip2612PermitInterface.encodeFunctionData('permit', [
        ownerAddress,
        message.spender,
        message.value,
        message.deadline,
        v,
        r,
        s,
      ]),
      value: '0',
    };
  }
  const permitted = message.permitted as Record<string, never>;
  const witness = message.witness as Record<string, never>;
  const permit = [[permitted.token, permitted.amount], message.nonce, message.deadline];
  const intent = SPONSORED_INTENT_TYPES[kind].map((field) =>
    field.type === 'IntegratorFee[]'
      ? (witness[field.name] as { recipient: string; amount: string }[]).map((fee) => [
          fee.recipient,
          fee.amount,
        ])
      : witness[field.name],
  );
  // Passed on as signed: Permit2 takes 65- and 64-byte signatures and EIP-1271 ones of any length.
  if (!isHexString(signature) || signature.length < 4)
    throw new SponsoredIntentError('signature must be 0x-hex bytes');
  return {
    to: checksummed(message.spender, 'message.spender'),
    data: sponsoredRouterInterface.encodeFunctionData(ROUTER_METHOD[kind], [
      permit,
      ownerAddress,
      intent,
      signature,
    ]),
    value: '0',
  };
}
