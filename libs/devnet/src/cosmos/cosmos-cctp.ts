import {
  CCTP_MESSAGE_RECEIVED_EVENT,
  CCTP_MINT_AND_WITHDRAW_EVENT,
  decodeMsgDepositForBurn,
  DEPOSIT_FOR_BURN_EVENT,
  encodeMsgDepositForBurnResponse,
  MSG_DEPOSIT_FOR_BURN_AMINO_TYPE,
  MSG_DEPOSIT_FOR_BURN_RESPONSE_TYPE_URL,
  MSG_DEPOSIT_FOR_BURN_TYPE_URL,
  type MsgDepositForBurn,
} from '@swapgw/chains/families';
import { base64 } from '@scure/base';
import type { RelayerTxContext } from './cosmos-chain';
import { CosmosTxError } from './cosmos-errors';
import { checkAddress, CosmosMessageHandler, TxEvent, messageEvent } from './cosmos-messages';
import type { CosmosState } from './cosmos-state';

/** Gas of a MsgDepositForBurn beyond the ante handler's: a balance burnt, the nonce and the message stored. */
export const MSG_DEPOSIT_FOR_BURN_GAS = 60_000;

/** What Noble's x/cctp takes: the token it burns and mints, and the remote domains it sends to. */
export interface CctpModuleParams {
  /** The local token (`uusdc`). */
  burnToken: string;
  /** Its own domain (Noble: 4): a burn towards it is refused. */
  localDomain: number;
  /** The domains with a remote token messenger (the bridge's other ends). */
  remoteDomains: ReadonlySet<number>;
}

const NEXT_NONCE_KEY = 'cctp/next-nonce';
/** `cctp/used/<sourceDomain>/<nonce>`: a received message, minted once (MessageTransmitter's usedNonces). */
const usedNonceKey = (source: bigint, nonce: bigint) => `cctp/used/${source}/${nonce}`;

/**
 * circle.cctp.v1.MsgDepositForBurn on the devnet's Noble: burns `amount` of the burn token from
 * `from`, takes the next nonce and emits the typed event `circle.cctp.v1.DepositForBurn` (attributes
 * as JSON values) that the devnet bridge's relayer watches, as Circle's attesters watch Noble's.
 * Refused: a token other than the burn token, a domain without a remote token messenger (or Noble's
 * own), a mint recipient that is not 32 bytes or is all zeros, a non-positive amount.
 */
export function msgDepositForBurnHandler(params: CctpModuleParams): CosmosMessageHandler<MsgDepositForBurn> {
  return {
    typeUrl: MSG_DEPOSIT_FOR_BURN_TYPE_URL,
    aminoType: MSG_DEPOSIT_FOR_BURN_AMINO_TYPE,
    decode: decodeMsgDepositForBurn,
    signers: (msg) => [msg.from],
    validate(msg, spec) {
      checkAddress(spec, msg.from, 'from');
      if (!/^[0-9]+$/.test(msg.amount) || BigInt(msg.amount) <= 0n)
        throw new CosmosTxError('invalidCoins', `amount must be positive: ${msg.amount}`);
      if (msg.mintRecipient.length !== 32 || msg.mintRecipient.every((b) => b === 0))
        throw new CosmosTxError('invalidRequest', 'mint recipient must be 32 nonzero bytes');
    },
    gas: () => MSG_DEPOSIT_FOR_BURN_GAS,
    execute(msg, ctx) {
      if (msg.burnToken !== params.burnToken)
        throw new CosmosTxError('invalidRequest', `burning ${msg.burnToken} is not supported`);
      if (msg.destinationDomain === params.localDomain || !params.remoteDomains.has(msg.destinationDomain))
        throw new CosmosTxError(
          'invalidRequest',
          `remote token messenger not found for domain ${msg.destinationDomain}`,
        );
      const amount = BigInt(msg.amount);
      ctx.state.burn(msg.from, [{ denom: msg.burnToken, amount }]);
      const nonce = BigInt(ctx.state.get(NEXT_NONCE_KEY) ?? '0');
      ctx.state.set(NEXT_NONCE_KEY, (nonce + 1n).toString());
      ctx.events.push(
        messageEvent(MSG_DEPOSIT_FOR_BURN_TYPE_URL, msg.from, 'cctp'),
        {
          type: 'burn',
          attributes: [
            { key: 'burner', value: msg.from },
            { key: 'amount', value: `${amount}${msg.burnToken}` },
          ],
        },
        depositForBurnEvent(msg, nonce),
      );
      return {
        typeUrl: MSG_DEPOSIT_FOR_BURN_RESPONSE_TYPE_URL,
        value: encodeMsgDepositForBurnResponse(nonce),
      };
    },
    // The proto JSON and Noble's amino JSON name the fields alike (snake_case, bytes in base64).
    toJson: depositForBurnJson,
    toAmino: depositForBurnJson,
  };
}

function depositForBurnJson(msg: MsgDepositForBurn): Record<string, unknown> {
  return {
    from: msg.from,
    amount: msg.amount,
    destination_domain: msg.destinationDomain,
    mint_recipient: base64.encode(msg.mintRecipient),
    burn_token: msg.burnToken,
  };
}

/** The typed event, its values JSON as the SDK's EmitTypedEvent writes them (uint64 as a string). */
function depositForBurnEvent(msg: MsgDepositForBurn, nonce: bigint): TxEvent {
  const json = (value: unknown) => JSON.stringify(value);
  return {
    type: DEPOSIT_FOR_BURN_EVENT,
    attributes: [
      { key: 'nonce', value: json(nonce.toString()) },
      { key: 'burn_token', value: json(msg.burnToken) },
      { key: 'amount', value: json(msg.amount) },
      { key: 'depositor', value: json(msg.from) },
      { key: 'mint_recipient', value: json(base64.encode(msg.mintRecipient)) },
      { key: 'destination_domain', value: json(msg.destinationDomain) },
      { key: 'destination_token_messenger', value: json(base64.encode(new Uint8Array(32))) },
      { key: 'destination_caller', value: json(base64.encode(new Uint8Array(32))) },
    ],
  };
}

/** A burn as the event tells it (parseDepositForBurnEvent). */
export interface DepositForBurnSeen {
  nonce: bigint;
  amount: bigint;
  depositor: string;
  mintRecipient: Uint8Array;
  destinationDomain: number;
  burnToken: string;
}

/** Reads a `circle.cctp.v1.DepositForBurn` event's attributes back. */
export function parseDepositForBurnEvent(event: TxEvent): DepositForBurnSeen | undefined {
  if (event.type !== DEPOSIT_FOR_BURN_EVENT) return undefined;
  const value = (key: string): unknown => {
    const attribute = event.attributes.find((a) => a.key === key);
    return attribute ? JSON.parse(attribute.value) : undefined;
  };
  return {
    nonce: BigInt(value('nonce') as string),
    amount: BigInt(value('amount') as string),
    depositor: value('depositor') as string,
    mintRecipient: base64.decode(value('mint_recipient') as string),
    destinationDomain: value('destination_domain') as number,
    burnToken: value('burn_token') as string,
  };
}

/** Whether the message of `sourceDomain` and `nonce` was received (minted) on this chain. */
export function cctpNonceUsed(state: CosmosState, sourceDomain: bigint, nonce: bigint): boolean {
  return state.get(usedNonceKey(sourceDomain, nonce)) !== undefined;
}

/** The devnet relayer's name as the caller of MsgReceiveMessage. */
export const NOBLE_DEVNET_RELAYER = 'noble-devnet-relayer';

/**
 * What a received message does (MsgReceiveMessage, on the devnet the relayer's tx): mints `amount`
 * of the burn token to `recipient`, once per (source, nonce); a second receipt fails and changes
 * nothing. Emits `circle.cctp.v1.MessageReceived` and
 * `circle.cctp.v1.MintAndWithdraw` as x/cctp does.
 */
export function receiveCctpMessage(
  params: CctpModuleParams,
  message: { sourceDomain: bigint; nonce: bigint; recipient: string; amount: bigint },
): (ctx: RelayerTxContext) => void {
  return ({ state, events }) => {
    const key = usedNonceKey(message.sourceDomain, message.nonce);
    if (state.get(key) !== undefined) throw new CosmosTxError('invalidRequest', 'nonce already used');
    state.set(key, '1');
    state.mint(message.recipient, [{ denom: params.burnToken, amount: message.amount }]);
    // x/cctp's typed events, JSON values (uint32 a number, uint64 a string): the message's
    // source and nonce (what a client matches a deposit with), then the mint.
    events.push({
      type: CCTP_MESSAGE_RECEIVED_EVENT,
      attributes: [
        { key: 'caller', value: JSON.stringify(NOBLE_DEVNET_RELAYER) },
        { key: 'source_domain', value: JSON.stringify(Number(message.sourceDomain)) },
        { key: 'nonce', value: JSON.stringify(message.nonce.toString()) },
      ],
    });
    events.push({
      type: CCTP_MINT_AND_WITHDRAW_EVENT,
      attributes: [
        { key: 'mint_recipient', value: JSON.stringify(message.recipient) },
        { key: 'amount', value: JSON.stringify(message.amount.toString()) },
        { key: 'mint_token', value: JSON.stringify(params.burnToken) },
      ],
    });
  };
}
