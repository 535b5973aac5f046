import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { RouteLeg } from '@swapgw/contracts';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { cosmosAddressOfPubkey } from './cosmos-address';
import { ibcSwapOnArrivalMsg, osmosisSwapMsg } from './cosmos-route-msgs';
import { buildCosmosSignDoc } from './cosmos-sign-doc';
import { encodeMsgSwapExactAmountIn } from './osmosis-swap-msg';

const ATOM = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const CONTRACT = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';
const SENDER = 'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8z';
const RECEIVER = 'osmo1erxf3sa9q2j4vgseu7jq4a258ckmk7cy89fm3s';

const leg = (fields: Partial<RouteLeg>): RouteLeg =>
  ({
    amountIn: '2000000',
    expectedAmountOut: '19900000',
    minAmountOut: '19800000',
    estimatedDurationSeconds: 5,
    ...fields,
  }) as RouteLeg;
const transfer = leg({
  kind: 'bridge',
  chain: 'cosmoshub-devnet',
  provider: 'ibc',
  tokenIn: { chain: 'cosmoshub-devnet', symbol: 'ATOM', address: 'uatom', decimals: 6 },
  tokenOut: { chain: 'osmosis-devnet', symbol: 'ATOM', address: ATOM, decimals: 6 },
  minAmountOut: '2000000',
  spender: 'cosmos1escrow',
  destinationChain: 'osmosis-devnet',
});
const swap = leg({
  kind: 'swap',
  chain: 'osmosis-devnet',
  provider: 'osmosis',
  tokenIn: { chain: 'osmosis-devnet', symbol: 'ATOM', address: ATOM, decimals: 6 },
  tokenOut: { chain: 'osmosis-devnet', symbol: 'OSMO', address: 'uosmo', decimals: 6 },
  spender: CONTRACT,
});

describe('the messages of a Cosmos route', () => {
  it('sends an IBC transfer to the crosschain-swaps contract, its wasm memo asking for the swap leg', () => {
    const msg = ibcSwapOnArrivalMsg({
      transfer,
      swap,
      sourceChannel: 'channel-0',
      sender: SENDER,
      receiver: RECEIVER,
      recoveryAddress: RECEIVER,
      timeoutTimestampNs: 1_800_000_000_000_000_000n,
    });
    const decoded = MsgTransfer.fromJSON(msg.value);
    expect(decoded).toMatchObject({
      sourcePort: 'transfer',
      sourceChannel: 'channel-0',
      token: { denom: 'uatom', amount: '2000000' },
      sender: SENDER,
      receiver: CONTRACT,
      timeoutTimestamp: 1_800_000_000_000_000_000n,
    });
    expect(JSON.parse(decoded.memo)).toEqual({
      wasm: {
        contract: CONTRACT,
        msg: {
          osmosis_swap: {
            output_denom: 'uosmo',
            slippage: { min_output_amount: '19800000' },
            receiver: RECEIVER,
            on_failed_delivery: { local_recovery_addr: RECEIVER },
          },
        },
      },
    });
    expect(() =>
      ibcSwapOnArrivalMsg({
        transfer: swap,
        swap,
        sourceChannel: 'channel-0',
        sender: SENDER,
        receiver: RECEIVER,
        recoveryAddress: RECEIVER,
        timeoutTimestampNs: 1n,
      }),
    ).toThrow('bridge leg into a swap leg');
  });

  it("swaps on Osmosis with poolmanager's MsgSwapExactAmountIn over the routes given, ending in the leg's output", () => {
    const onOsmosis = leg({
      ...swap,
      tokenIn: { chain: 'osmosis-devnet', symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      tokenOut: swap.tokenIn,
    });
    const msg = osmosisSwapMsg({
      swap: onOsmosis,
      sender: RECEIVER,
      routes: [{ poolId: '1', tokenOutDenom: ATOM }],
    });
    expect(msg.value).toEqual({
      sender: RECEIVER,
      routes: [{ poolId: '1', tokenOutDenom: ATOM }],
      tokenIn: { denom: 'uosmo', amount: '2000000' },
      tokenOutMinAmount: '19800000',
    });
    // sender=1, routes=2 {pool_id=1, token_out_denom=2}, token_in=3, token_out_min_amount=4.
    const bytes = encodeMsgSwapExactAmountIn(msg.value);
    expect(bytes[0]).toBe(10);
    expect(Buffer.from(bytes).includes(Buffer.from(ATOM))).toBe(true);
    expect(() =>
      osmosisSwapMsg({
        swap: onOsmosis,
        sender: RECEIVER,
        routes: [{ poolId: '1', tokenOutDenom: 'uatom' }],
      }),
    ).toThrow("end in the leg's output");
    // A SignDoc carries it, with its amino form for Ledger users.
    const pubkey = secp256k1.getPublicKey(
      Uint8Array.from({ length: 32 }, (_, i) => i + 1),
      true,
    );
    const signer = cosmosAddressOfPubkey('osmo', pubkey);
    const built = buildCosmosSignDoc({
      chainId: 'osmosis-devnet',
      bech32Prefix: 'osmo',
      signerAddress: signer,
      signerPubkey: Buffer.from(pubkey).toString('base64'),
      accountNumber: '1',
      sequence: '0',
      msgs: [
        osmosisSwapMsg({ swap: onOsmosis, sender: signer, routes: [{ poolId: '1', tokenOutDenom: ATOM }] }),
      ],
      gasLimit: '200000',
      fee: [{ denom: 'uosmo', amount: '500' }],
    });
    if (built.kind !== 'ready') throw new Error(built.reason);
    expect(built.payload.aminoSignDoc?.msgs[0]).toEqual({
      type: 'osmosis/poolmanager/swap-exact-amount-in',
      value: {
        sender: signer,
        routes: [{ pool_id: '1', token_out_denom: ATOM }],
        token_in: { denom: 'uosmo', amount: '2000000' },
        token_out_min_amount: '19800000',
      },
    });
  });
});
