import { MsgSend, MsgSendResponse } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import {
  checkAddress,
  coinsJson,
  CosmosMessageHandler,
  parseCoins,
  transferEvents,
  messageEvent,
} from './cosmos-messages';

/** Gas of a MsgSend beyond the ante handler's: two accounts' balances read and written per coin. */
export const MSG_SEND_GAS = { base: 20_000, perCoin: 10_000 } as const;

/** x/bank MsgSend. */
export const msgSendHandler: CosmosMessageHandler<MsgSend> = {
  typeUrl: '/cosmos.bank.v1beta1.MsgSend',
  aminoType: 'cosmos-sdk/MsgSend',
  decode: (bytes) => MsgSend.decode(bytes),
  signers: (msg) => [msg.fromAddress],
  validate(msg, spec) {
    checkAddress(spec, msg.fromAddress, 'from');
    checkAddress(spec, msg.toAddress, 'to');
    parseCoins(msg.amount, false);
  },
  gas: (msg) => MSG_SEND_GAS.base + MSG_SEND_GAS.perCoin * msg.amount.length,
  execute(msg, ctx) {
    const coins = parseCoins(msg.amount, false);
    ctx.state.send(msg.fromAddress, msg.toAddress, coins);
    ctx.events.push(
      messageEvent('/cosmos.bank.v1beta1.MsgSend', msg.fromAddress, 'bank'),
      ...transferEvents(msg.fromAddress, msg.toAddress, coins),
    );
    return {
      typeUrl: '/cosmos.bank.v1beta1.MsgSendResponse',
      value: MsgSendResponse.encode({}).finish(),
    };
  },
  toJson: (msg) => ({
    from_address: msg.fromAddress,
    to_address: msg.toAddress,
    amount: coinsJson(msg.amount),
  }),
  toAmino: (msg) => ({
    from_address: msg.fromAddress,
    to_address: msg.toAddress,
    amount: coinsJson(msg.amount),
  }),
};
