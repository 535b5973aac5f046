import type { CosmosDevnetChainManifest } from '@swapgw/chains/devnet-manifest';
import { CCTP_DOMAINS } from '@swapgw/chains/families';
import { DEVNET_MNEMONIC } from '../anvil';
import { listenLocalChain } from '../local-http-server';
import { CosmosChain, DEFAULT_MESSAGE_HANDLERS } from './cosmos-chain';
import {
  COSMOS_DEVNET_BLOCK_MS,
  COSMOS_DEVNET_CHAINS,
  COSMOS_DEVNET_CHANNELS,
  COSMOS_TEST_WALLET_FUNDING,
  COSMOS_TEST_WALLET_INDICES,
  CosmosChainSpec,
  CosmosNetwork,
} from './cosmos-chain-spec';
import { CROSSCHAIN_SWAPS_ADDRESS, crosschainSwapsContract } from './cosmos-crosschain-swaps';
import { IbcRelayer, msgTransferHandler, TransferMiddleware } from './cosmos-ibc';
import { ibcHooksMiddleware } from './cosmos-ibc-hooks';
import { packetForwardMiddleware } from './cosmos-pfm';
import { CctpModuleParams, msgDepositForBurnHandler } from './cosmos-cctp';
import { nobleForwardingModule } from './cosmos-forwarding';
import { seedOsmosisPools, msgSwapExactAmountInHandler } from './cosmos-osmosis';
import { cosmosDevnetKey } from './cosmos-keys';
import { messageRegistry } from './cosmos-messages';
import { CosmosRestServer } from './cosmos-rest-server';
import { CosmosRpcServer } from './cosmos-rpc-server';

export type { CosmosDevnetChainManifest };

/** The devnet's three chains, its channels and where its crosschain-swaps contract is. */
export const COSMOS_DEVNET_NETWORK: CosmosNetwork = {
  chains: COSMOS_DEVNET_CHAINS,
  channels: COSMOS_DEVNET_CHANNELS,
  crosschainSwapsAddress: CROSSCHAIN_SWAPS_ADDRESS,
};

/**
 * Each chain's transfer stack around the transfer app, outermost first, as the real chains wire
 * theirs: packet-forward-middleware on all three; on Osmosis ibc-hooks outside it, with the
 * crosschain-swaps stand-in as its only contract.
 */
export function cosmosTransferMiddleware(
  network: CosmosNetwork,
): Record<string, readonly TransferMiddleware[]> {
  return Object.fromEntries(
    network.chains.map((spec) => [
      spec.id,
      spec.role === 'osmosis'
        ? [ibcHooksMiddleware([crosschainSwapsContract(network)]), packetForwardMiddleware]
        : [packetForwardMiddleware],
    ]),
  );
}

/** The devnet's transfer stacks. */
export const COSMOS_DEVNET_TRANSFER_MIDDLEWARE = cosmosTransferMiddleware(COSMOS_DEVNET_NETWORK);

export interface CosmosDevnetChainHandle {
  manifest: CosmosDevnetChainManifest;
  chain: CosmosChain;
}

export interface CosmosDevnetHandle {
  chains: CosmosDevnetChainHandle[];
  /** The IBC relayer between the chains (running from the start; `stop()` leaves packets to time out). */
  relayer: IbcRelayer;
  stop(): Promise<void>;
}

export interface StartCosmosDevnetOptions {
  /** Standard layout: each chain on its default ports (26657/1317, …); otherwise any free ports. */
  standardPorts: boolean;
  host?: string;
  blockMs?: number;
  mnemonic?: string;
  /** Which chains to run: the devnet's (the default), or the mainnet replica's under the real ids. */
  network?: CosmosNetwork;
  /**
   * The CCTP domains Noble's x/cctp sends to (the devnet bridge's other ends); none by default, so a
   * Cosmos devnet without the bridge refuses every MsgDepositForBurn.
   */
  cctpRemoteDomains?: readonly number[];
}

/** The chain that runs Circle's CCTP module (the devnet bridge's Cosmos end). */
export const NOBLE_DEVNET_ID = 'noble-devnet';

/** Noble's x/cctp on the devnet: uusdc burnt and minted, Noble's own domain 4. */
export function nobleCctpParams(remoteDomains: readonly number[]): CctpModuleParams {
  return { burnToken: 'uusdc', localDomain: CCTP_DOMAINS.noble, remoteDomains: new Set(remoteDomains) };
}

/**
 * Starts the devnet's Cosmos chains (no Cosmos SDK binary is installable here, so the chains are
 * ours, cosmos-chain.ts): genesis funding of the test wallets, a CometBFT RPC and a REST API per
 * chain, and a block every `blockMs` on each. Cheap: no key is derived but the test wallets'.
 */
export async function startCosmosDevnet(options: StartCosmosDevnetOptions): Promise<CosmosDevnetHandle> {
  const host = options.host ?? '127.0.0.1';
  const blockMs = options.blockMs ?? COSMOS_DEVNET_BLOCK_MS;
  const mnemonic = options.mnemonic ?? DEVNET_MNEMONIC;
  const network = options.network ?? COSMOS_DEVNET_NETWORK;
  const servers: { close(): Promise<void> }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const stop = async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await Promise.all(servers.map((s) => s.close()));
  };
  const byId = new Map<string, CosmosChain>();
  const counterparty = (id: string) => {
    const latest = byId.get(id)?.latestBlock;
    return latest && { height: latest.height, time: latest.time };
  };
  for (const spec of network.chains) {
    const handlers = [...DEFAULT_MESSAGE_HANDLERS, msgTransferHandler(counterparty)];
    if (spec.role === 'osmosis') handlers.push(msgSwapExactAmountInHandler);
    const modules = [];
    if (spec.role === 'noble') {
      handlers.push(msgDepositForBurnHandler(nobleCctpParams(options.cctpRemoteDomains ?? [])));
      const forwarding = nobleForwardingModule(spec);
      handlers.push(forwarding.handler, forwarding.clear);
      modules.push(forwarding.hooks);
    }
    const registry = messageRegistry(handlers);
    byId.set(spec.id, new CosmosChain(spec, registry, modules));
  }
  const relayer = new IbcRelayer([...byId.values()], cosmosTransferMiddleware(network));
  seedOsmosisPools(byId);
  try {
    const chains = await Promise.all(
      [...byId.values()].map(async (chain) => {
        const spec = chain.spec;
        const accounts = COSMOS_TEST_WALLET_INDICES.map((index) => ({
          index,
          address: cosmosDevnetKey(spec.bech32Prefix, index, mnemonic).address,
        }));
        for (const { address } of accounts) {
          chain.fund(address, [{ denom: spec.denom, amount: COSMOS_TEST_WALLET_FUNDING }]);
        }
        chain.produceBlock();
        // Funded before listening, so no client ever sees a chain without its coins.
        const rpc = new CosmosRpcServer(chain);
        const rest = new CosmosRestServer(chain, relayer);
        servers.push(rpc, rest);
        const [rpcPort, restPort] = await Promise.all([
          listen(rpc, spec, 'rpc', options.standardPorts ? spec.defaultRpcPort : 0, host),
          listen(rest, spec, 'rest', options.standardPorts ? spec.defaultRestPort : 0, host),
        ]);
        return {
          chain,
          manifest: chainManifest(
            network,
            spec,
            `http://${host}:${rpcPort}`,
            `http://${host}:${restPort}`,
            blockMs,
            accounts,
          ),
        };
      }),
    );
    timer = setInterval(() => {
      chains.forEach(({ chain }) => chain.produceBlock());
      relayer.tick();
    }, blockMs);
    return { chains, relayer, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listen(
  server: CosmosRpcServer | CosmosRestServer,
  spec: CosmosChainSpec,
  api: 'rpc' | 'rest',
  port: number,
  host: string,
): Promise<number> {
  return listenLocalChain(server, `${spec.id} ${api}`, port, host, 'COSMOS_START_FAILED');
}

function chainManifest(
  network: CosmosNetwork,
  spec: CosmosChainSpec,
  rpc: string,
  rest: string,
  blockMs: number,
  accounts: { index: number; address: string }[],
): CosmosDevnetChainManifest {
  return {
    id: spec.id,
    name: spec.name,
    family: 'cosmos',
    chainId: spec.id,
    rpc,
    rest,
    bech32Prefix: spec.bech32Prefix,
    nativeDenom: spec.denom,
    nativeSymbol: spec.symbol,
    decimals: spec.decimals,
    minGasPrice: `${spec.minGasPrice}${spec.denom}`,
    blockMs,
    accounts,
    ibcChannels: { ...network.channels[spec.id] },
    ...(spec.role === 'osmosis' ? { crosschainSwapsContract: network.crosschainSwapsAddress } : {}),
  };
}
