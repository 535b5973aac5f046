import { GeneratedType, Registry } from '@cosmjs/proto-signing';
import { defaultRegistryTypes } from '@cosmjs/stargate';
import { bech32 } from '@scure/base';
import {
  crosschainSwapMemo,
  decodeMsgRegisterAccount,
  encodeMsgRegisterAccount,
  MSG_REGISTER_ACCOUNT_TYPE_URL,
  type MsgRegisterAccount,
  nobleForwardingAddress,
} from '@swapgw/chains/families';
import { CROSSCHAIN_SWAPS_ADDRESS } from './cosmos-crosschain-swaps';
import { OSMOSIS_ATOM, OSMOSIS_USDC } from './cosmos-osmosis';
import { cosmosDevnetForSpec, waitFor } from './cosmos-test-support';

/** MsgRegisterAccount as a cosmjs client registers a chain's own message (a GeneratedType of the hand-coded protobuf). */
const MsgRegisterAccountType: GeneratedType = {
  // cosmjs calls encode(value).finish().
  encode: (message: Record<string, unknown>) => ({ finish: () => encodeMsgRegisterAccount(message) }),
  decode: (input: Uint8Array) => decodeMsgRegisterAccount(input),
  fromPartial: (object: Partial<MsgRegisterAccount>) => ({ ...object }),
} as unknown as GeneratedType;

/**
 * Noble's x/forwarding on the running devnet, as a wallet and an explorer see it: a forwarding account
 * registered by a cosmjs-signed MsgRegisterAccount, its address as the REST query derives it, and USDC
 * sent to it by an ordinary MsgSend forwarded to Osmosis's crosschain-swaps contract with its memo,
 * swapped for ATOM and paid on the Hub; balances read on the three chains.
 */
describe('local Cosmos devnet: Noble forwarding accounts', () => {
  const devnet = cosmosDevnetForSpec();
  const { wallet, rest, balance } = devnet.clients;
  const noble = () => devnet.chain('noble-devnet');

  it('registers an account through cosmjs, then forwards a plain send into a swap on Osmosis paid on the Hub', async () => {
    const registry = new Registry([
      ...defaultRegistryTypes,
      [MSG_REGISTER_ACCOUNT_TYPE_URL, MsgRegisterAccountType],
    ]);
    const registrar = await wallet(noble(), 6, 'direct', { registry });
    const hubRecipient = (await wallet(devnet.hub, 5)).address;
    const target = {
      channel: noble().ibcChannels['osmosis-devnet'],
      recipient: CROSSCHAIN_SWAPS_ADDRESS,
      fallback: '',
      memo: crosschainSwapMemo({
        contract: CROSSCHAIN_SWAPS_ADDRESS,
        outputDenom: OSMOSIS_ATOM,
        minOutputAmount: '1',
        receiver: hubRecipient,
        recoveryAddress: bech32.encode('osmo', bech32.decode(hubRecipient as `${string}1${string}`).words),
      }),
    };
    const address = nobleForwardingAddress('noble', target);
    const query = `/noble/forwarding/v1/address/${target.channel}/${target.recipient}/?memo=${encodeURIComponent(target.memo)}`;
    expect((await rest(noble(), query)).json).toEqual({ address, exists: false });

    const registered = await registrar.client.signAndBroadcast(
      registrar.address,
      [{ typeUrl: MSG_REGISTER_ACCOUNT_TYPE_URL, value: { signer: registrar.address, ...target } }],
      'auto',
    );
    expect(registered.code).toBe(0);
    expect(registered.events.find((e) => e.type === 'noble.forwarding.v1.AccountRegistered')).toBeDefined();
    expect((await rest(noble(), query)).json).toEqual({ address, exists: true });

    // Anyone's USDC sent to it moves on (what a CCTP mint or an exchange withdrawal does alike).
    const hubBefore = await balance(devnet.hub, hubRecipient, 'uatom');
    const contractUsdc = await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_USDC);
    const sender = await wallet(noble(), 7);
    const sent = await sender.client.sendTokens(
      sender.address,
      address,
      [{ denom: 'uusdc', amount: '3000000' }],
      'auto',
    );
    expect(sent.code).toBe(0);
    const atom = await waitFor(async () => {
      const held = await balance(devnet.hub, hubRecipient, 'uatom');
      return held > hubBefore ? held - hubBefore : undefined;
    });
    expect(atom).toBeGreaterThan(0n);
    expect(await balance(noble(), address, 'uusdc')).toBe(0n);
    expect(await balance(devnet.osmosis, CROSSCHAIN_SWAPS_ADDRESS, OSMOSIS_USDC)).toBe(contractUsdc);
    expect((await rest(noble(), `/noble/forwarding/v1/stats/${target.channel}`)).json).toEqual({
      num_of_accounts: '1',
      num_of_forwards: '1',
      total_forwarded: [{ denom: 'uusdc', amount: '3000000' }],
    });

    // A second registration of the same account fails in the block with the module's error.
    const again = await registrar.client.signAndBroadcast(
      registrar.address,
      [{ typeUrl: MSG_REGISTER_ACCOUNT_TYPE_URL, value: { signer: registrar.address, ...target } }],
      { amount: [{ denom: 'uusdc', amount: '30000' }], gas: '300000' },
    );
    expect(again.code).toBe(1); // ABCI's "undefined" codespace: the module's plain error
    expect(again.rawLog).toContain('account has already been registered');
  });
});
