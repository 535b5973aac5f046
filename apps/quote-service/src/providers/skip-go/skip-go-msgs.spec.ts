import {
  ibcSwapOnArrivalMsg,
  MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL,
  osmosisSwapMsg,
} from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';
import { json, LocalUpstream } from '../../../test/support/local-upstream';
import { bodyOf, hubAtomToNobleUsdc, OSMOSIS_ATOM, skipError } from '../../../test/support/skip-go-upstream';
import { SkipGoApi } from './skip-go-api';
import { parseJsonIntegersAsStrings, SkipGoMsgs, skipSignedMsgs } from './skip-go-msgs';
import { skipRouteRequest } from './skip-go.provider';

const SENDER = 'cosmos1x8ad0zyw52mvndh7hlnafrg0gt284ga7cl43fw';
const OSMO_WALLET = 'osmo1x8ad0zyw52mvndh7hlnafrg0gt284ga7syxplu';
const CONTRACT = 'osmo1qpvu80yfd0jnnh3ytn8964382typrqq0ejmqaasa3j233su8apasfqtler';
const TIMEOUT_NS = '1688663426558649000'; // beyond 2^53: a double would round it
const MEMO = JSON.stringify({
  wasm: { contract: CONTRACT, msg: { osmosis_swap: { output_denom: 'uosmo' } } },
});

/** A MsgTransfer as Skip writes it in `msg` (snake_case JSON text, timeout_timestamp a bare number). */
const transferText = (sender = SENDER) =>
  `{"source_port":"transfer","source_channel":"channel-141","token":{"denom":"uatom","amount":"2000000"},` +
  `"sender":"${sender}","receiver":"${CONTRACT}","timeout_height":{},"timeout_timestamp":${TIMEOUT_NS},` +
  `"memo":${JSON.stringify(MEMO)}}`;

const cosmosTx = (
  msgs: { msg: string; msg_type_url: string }[],
  chainId = 'cosmoshub-4',
  signer = SENDER,
) => ({
  cosmos_tx: { chain_id: chainId, path: [chainId, 'osmosis-1'], msgs, signer_address: signer },
  operations_indices: [0, 1],
});
const transferMsg = { msg: transferText(), msg_type_url: '/ibc.applications.transfer.v1.MsgTransfer' };
const hub = { chainId: 'cosmoshub-4', address: SENDER };

describe('skipSignedMsgs: /v2/fungible/msgs as the messages a Cosmos step signs', () => {
  it("turns Skip's MsgTransfer into the shape of libs/chains' ibcSwapOnArrivalMsg, the timeout exact", () => {
    const { chainId, signerAddress, msgs } = skipSignedMsgs({ txs: [cosmosTx([transferMsg])] }, hub);
    expect({ chainId, signerAddress }).toEqual({ chainId: 'cosmoshub-4', signerAddress: SENDER });
    // The same transfer as the gateway's own builder writes it: the same keys, the same value types.
    const transfer = {
      kind: 'bridge',
      destinationChain: 'osmosis',
      tokenIn: { address: 'uatom' },
      amountIn: '2000000',
    };
    const swap = {
      kind: 'swap',
      chain: 'osmosis',
      spender: CONTRACT,
      tokenOut: { address: 'uosmo' },
      minAmountOut: '1',
    };
    const ours = ibcSwapOnArrivalMsg({
      transfer: transfer as RouteLeg,
      swap: swap as RouteLeg,
      sourceChannel: 'channel-141',
      sender: SENDER,
      receiver: OSMO_WALLET,
      recoveryAddress: OSMO_WALLET,
      timeoutTimestampNs: BigInt(TIMEOUT_NS),
    });
    expect(msgs).toEqual([{ typeUrl: ours.typeUrl, value: { ...ours.value, memo: MEMO } }]);
    expect(Object.keys(msgs[0].value).sort()).toEqual(Object.keys(ours.value).sort());
  });

  it("turns Skip's Osmosis MsgSwapExactAmountIn into the shape of osmosisSwapMsg", () => {
    const text =
      `{"sender":"${OSMO_WALLET}","routes":[{"pool_id":1,"token_out_denom":"${OSMOSIS_ATOM}"}],` +
      `"token_in":{"denom":"uosmo","amount":"1000000"},"token_out_min_amount":"51844"}`;
    const { msgs } = skipSignedMsgs(
      {
        txs: [
          cosmosTx(
            [{ msg: text, msg_type_url: MSG_SWAP_EXACT_AMOUNT_IN_TYPE_URL }],
            'osmosis-1',
            OSMO_WALLET,
          ),
        ],
      },
      { chainId: 'osmosis-1', address: OSMO_WALLET },
    );
    const leg = {
      kind: 'swap',
      tokenIn: { address: 'uosmo' },
      tokenOut: { address: OSMOSIS_ATOM },
      amountIn: '1000000',
      minAmountOut: '51844',
    };
    expect(msgs).toEqual([
      osmosisSwapMsg({
        swap: leg as RouteLeg,
        sender: OSMO_WALLET,
        routes: [{ poolId: '1', tokenOutDenom: OSMOSIS_ATOM }],
      }),
    ]);
  });

  it('reads the older `msgs` form (multi_chain_msg)', () => {
    const answer = {
      msgs: [{ multi_chain_msg: { chain_id: 'cosmoshub-4', path: ['cosmoshub-4'], ...transferMsg } }],
    };
    expect(skipSignedMsgs(answer, hub).msgs[0].value).toMatchObject({
      sourceChannel: 'channel-141',
      sender: SENDER,
    });
  });

  it('refuses msgs for another chain or signer, a message signed by another, a type it does not issue, two txs', () => {
    expect(() => skipSignedMsgs({ txs: [cosmosTx([transferMsg], 'osmosis-1')] }, hub)).toThrow(
      /for osmosis-1, not cosmoshub-4/,
    );
    expect(() =>
      skipSignedMsgs({ txs: [cosmosTx([transferMsg], 'cosmoshub-4', 'cosmos1other')] }, hub),
    ).toThrow(/signed by cosmos1other/);
    const foreign = { msg: transferText('cosmos1other'), msg_type_url: transferMsg.msg_type_url };
    expect(() => skipSignedMsgs({ txs: [cosmosTx([foreign])] }, hub)).toThrow(
      /msg 0 is signed by cosmos1other/,
    );
    const wasm = { msg: '{"sender":"x"}', msg_type_url: '/cosmwasm.wasm.v1.MsgExecuteContract' };
    expect(() => skipSignedMsgs({ txs: [cosmosTx([wasm])] }, hub)).toThrow(/does not issue/);
    expect(() => skipSignedMsgs({ txs: [cosmosTx([transferMsg]), cosmosTx([transferMsg])] }, hub)).toThrow(
      /2 transactions/,
    );
    expect(() => skipSignedMsgs({ txs: [{ evm_tx: { chain_id: '1' } }] }, hub)).toThrow(/not a Cosmos one/);
  });

  it('reads integers as strings outside strings only', () => {
    expect(parseJsonIntegersAsStrings('{"a":12345678901234567890,"b":"7","c":[-3,1.5],"d":"x\\"9"}')).toEqual(
      {
        a: '12345678901234567890',
        b: '7',
        c: ['-3', 1.5],
        d: 'x"9',
      },
    );
  });
});

describe('SkipGoMsgs against a local server speaking the Skip Go API', () => {
  const skip = new LocalUpstream();
  let msgs: SkipGoMsgs;
  beforeAll(async () => {
    await skip.start();
    msgs = new SkipGoMsgs(new SkipGoApi({ baseUrl: skip.url }));
  });
  afterAll(() => skip.stop());

  const context = {
    fromChain: { cosmos: { chainId: 'cosmoshub-4' } },
    toChain: { cosmos: { chainId: 'noble-1' } },
    tokenIn: { mint: 'uatom' },
    tokenOut: { mint: 'uusdc' },
    amountIn: 10_000_000n,
  } as never;
  const route = hubAtomToNobleUsdc(
    skipRouteRequest(context) as unknown as Record<string, unknown>,
    '49870000',
  );
  const addresses = {
    'cosmoshub-4': SENDER,
    'osmosis-1': OSMO_WALLET,
    'noble-1': 'noble1x8ad0zyw52mvndh7hlnafrg0gt284ga7zq8j4z',
  };

  it('POSTs the route back with the address of each required chain and the slippage in percent', async () => {
    skip.handler = (_request, res) => json(res, 200, { txs: [cosmosTx([transferMsg])], estimated_fees: [] });
    const signed = await msgs.msgsFor(
      { route: route as never, addresses, slippageBps: 50, signer: hub },
      AbortSignal.timeout(5_000),
    );
    expect(signed.msgs).toHaveLength(1);
    const sent = bodyOf(skip.requests[0]);
    expect(skip.requests[0].url.pathname).toBe('/v2/fungible/msgs');
    expect(sent).toMatchObject({
      source_asset_chain_id: 'cosmoshub-4',
      dest_asset_chain_id: 'noble-1',
      amount_in: '10000000',
      amount_out: '49870000',
      address_list: [SENDER, OSMO_WALLET, addresses['noble-1']],
      operations: route.operations,
      slippage_tolerance_percent: '0.5',
    });
  });

  it('asks nothing without an address on a required chain, and fails on an error answer', async () => {
    skip.requests.length = 0;
    const { 'noble-1': _noble, ...partial } = addresses;
    await expect(
      msgs.msgsFor(
        { route: route as never, addresses: partial, slippageBps: 50, signer: hub },
        AbortSignal.timeout(5_000),
      ),
    ).rejects.toThrow(/address on noble-1/);
    expect(skip.requests).toHaveLength(0);
    skip.handler = (_request, res) => skipError(res, 500, 13, 'internal');
    await expect(
      msgs.msgsFor(
        { route: route as never, addresses, slippageBps: 50, signer: hub },
        AbortSignal.timeout(5_000),
      ),
    ).rejects.toThrow(/HTTP 500/);
  });
});
