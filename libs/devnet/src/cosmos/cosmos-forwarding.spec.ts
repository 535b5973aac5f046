import {
  ACCOUNT_CLEARED_EVENT,
  crosschainSwapMemo,
  decodeMsgRegisterAccount,
  encodeMsgClearAccount,
  encodeMsgRegisterAccount,
  MSG_CLEAR_ACCOUNT_TYPE_URL,
  nobleForwardingProgress,
  type ForwardingChainReader,
  ForwardingTarget,
  MSG_REGISTER_ACCOUNT_TYPE_URL,
  nobleForwardingAddress,
  signGranterTx,
} from '@swapgw/chains/families';
import { bech32 } from '@scure/base';
import { receiveCctpMessage } from './cosmos-cctp';
import { CROSSCHAIN_SWAPS_ADDRESS, swapRoute } from './cosmos-crosschain-swaps';
import { nobleCctpParams } from './cosmos-devnet';
import { forwardingAccount, forwardingStats } from './cosmos-forwarding';
import { escrowAddress, ibcDenom } from './cosmos-ibc';
import { cosmosDevnetKey, sdkAddressHash } from './cosmos-keys';
import { cometTxJson } from './cosmos-json';
import { routeSwap } from './cosmos-osmosis';
import { searchTxs } from './cosmos-tx-search';
import { cosmosDevnetInProcess } from './cosmos-test-support';

const NOBLE = 'noble-devnet';
const OSMOSIS = 'osmosis-devnet';
const HUB = 'cosmoshub-devnet';
const OSMOSIS_ATOM = ibcDenom('transfer/channel-0/uatom');
const OSMOSIS_USDC = ibcDenom('transfer/channel-1/uusdc');

/** Noble's forwarding target for a USDC → ATOM swap on Osmosis paid to `hubRecipient`. */
function swapToAtomTarget(hubRecipient: string, minOut: bigint): ForwardingTarget {
  const words = bech32.decode(hubRecipient as `${string}1${string}`).words;
  return {
    channel: 'channel-0', // Noble's channel to Osmosis
    recipient: CROSSCHAIN_SWAPS_ADDRESS,
    fallback: '',
    memo: crosschainSwapMemo({
      contract: CROSSCHAIN_SWAPS_ADDRESS,
      outputDenom: OSMOSIS_ATOM,
      minOutputAmount: minOut.toString(),
      receiver: hubRecipient,
      recoveryAddress: bech32.encode('osmo', words),
    }),
  };
}

/** The registration as the fee granter signs it (signGranterTx), by a Noble test wallet. */
function registration(
  net: ReturnType<typeof cosmosDevnetInProcess>,
  index: number,
  target: ForwardingTarget,
  /** Txs of the wallet admitted since the last block. */
  pending = 0n,
) {
  const key = cosmosDevnetKey('noble', index);
  return signedByTestWallet(net, index, pending, {
    typeUrl: MSG_REGISTER_ACCOUNT_TYPE_URL,
    value: encodeMsgRegisterAccount({ signer: key.address, ...target }),
  });
}

/** MsgClearAccount of `address`, signed by a Noble test wallet. */
function clearing(
  net: ReturnType<typeof cosmosDevnetInProcess>,
  index: number,
  address: string,
  fallback: boolean,
) {
  const key = cosmosDevnetKey('noble', index);
  return signedByTestWallet(net, index, 0n, {
    typeUrl: MSG_CLEAR_ACCOUNT_TYPE_URL,
    value: encodeMsgClearAccount({ signer: key.address, address, fallback }),
  });
}

/** The chains as a client reads them over CometBFT (`/tx`, `tx_search`, `block_results`), in process. */
function readerOf(net: ReturnType<typeof cosmosDevnetInProcess>, id: string): ForwardingChainReader {
  const chain = net.chain(id);
  const json = (tx: Parameters<typeof cometTxJson>[0]) => JSON.parse(JSON.stringify(cometTxJson(tx)));
  return {
    committedTx: async (hash) => {
      const tx = chain.includedTx(hash);
      return tx ? json(tx) : null;
    },
    searchTxs: async (query) => searchTxs(chain, query, 'asc').map(json),
    blockEvents: async (height) => chain.block(height)?.endBlockEvents.map((e) => ({ ...e })) ?? null,
  };
}

function signedByTestWallet(
  net: ReturnType<typeof cosmosDevnetInProcess>,
  index: number,
  pending: bigint,
  message: { typeUrl: string; value: Uint8Array },
) {
  const key = cosmosDevnetKey('noble', index);
  const account = net.chain(NOBLE).queryState.account(key.address)!;
  return Buffer.from(
    signGranterTx({
      account: {
        chainId: NOBLE,
        prefix: 'noble',
        accountNumber: account.accountNumber,
        sequence: account.sequence + pending,
      },
      privateKey: key.privateKey,
      messages: [message],
      gasLimit: 200_000n,
      fee: [{ denom: 'uusdc', amount: '20000' }],
    }),
    'base64',
  );
}

function fundedNet() {
  const net = cosmosDevnetInProcess();
  net.chain(NOBLE).fund(cosmosDevnetKey('noble', 1).address, [{ denom: 'uusdc', amount: 10_000_000n }]);
  net.run(1);
  return net;
}

/** The bridge's mint of `amount` uusdc to `recipient` (the devnet bridge's Noble end, nonce `nonce`). */
function mint(
  net: ReturnType<typeof cosmosDevnetInProcess>,
  recipient: string,
  amount: bigint,
  nonce: bigint,
) {
  net
    .chain(NOBLE)
    .submitRelayerTx(
      new TextEncoder().encode(`mint ${nonce}`),
      receiveCctpMessage(nobleCctpParams([31337]), { sourceDomain: 31337n, nonce, recipient, amount }),
    );
}

describe("Noble's x/forwarding on the devnet", () => {
  it('derives the address as types.GenerateAddress does; the devnet memo joins the preimage only when set', () => {
    const target = { channel: 'channel-0', recipient: 'osmo1recipient', fallback: '', memo: '' };
    const address = nobleForwardingAddress('noble', target);
    // address.Derive([]byte("forwarding"), channel+recipient+fallback)[12:]
    const expected = sdkAddressHash('forwarding', 'channel-0osmo1recipient').subarray(12);
    expect(address).toBe(bech32.encode('noble', bech32.toWords(expected)));
    expect(nobleForwardingAddress('noble', { ...target, fallback: 'noble1x' })).not.toBe(address);
    expect(nobleForwardingAddress('noble', { ...target, memo: '{"wasm":{}}' })).not.toBe(address);
    expect(nobleForwardingAddress('noble', { ...target, channel: 'channel-1' })).not.toBe(address);
  });

  it('encodes MsgRegisterAccount as noble/forwarding/v1/tx.proto numbers its fields (memo 5 on the devnet)', () => {
    const msg = { signer: 'noble1s', recipient: 'osmo1r', channel: 'channel-0', fallback: '', memo: 'm' };
    const bytes = encodeMsgRegisterAccount(msg);
    // 0x0a signer, 0x12 recipient, 0x1a channel, fallback omitted (empty), 0x2a memo.
    expect([...bytes]).toEqual([
      0x0a,
      7,
      ...Buffer.from('noble1s'),
      0x12,
      6,
      ...Buffer.from('osmo1r'),
      0x1a,
      9,
      ...Buffer.from('channel-0'),
      0x2a,
      1,
      ...Buffer.from('m'),
    ]);
    expect(decodeMsgRegisterAccount(bytes)).toEqual(msg);
  });

  it('forwards a bridge mint over its channel with its memo: USDC swapped to ATOM on Osmosis, paid on the Hub', () => {
    const net = fundedNet();
    const hubRecipient = net.address(HUB, 3);
    const target = swapToAtomTarget(hubRecipient, 1n);
    const forwarding = nobleForwardingAddress('noble', target);
    const check = net.chain(NOBLE).checkTx(registration(net, 1, target));
    expect(check.code).toBe(0);
    net.run(1);
    const registered = net.chain(NOBLE).includedTx(check.hash)!;
    expect(registered.result.code).toBe(0);
    expect(forwardingAccount(net.chain(NOBLE).queryState, forwarding)).toEqual(target);

    const amount = 2_500_000n;
    const expectedAtom = routeSwap(
      net.chain(OSMOSIS).queryState.branch(),
      undefined,
      { denom: OSMOSIS_USDC, amount },
      swapRoute(net.chain(OSMOSIS).queryState, OSMOSIS_USDC, OSMOSIS_ATOM),
    ).out;
    const nobleEscrow = escrowAddress('noble', 'channel-0');
    const escrowed = net.balance(NOBLE, nobleEscrow, 'uusdc');
    const hubAtom = net.balance(HUB, hubRecipient, 'uatom');
    mint(net, forwarding, amount, 1n);
    net.run();
    // Left Noble at the mint's block end (escrowed for Osmosis), swapped there, ATOM home on the Hub.
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(0n);
    expect(net.balance(NOBLE, nobleEscrow, 'uusdc')).toBe(escrowed + amount);
    expect(net.balance(HUB, hubRecipient, 'uatom')).toBe(hubAtom + expectedAtom);
    expect(forwardingStats(net.chain(NOBLE).queryState, 'channel-0')).toEqual({
      numOfAccounts: '1',
      numOfForwards: '1',
      totalForwarded: { uusdc: amount.toString() },
    });
  });

  it('forwards what arrived before the registration once registered', () => {
    const net = fundedNet();
    const receiver = net.address(OSMOSIS, 4);
    const target = { channel: 'channel-0', recipient: receiver, fallback: '', memo: '' };
    const forwarding = nobleForwardingAddress('noble', target);
    mint(net, forwarding, 700n, 1n);
    net.run(1);
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(700n); // an ordinary account: nothing moves
    expect(net.chain(NOBLE).checkTx(registration(net, 1, target)).code).toBe(0);
    net.run();
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(0n);
    expect(net.balance(OSMOSIS, receiver, OSMOSIS_USDC)).toBe(700n);
  });

  it("refuses a second registration and an unknown channel with the module's errors", () => {
    const net = fundedNet();
    const target = { channel: 'channel-0', recipient: net.address(OSMOSIS, 5), fallback: '', memo: '' };
    net.chain(NOBLE).checkTx(registration(net, 1, target));
    net.run(1);
    const again = net.chain(NOBLE).checkTx(registration(net, 1, target));
    const unknown = net.chain(NOBLE).checkTx(registration(net, 1, { ...target, channel: 'channel-9' }, 1n));
    net.run(1);
    const failed = (hash: string) => net.chain(NOBLE).includedTx(hash)!.result;
    expect(failed(again.hash)).toMatchObject({
      code: 1,
      codespace: 'undefined',
      log: 'failed to execute message; message index: 0: account has already been registered',
    });
    expect(failed(unknown.hash).log).toBe(
      'failed to execute message; message index: 0: channel does not exist: channel-9',
    );
  });

  /** A forward refused on arrival (a minimum no pool can pay): Noble refunds the forwarding account. */
  function refundedForward(net: ReturnType<typeof fundedNet>, fallback: string) {
    const hubRecipient = net.address(HUB, 6);
    const target = { ...swapToAtomTarget(hubRecipient, 10n ** 18n), fallback };
    const forwarding = nobleForwardingAddress('noble', target);
    net.chain(NOBLE).checkTx(registration(net, 1, target));
    net.run(1);
    mint(net, forwarding, 1_000n, 1n);
    net.run();
    return { hubRecipient, forwarding };
  }

  it('keeps a refunded forward (its swap failed on Osmosis) instead of sending it again', () => {
    const net = fundedNet();
    const { hubRecipient, forwarding } = refundedForward(net, '');
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(1_000n);
    expect(net.balance(HUB, hubRecipient, 'uatom')).toBe(0n);
    expect(forwardingStats(net.chain(NOBLE).queryState, 'channel-0').numOfForwards).toBe('1');
  });

  it('follows the route as a client reads it: the mint by its CCTP nonce, the forward in the block results, the packets to Osmosis and home', async () => {
    const net = fundedNet();
    const hubRecipient = net.address(HUB, 7);
    const target = { ...swapToAtomTarget(hubRecipient, 1n), fallback: net.address(NOBLE, 7) };
    const forwarding = nobleForwardingAddress('noble', target);
    net.chain(NOBLE).checkTx(registration(net, 1, target));
    net.run(1);
    mint(net, forwarding, 50_000n, 5n);
    const chains = {
      reader: (id: string) => readerOf(net, id),
      counterpartyOf: (id: string) => (channel: string) => {
        const other = id === NOBLE ? OSMOSIS : channel === 'channel-0' ? HUB : NOBLE;
        return { chain: other, rpc: readerOf(net, other) };
      },
    };
    const lookup = {
      sourceDomain: 31337,
      nonce: '5',
      forwarding: { chain: NOBLE, ...target, address: forwarding },
      swapChain: OSMOSIS,
      homeChain: HUB,
    };
    // Nothing minted yet.
    expect(await nobleForwardingProgress(chains, lookup)).toMatchObject({ payoutTxHash: null, packets: [] });
    net.run(1);
    const sent = await nobleForwardingProgress(chains, lookup);
    expect(sent.payoutTxHash).toMatch(/^[0-9A-F]{64}$/);
    expect(sent.packets).toEqual([
      expect.objectContaining({ state: 'sent', sourceChannel: 'channel-0', destinationChain: OSMOSIS }),
    ]);
    expect(sent.outcome).toBe('pending');
    net.run();
    const done = await nobleForwardingProgress(chains, lookup);
    expect(done.outcome).toBe('delivered');
    expect(done.packets.map((p) => `${p.destinationChain}:${p.state}`)).toEqual([
      `${OSMOSIS}:acknowledged`,
      `${HUB}:acknowledged`,
    ]);
    expect(net.balance(HUB, hubRecipient, 'uatom')).toBeGreaterThan(0n);

    // A swap refused on arrival: failed, the USDC on the forwarding account, cleared to the fallback.
    const refusedTarget = { ...swapToAtomTarget(hubRecipient, 10n ** 18n), fallback: net.address(NOBLE, 7) };
    const refusedAccount = nobleForwardingAddress('noble', refusedTarget);
    net.chain(NOBLE).checkTx(registration(net, 1, refusedTarget));
    net.run(1);
    mint(net, refusedAccount, 2_000n, 6n);
    net.run();
    const refused = await nobleForwardingProgress(chains, {
      ...lookup,
      nonce: '6',
      forwarding: { chain: NOBLE, ...refusedTarget, address: refusedAccount },
    });
    expect(refused).toMatchObject({
      outcome: 'failed',
      packets: [{ state: 'acknowledged', refunded: true }],
      failure: {
        message: expect.stringContaining('swap on arrival'),
        fundsAt: { chain: NOBLE, address: refusedAccount, holder: 'forwarding-account' },
      },
    });
    expect(net.balance(NOBLE, refusedAccount, 'uusdc')).toBe(2_000n);
  });

  it("clears a stuck forwarding account as MsgClearAccount does: to its fallback, or forwarded again; the module's refusals", () => {
    const net = fundedNet();
    const fallback = net.address(NOBLE, 6);
    const { forwarding } = refundedForward(net, fallback);
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(1_000n);

    // Without `fallback`: forwarded again at the block's end (and refused again by the pool).
    const again = net.chain(NOBLE).checkTx(clearing(net, 1, forwarding, false));
    net.run(1);
    expect(net.chain(NOBLE).includedTx(again.hash)?.result.code).toBe(0);
    expect(forwardingStats(net.chain(NOBLE).queryState, 'channel-0').numOfForwards).toBe('2');
    net.run();
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(1_000n);

    // With it: sent to the fallback at once.
    const before = net.balance(NOBLE, fallback, 'uusdc');
    const cleared = net.chain(NOBLE).checkTx(clearing(net, 1, forwarding, true));
    expect(cleared.code).toBe(0);
    net.run(1);
    const included = net.chain(NOBLE).includedTx(cleared.hash)!;
    expect(included.result.code).toBe(0);
    expect(included.result.events.map((e) => e.type)).toContain(ACCOUNT_CLEARED_EVENT);
    expect(net.balance(NOBLE, forwarding, 'uusdc')).toBe(0n);
    expect(net.balance(NOBLE, fallback, 'uusdc')).toBe(before + 1_000n);

    // Nothing left, not a forwarding account: the msg server's errors.
    const empty = net.chain(NOBLE).checkTx(clearing(net, 1, forwarding, true));
    net.run(1);
    expect(net.chain(NOBLE).includedTx(empty.hash)!.result.log).toContain(
      'account does not require clearing',
    );
    const plain = net.chain(NOBLE).checkTx(clearing(net, 1, fallback, true));
    net.run(1);
    expect(net.chain(NOBLE).includedTx(plain.hash)!.result.log).toContain(
      'account is not a forwarding account',
    );
  });
});
