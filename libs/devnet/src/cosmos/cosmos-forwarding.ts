import {
  ACCOUNT_CLEARED_EVENT,
  decodeMsgClearAccount,
  decodeMsgRegisterAccount,
  MSG_CLEAR_ACCOUNT_AMINO_TYPE,
  MSG_CLEAR_ACCOUNT_RESPONSE_TYPE_URL,
  MSG_CLEAR_ACCOUNT_TYPE_URL,
  msgClearAccountJson,
  type MsgClearAccount,
  encodeMsgRegisterAccountResponse,
  FORWARDING_MAX_RECIPIENT_LENGTH,
  ForwardingTarget,
  MSG_REGISTER_ACCOUNT_AMINO_TYPE,
  MSG_REGISTER_ACCOUNT_RESPONSE_TYPE_URL,
  MSG_REGISTER_ACCOUNT_TYPE_URL,
  msgRegisterAccountJson,
  type MsgRegisterAccount,
  nobleForwardingAddress,
} from '@swapgw/chains/families';
import type { CosmosModuleHooks } from './cosmos-chain';
import type { CosmosChainSpec } from './cosmos-chain-spec';
import { CosmosTxError } from './cosmos-errors';
import { escrowAddress, ibcChannel, sendTransfer } from './cosmos-ibc';
import { addressBytes } from './cosmos-keys';
import { checkAddress, CosmosMessageHandler, messageEvent, transferEvents } from './cosmos-messages';
import type { CosmosState } from './cosmos-state';

/** Gas of a MsgClearAccount beyond the ante handler's: the account read, a send or a mark. */
export const MSG_CLEAR_ACCOUNT_GAS = 20_000;
/** Gas of a MsgRegisterAccount beyond the ante handler's: an account written, a counter incremented. */
export const MSG_REGISTER_ACCOUNT_GAS = 30_000;
/** ibc-go's DefaultRelativePacketTimeoutTimestamp, the forward's timeout after the block (ns). */
const FORWARD_TIMEOUT_NS = 10n * 60n * 1_000_000_000n;
/** The typed event of a registration (its attributes JSON values, as every typed event's). */
export const ACCOUNT_REGISTERED_EVENT = 'noble.forwarding.v1.AccountRegistered';

/** A registered forwarding account (ForwardingAccount's own fields but its creation height). */
export type ForwardingAccountRecord = ForwardingTarget;

const accountKey = (address: string) => `forwarding/account/${address}`;
/** PendingForwards: transient in the module (cleared by its EndBlocker), a store entry here. */
const pendingKey = (address: string) => `forwarding/pending/${address}`;
const PENDING_PREFIX = 'forwarding/pending/';
const statsKey = (channel: string) => `forwarding/stats/${channel}`;

interface ChannelStats {
  numOfAccounts: string;
  numOfForwards: string;
  totalForwarded: Record<string, string>;
}

/** The forwarding account registered at `address`, if any. */
export function forwardingAccount(state: CosmosState, address: string): ForwardingAccountRecord | undefined {
  const stored = state.get(accountKey(address));
  return stored === undefined ? undefined : (JSON.parse(stored) as ForwardingAccountRecord);
}

/** QueryStatsByChannel: accounts registered on the channel, forwards sent and what they carried. */
export function forwardingStats(state: CosmosState, channel: string): ChannelStats {
  const stored = state.get(statsKey(channel));
  return stored === undefined
    ? { numOfAccounts: '0', numOfForwards: '0', totalForwarded: {} }
    : (JSON.parse(stored) as ChannelStats);
}

function updateStats(state: CosmosState, channel: string, update: (stats: ChannelStats) => void): void {
  const stats = forwardingStats(state, channel);
  update(stats);
  state.set(statsKey(channel), JSON.stringify(stats));
}

/**
 * noble-assets/forwarding's x/forwarding on the devnet's Noble: `MsgRegisterAccount` (anyone may
 * register anyone's forwarding account) and the module's hooks: its send restriction marks a
 * registered account that receives funds from anywhere but its channel's escrow (a refund of its
 * own forward is not sent again) and its EndBlocker sends each marked account's balances over its
 * channel to its recipient, with its memo (a devnet extension), timing out ten minutes after the
 * block. A forward that cannot be sent is skipped (the real module logs it), the funds left on the
 * account, as is a refunded forward; `MsgClearAccount` (anyone's) marks the account to forward them
 * again at the block's end or, with `fallback` and a fallback registered, sends them to the fallback
 * at once (`AccountCleared`), the real msg server's checks and errors in its order.
 */
export function nobleForwardingModule(spec: CosmosChainSpec): {
  handler: CosmosMessageHandler<MsgRegisterAccount>;
  clear: CosmosMessageHandler<MsgClearAccount>;
  hooks: CosmosModuleHooks;
} {
  const handler: CosmosMessageHandler<MsgRegisterAccount> = {
    typeUrl: MSG_REGISTER_ACCOUNT_TYPE_URL,
    aminoType: MSG_REGISTER_ACCOUNT_AMINO_TYPE,
    decode: decodeMsgRegisterAccount,
    signers: (msg) => [msg.signer],
    validate(msg, chainSpec) {
      checkAddress(chainSpec, msg.signer, 'signer');
    },
    gas: () => MSG_REGISTER_ACCOUNT_GAS,
    execute(msg, ctx) {
      // The msg server's checks, in its order, with its plain (unregistered) errors.
      if (!/^channel-\d+$/.test(msg.channel)) throw new CosmosTxError('unregistered', 'invalid channel');
      if (new TextEncoder().encode(msg.recipient).length > FORWARDING_MAX_RECIPIENT_LENGTH)
        throw new CosmosTxError(
          'unregistered',
          `recipient address must not exceed ${FORWARDING_MAX_RECIPIENT_LENGTH} bytes`,
        );
      if (msg.fallback !== '' && !addressBytes(ctx.spec.bech32Prefix, msg.fallback))
        throw new CosmosTxError('unregistered', 'invalid fallback address');
      const address = nobleForwardingAddress(ctx.spec.bech32Prefix, msg);
      if (!ibcChannel(ctx.spec.id, msg.channel))
        throw new CosmosTxError('unregistered', `channel does not exist: ${msg.channel}`);
      if (forwardingAccount(ctx.state, address))
        throw new CosmosTxError('unregistered', 'account has already been registered');
      const existing = ctx.state.account(address);
      if (existing && (existing.pubKey !== undefined || existing.sequence !== 0n))
        throw new CosmosTxError(
          'unregistered',
          `attempting to register an existing user account with address: ${address}`,
        );
      ctx.state.ensureAccount(address);
      const record: ForwardingAccountRecord = {
        channel: msg.channel,
        recipient: msg.recipient,
        fallback: msg.fallback,
        memo: msg.memo,
      };
      ctx.state.set(accountKey(address), JSON.stringify(record));
      updateStats(ctx.state, msg.channel, (stats) => {
        stats.numOfAccounts = (BigInt(stats.numOfAccounts) + 1n).toString();
      });
      // Funds that arrived before the registration are forwarded at this block's end.
      if (ctx.state.allBalances(address).length > 0) ctx.state.set(pendingKey(address), '1');
      const json = (value: unknown) => JSON.stringify(value);
      ctx.events.push(messageEvent(MSG_REGISTER_ACCOUNT_TYPE_URL, msg.signer, 'forwarding'), {
        type: ACCOUNT_REGISTERED_EVENT,
        attributes: [
          { key: 'address', value: json(address) },
          { key: 'channel', value: json(msg.channel) },
          { key: 'recipient', value: json(msg.recipient) },
          { key: 'fallback', value: json(msg.fallback) },
        ],
      });
      return {
        typeUrl: MSG_REGISTER_ACCOUNT_RESPONSE_TYPE_URL,
        value: encodeMsgRegisterAccountResponse(address),
      };
    },
    toJson: msgRegisterAccountJson,
    // Amino JSON omits empty strings (the Go amino codec's omitempty).
    toAmino: (msg) =>
      Object.fromEntries(Object.entries(msgRegisterAccountJson(msg)).filter(([, value]) => value !== '')),
  };

  const clear: CosmosMessageHandler<MsgClearAccount> = {
    typeUrl: MSG_CLEAR_ACCOUNT_TYPE_URL,
    aminoType: MSG_CLEAR_ACCOUNT_AMINO_TYPE,
    decode: decodeMsgClearAccount,
    signers: (msg) => [msg.signer],
    validate(msg, chainSpec) {
      checkAddress(chainSpec, msg.signer, 'signer');
    },
    gas: () => MSG_CLEAR_ACCOUNT_GAS,
    execute(msg, ctx) {
      if (!addressBytes(ctx.spec.bech32Prefix, msg.address))
        throw new CosmosTxError('unregistered', 'invalid account address');
      if (!ctx.state.account(msg.address)) throw new CosmosTxError('unregistered', 'account does not exist');
      const account = forwardingAccount(ctx.state, msg.address);
      if (!account) throw new CosmosTxError('unregistered', 'account is not a forwarding account');
      const balance = ctx.state.allBalances(msg.address);
      if (balance.length === 0) throw new CosmosTxError('unregistered', 'account does not require clearing');
      ctx.events.push(messageEvent(MSG_CLEAR_ACCOUNT_TYPE_URL, msg.signer, 'forwarding'));
      if (!msg.fallback || account.fallback === '') {
        ctx.state.set(pendingKey(msg.address), '1');
      } else {
        ctx.state.send(msg.address, account.fallback, balance);
        ctx.events.push(...transferEvents(msg.address, account.fallback, balance), {
          type: ACCOUNT_CLEARED_EVENT,
          attributes: [
            { key: 'address', value: JSON.stringify(msg.address) },
            { key: 'recipient', value: JSON.stringify(account.fallback) },
          ],
        });
      }
      return { typeUrl: MSG_CLEAR_ACCOUNT_RESPONSE_TYPE_URL, value: new Uint8Array() };
    },
    toJson: msgClearAccountJson,
    toAmino: msgClearAccountJson,
  };

  const hooks: CosmosModuleHooks = {
    onCredit(state, from, to) {
      const account = forwardingAccount(state, to);
      if (!account) return;
      if (from !== escrowAddress(spec.bech32Prefix, account.channel)) state.set(pendingKey(to), '1');
    },
    endBlock(ctx) {
      for (const [key] of ctx.state.entries(PENDING_PREFIX)) {
        ctx.state.set(key, undefined);
        const address = key.slice(PENDING_PREFIX.length);
        const account = forwardingAccount(ctx.state, address);
        const end = account && ibcChannel(spec.id, account.channel);
        if (!account || !end) continue;
        for (const coin of ctx.state.allBalances(address)) {
          const branch = ctx.state.branch();
          const events: typeof ctx.events = [];
          try {
            sendTransfer({ state: branch, spec, events }, end, {
              sender: address,
              receiver: account.recipient,
              token: coin,
              memo: account.memo,
              timeoutHeight: 0n,
              timeoutTimestamp: BigInt(ctx.blockTime.getTime()) * 1_000_000n + FORWARD_TIMEOUT_NS,
            });
          } catch {
            continue; // "unable to execute automatic forward": left on the account
          }
          ctx.state.replaceWith(branch);
          ctx.events.push(...events);
          updateStats(ctx.state, account.channel, (stats) => {
            stats.numOfForwards = (BigInt(stats.numOfForwards) + 1n).toString();
            stats.totalForwarded[coin.denom] = (
              BigInt(stats.totalForwarded[coin.denom] ?? '0') + coin.amount
            ).toString();
          });
        }
      }
    },
  };
  return { handler, clear, hooks };
}
