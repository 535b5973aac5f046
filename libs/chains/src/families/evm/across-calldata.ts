import { getAddress, Interface, zeroPadValue } from 'ethers';
import type { RouteLeg } from '@swapgw/contracts';
import type { EncodedCall } from '../step-parts';

/** The provider name of Across bridge legs (quote-service's ProviderNames.across). */
export const ACROSS_PROVIDER = 'across';

/** SpokePool's V3RelayData struct: a deposit's fields and its origin chain, as a fill names it. */
export const ACROSS_RELAY_DATA =
  'tuple(bytes32 depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 originChainId, uint256 depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes message)';

/**
 * The surface of Across's SpokePool we use (@across-protocol/contracts 5.0.27 SpokePool ABI;
 * addresses as bytes32): the deposit a wallet makes and its event, the fill a relayer sends and its
 * event, the fill status a relayer reads to stay idempotent.
 */
export const ACROSS_SPOKE_POOL_INTERFACE = new Interface([
  'function deposit(bytes32 depositor, bytes32 recipient, bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 destinationChainId, bytes32 exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, bytes message) payable',
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  `function fillRelay(${ACROSS_RELAY_DATA} relayData, uint256 repaymentChainId, bytes32 repaymentAddress)`,
  'event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, (bytes32 updatedRecipient, bytes32 updatedMessageHash, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
  'function fillStatuses(bytes32) view returns (uint256)',
]);

/** topic0 of SpokePool's FundsDeposited: the log of a deposit. */
export const ACROSS_FUNDS_DEPOSITED_TOPIC = spokePoolEventTopic('FundsDeposited');
/** topic0 of SpokePool's FilledRelay: the log of a fill, indexed by origin chain and deposit id. */
export const ACROSS_FILLED_RELAY_TOPIC = spokePoolEventTopic('FilledRelay');

function spokePoolEventTopic(name: string): string {
  const event = ACROSS_SPOKE_POOL_INTERFACE.getEvent(name);
  if (!event) throw new Error(`ACROSS_SPOKE_POOL_INTERFACE declares no event ${name}`);
  return event.topicHash;
}

export interface AcrossDepositArgs {
  spokePool: string;
  /** The wallet that signs: its tokens are pulled, and it may speed the deposit up. */
  depositor: string;
  /** Who the relayer pays on the destination chain. */
  recipient: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  outputAmount: bigint;
  destinationChainId: number | bigint;
  exclusiveRelayer: string;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityParameter: number;
  /** Calldata for a contract recipient's handleV3AcrossMessage; empty for a wallet. */
  message?: string;
}

/** An EVM address as the SpokePool's bytes32: left-padded with zeros. */
export function addressToBytes32(address: string): string {
  return zeroPadValue(getAddress(address), 32).toLowerCase();
}

/** The SpokePool's `deposit`, paid in ERC-20 (no value: the wallet approved the SpokePool). */
export function encodeAcrossDeposit(args: AcrossDepositArgs): EncodedCall {
  const data = ACROSS_SPOKE_POOL_INTERFACE.encodeFunctionData('deposit', [
    addressToBytes32(args.depositor),
    addressToBytes32(args.recipient),
    addressToBytes32(args.inputToken),
    addressToBytes32(args.outputToken),
    args.inputAmount,
    args.outputAmount,
    args.destinationChainId,
    addressToBytes32(args.exclusiveRelayer),
    args.quoteTimestamp,
    args.fillDeadline,
    args.exclusivityParameter,
    args.message ?? '0x',
  ]);
  return { to: getAddress(args.spokePool), data, value: '0' };
}

/** What an `across` leg's deposit asks of the relayer, as quoted; the outputAmount as spent. */
export interface AcrossLegTerms {
  spokePool: string;
  inputToken: string;
  outputToken: string;
  outputAmount: bigint;
  exclusiveRelayer: string;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityParameter: number;
}

/**
 * The deposit terms of an `across` bridge leg. The output is the quoted outputAmount scaled like
 * `minOut` (the leg's minAmountOut, which is outputAmount, times spend / amountIn), never above it.
 */
export function acrossLegTerms(leg: RouteLeg, minOut: bigint): AcrossLegTerms {
  const across = leg.across;
  if (!across) throw new Error(`The across leg on ${leg.chain} carries no deposit terms`);
  if (leg.tokenIn.address === null) throw new Error(`The across leg on ${leg.chain} spends a native coin`);
  const quoted = BigInt(across.outputAmount);
  return {
    spokePool: across.spokePool,
    inputToken: leg.tokenIn.address,
    outputToken: across.outputToken,
    outputAmount: minOut < quoted ? minOut : quoted,
    exclusiveRelayer: across.exclusiveRelayer,
    quoteTimestamp: across.quoteTimestamp,
    fillDeadline: across.fillDeadline,
    exclusivityParameter: across.exclusivityDeadline,
  };
}

/**
 * The deposit of an `across` bridge leg the wallet sends itself: `spend` of the leg's token from
 * `signer` to `recipient` on the destination chain `destinationChainId` (acrossLegTerms).
 */
export function acrossLegDeposit(
  leg: RouteLeg,
  spend: bigint,
  minOut: bigint,
  recipient: string,
  signer: string,
  destinationChainId: number,
): EncodedCall {
  return encodeAcrossDeposit({
    ...acrossLegTerms(leg, minOut),
    depositor: signer,
    recipient,
    inputAmount: spend,
    destinationChainId,
  });
}
