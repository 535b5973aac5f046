import type { Coin as ProtoCoin } from 'cosmjs-types/cosmos/base/v1beta1/coin';
import type { CosmosChainSpec } from './cosmos-chain-spec';
import { CosmosTxError } from './cosmos-errors';
import type { GasMeter } from './cosmos-gas';
import { addressBytes } from './cosmos-keys';
import { Coin, CosmosState } from './cosmos-state';

/** An ABCI event as CometBFT reports it (and tx_search matches on). */
export interface TxEvent {
  type: string;
  attributes: { key: string; value: string }[];
}

/** What a message handler runs against: the tx's state branch, its gas meter, the block. */
export interface MessageContext {
  state: CosmosState;
  gas: GasMeter;
  spec: CosmosChainSpec;
  blockTime: Date;
  events: TxEvent[];
}

/**
 * One message type of the chain (a module's Msg service method), keyed by its typeUrl in the
 * chain's registry: how it decodes, who must sign it, what it costs, what it does, and its JSON (the
 * gRPC-gateway's proto JSON and the amino JSON a LEGACY_AMINO_JSON signature covers). A new module
 * (IBC transfer, a DEX) is a new handler registered beside these, the chain unchanged.
 */
export interface CosmosMessageHandler<T = unknown> {
  typeUrl: string;
  /** The amino `type` of the message in a StdSignDoc. */
  aminoType: string;
  decode(bytes: Uint8Array): T;
  /** Signer addresses, in order (the SDK's GetSigners). */
  signers(msg: T): string[];
  /** Stateless checks (ValidateBasic): a refused message refuses the whole tx at CheckTx. */
  validate(msg: T, spec: CosmosChainSpec): void;
  /** Gas the message consumes in deliver and simulate alike. */
  gas(msg: T): number;
  /** Runs the message on ctx.state; returns the Msg response as an Any. */
  execute(msg: T, ctx: MessageContext): { typeUrl: string; value: Uint8Array };
  /** proto JSON (snake_case fields) as the REST API shows the message, without its `@type`. */
  toJson(msg: T): Record<string, unknown>;
  /** The amino JSON `value` of the message. */
  toAmino(msg: T): Record<string, unknown>;
}

export type MessageRegistry = ReadonlyMap<string, CosmosMessageHandler>;

export function messageRegistry(handlers: CosmosMessageHandler[]): MessageRegistry {
  return new Map(handlers.map((h) => [h.typeUrl, h]));
}

/** Refuses an address that is not a bech32 account address of the chain (code 7). */
export function checkAddress(spec: CosmosChainSpec, address: string, field: string): void {
  if (!addressBytes(spec.bech32Prefix, address)) {
    throw new CosmosTxError('invalidAddress', `invalid ${field} address ${JSON.stringify(address)}`);
  }
}

/** Parses protobuf coins; refuses malformed, non-positive or unsorted/duplicate ones (code 10). */
export function parseCoins(coins: ProtoCoin[], allowEmpty: boolean): Coin[] {
  const parsed = coins.map((c) => {
    if (!/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(c.denom) || !/^[0-9]+$/.test(c.amount)) {
      throw new CosmosTxError('invalidCoins', `${c.amount}${c.denom}`);
    }
    return { denom: c.denom, amount: BigInt(c.amount) };
  });
  const text = parsed.map((c) => `${c.amount}${c.denom}`).join(',');
  if (!allowEmpty && parsed.length === 0) throw new CosmosTxError('invalidCoins', text);
  parsed.forEach((c, i) => {
    if (c.amount <= 0n || (i > 0 && parsed[i - 1].denom >= c.denom)) {
      throw new CosmosTxError('invalidCoins', text);
    }
  });
  return parsed;
}

export function coinsJson(
  coins: { denom: string; amount: bigint | string }[],
): { denom: string; amount: string }[] {
  return coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
}

/** The `message` event the SDK emits for each message: its typeUrl (`action`), sender and module. */
export function messageEvent(action: string, sender: string, module: string): TxEvent {
  return {
    type: 'message',
    attributes: [
      { key: 'action', value: action },
      { key: 'sender', value: sender },
      { key: 'module', value: module },
    ],
  };
}

/** The `coin_spent` / `coin_received` / `transfer` events x/bank emits for a send. */
export function transferEvents(from: string, to: string, coins: Coin[]): TxEvent[] {
  const amount = coins.map((c) => `${c.amount}${c.denom}`).join(',');
  return [
    {
      type: 'coin_spent',
      attributes: [
        { key: 'spender', value: from },
        { key: 'amount', value: amount },
      ],
    },
    {
      type: 'coin_received',
      attributes: [
        { key: 'receiver', value: to },
        { key: 'amount', value: amount },
      ],
    },
    {
      type: 'transfer',
      attributes: [
        { key: 'recipient', value: to },
        { key: 'sender', value: from },
        { key: 'amount', value: amount },
      ],
    },
    { type: 'message', attributes: [{ key: 'sender', value: from }] },
  ];
}
