import { makeCosmoshubPath, Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import {
  DeliverTxResponse,
  GasPrice,
  SigningStargateClient,
  SigningStargateClientOptions,
  StargateClient,
} from '@cosmjs/stargate';
import { DEVNET_MNEMONIC } from '../anvil';
import { CosmosChain, DEFAULT_MESSAGE_HANDLERS } from './cosmos-chain';
import { COSMOS_DEVNET_CHAINS } from './cosmos-chain-spec';
import {
  COSMOS_DEVNET_TRANSFER_MIDDLEWARE,
  CosmosDevnetChainManifest,
  CosmosDevnetHandle,
  startCosmosDevnet,
} from './cosmos-devnet';
import { nobleForwardingModule } from './cosmos-forwarding';
import { IBC_CHANNELS, ibcChannel, IbcRelayer, sendTransfer } from './cosmos-ibc';
import { cosmosDevnetKey } from './cosmos-keys';
import { messageRegistry } from './cosmos-messages';
import { seedOsmosisPools } from './cosmos-osmosis';

/**
 * The int-specs' view of the devnet's Cosmos chains as wallets and explorers have it: unmodified
 * cosmjs clients (disconnected together at the end) and the REST API.
 */
export class CosmosTestClients {
  private readonly clients: StargateClient[] = [];

  /** A test wallet as a wallet app holds it: DIRECT signer (Keplr's default) or legacy amino (a Ledger's). */
  readonly wallet = async (
    chain: CosmosDevnetChainManifest,
    index: number,
    mode: 'direct' | 'amino' = 'direct',
    /** Message types beyond cosmjs's defaults (a chain's own modules), protobuf and amino. */
    types: Pick<SigningStargateClientOptions, 'registry' | 'aminoTypes'> = {},
  ) => {
    const options = { prefix: chain.bech32Prefix, hdPaths: [makeCosmoshubPath(index)] };
    const signer =
      mode === 'direct'
        ? await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options)
        : await Secp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, options);
    const [{ address }] = await signer.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(chain.rpc, signer, {
      gasPrice: GasPrice.fromString(chain.minGasPrice),
      broadcastPollIntervalMs: 100,
      ...types,
    });
    this.clients.push(client);
    return { address, client };
  };

  readonly reader = async (chain: CosmosDevnetChainManifest): Promise<StargateClient> => {
    const client = await StargateClient.connect(chain.rpc);
    this.clients.push(client);
    return client;
  };

  /** A balance as a wallet reads it (StargateClient.getBalance). */
  readonly balance = async (
    chain: CosmosDevnetChainManifest,
    address: string,
    denom: string,
  ): Promise<bigint> => {
    const client = await this.reader(chain);
    return BigInt((await client.getBalance(address, denom)).amount);
  };

  /** The tx of `chain` carrying a packet event of that type, sequence and source channel (what a status reader polls). */
  readonly packetTx = async (
    chain: CosmosDevnetChainManifest,
    type: string,
    sequence: string,
    srcChannel: string,
  ) => {
    const client = await this.reader(chain);
    return waitFor(async () => {
      const found = await client.searchTx(
        `${type}.packet_sequence='${sequence}' AND ${type}.packet_src_channel='${srcChannel}'`,
      );
      return found[0];
    });
  };

  /** GET (or POST `body` as JSON to) the chain's REST API. */
  readonly rest = async (chain: CosmosDevnetChainManifest, path: string, body?: unknown) => {
    const response = await fetch(`${chain.rest}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  disconnect(): void {
    this.clients.forEach((c) => c.disconnect());
  }
}

/** The packet sequence of a MsgTransfer's send_packet event. */
export function sequenceOf(result: DeliverTxResponse): string {
  const event = result.events.find((e) => e.type === 'send_packet');
  const sequence = event?.attributes.find((a) => a.key === 'packet_sequence')?.value;
  expect(sequence).toMatch(/^\d+$/);
  return sequence as string;
}

/** The value of the first `type` event's `key` attribute in a tx. */
export function attribute(
  tx: { events: readonly { type: string; attributes: readonly { key: string; value: string }[] }[] },
  type: string,
  key: string,
): string | undefined {
  return tx.events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
}

/** Polls until `probe` gives a value (a tx included at the next block, a packet relayed). */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the chain');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A spec's own Cosmos devnet (fast blocks, free ports) and clients, started before its tests and
 * stopped after them: `devnet.handle`, `devnet.hub`, `devnet.osmosis` and `devnet.chain(id)` are there once the tests run.
 */
export function cosmosDevnetForSpec() {
  const clients = new CosmosTestClients();
  const devnet = {
    handle: undefined as unknown as CosmosDevnetHandle,
    hub: undefined as unknown as CosmosDevnetChainManifest,
    osmosis: undefined as unknown as CosmosDevnetChainManifest,
    clients,
    chain(id: string): CosmosDevnetChainManifest {
      const found = devnet.handle.chains.find((c) => c.manifest.id === id);
      if (!found) throw new Error(`no Cosmos devnet chain ${id}`);
      return found.manifest;
    },
  };
  beforeAll(async () => {
    devnet.handle = await startCosmosDevnet({ standardPorts: false, blockMs: 200 });
    devnet.hub = devnet.chain('cosmoshub-devnet');
    devnet.osmosis = devnet.chain('osmosis-devnet');
  });
  afterAll(async () => {
    clients.disconnect();
    await devnet.handle?.stop();
  });
  return devnet;
}

/** The three chains and their relayer in process, no servers: blocks and relaying driven by hand. */
export function cosmosDevnetInProcess() {
  const chains = new Map(
    COSMOS_DEVNET_CHAINS.map((spec) => {
      // Noble's x/forwarding, as the devnet runs it.
      const forwarding = spec.role === 'noble' ? nobleForwardingModule(spec) : undefined;
      const handlers = forwarding
        ? [...DEFAULT_MESSAGE_HANDLERS, forwarding.handler, forwarding.clear]
        : DEFAULT_MESSAGE_HANDLERS;
      return [
        spec.id,
        new CosmosChain(spec, messageRegistry(handlers), forwarding ? [forwarding.hooks] : []),
      ];
    }),
  );
  seedOsmosisPools(chains);
  const relayer = new IbcRelayer([...chains.values()], COSMOS_DEVNET_TRANSFER_MIDDLEWARE);
  const chain = (id: string): CosmosChain => {
    const found = chains.get(id);
    if (!found) throw new Error(`no Cosmos devnet chain ${id}`);
    return found;
  };
  const address = (id: string, index: number) => cosmosDevnetKey(chain(id).spec.bech32Prefix, index).address;
  return {
    chain,
    address,
    /** A MsgTransfer's effect committed on `from` (what the tx would do), memo and all. */
    send(
      from: string,
      to: string,
      sender: string,
      receiver: string,
      denom: string,
      amount: bigint,
      memo: string,
    ) {
      const end = ibcChannel(from, IBC_CHANNELS[from][to]);
      if (!end) throw new Error(`no channel from ${from} to ${to}`);
      chain(from).fund(sender, [{ denom, amount }]);
      chain(from).genesis((state) =>
        sendTransfer({ state, spec: chain(from).spec, events: [] }, end, {
          sender,
          receiver,
          token: { denom, amount },
          memo,
          timeoutHeight: 0n,
          timeoutTimestamp: BigInt(Date.now() + 600_000) * 1_000_000n,
        }),
      );
    },
    /** Blocks on every chain and a relaying pass, `rounds` times. */
    run(rounds = 12) {
      for (let i = 0; i < rounds; i++) {
        chains.forEach((c) => c.produceBlock());
        relayer.tick();
      }
    },
    balance: (id: string, who: string, denom: string) => chain(id).queryState.balance(who, denom),
  };
}
