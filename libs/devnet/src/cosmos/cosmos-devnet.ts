import type { CosmosDevnetChainManifest } from '@swapgw/chains/devnet-manifest';
import { DEVNET_MNEMONIC } from '../anvil';
import { listenLocalChain } from '../local-http-server';
import { CosmosChain, DEFAULT_MESSAGE_HANDLERS } from './cosmos-chain';
import {
  COSMOS_DEVNET_BLOCK_MS,
  COSMOS_DEVNET_CHAINS,
  COSMOS_TEST_WALLET_FUNDING,
  COSMOS_TEST_WALLET_INDICES,
  CosmosChainSpec,
} from './cosmos-chain-spec';
import { CROSSCHAIN_SWAPS_ADDRESS, crosschainSwapsContract } from './cosmos-crosschain-swaps';
import { IBC_CHANNELS, IbcRelayer, msgTransferHandler, TransferMiddleware } from './cosmos-ibc';
import { ibcHooksMiddleware } from './cosmos-ibc-hooks';
import { packetForwardMiddleware } from './cosmos-pfm';
import { seedOsmosisPools, msgSwapExactAmountInHandler } from './cosmos-osmosis';
import { cosmosDevnetKey } from './cosmos-keys';
import { messageRegistry } from './cosmos-messages';
import { CosmosRestServer } from './cosmos-rest-server';
import { CosmosRpcServer } from './cosmos-rpc-server';

export type { CosmosDevnetChainManifest };

/**
 * Each chain's transfer stack around the transfer app, outermost first, as the real chains wire
 * theirs: packet-forward-middleware on all three; on Osmosis ibc-hooks outside it, with the
 * crosschain-swaps stand-in as its only contract.
 */
export const COSMOS_DEVNET_TRANSFER_MIDDLEWARE: Readonly<Record<string, readonly TransferMiddleware[]>> = {
  'cosmoshub-devnet': [packetForwardMiddleware],
  'osmosis-devnet': [ibcHooksMiddleware([crosschainSwapsContract]), packetForwardMiddleware],
  'noble-devnet': [packetForwardMiddleware],
};

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
  for (const spec of COSMOS_DEVNET_CHAINS) {
    const handlers = [...DEFAULT_MESSAGE_HANDLERS, msgTransferHandler(counterparty)];
    if (spec.id === 'osmosis-devnet') handlers.push(msgSwapExactAmountInHandler);
    const registry = messageRegistry(handlers);
    byId.set(spec.id, new CosmosChain(spec, registry));
  }
  const relayer = new IbcRelayer([...byId.values()], COSMOS_DEVNET_TRANSFER_MIDDLEWARE);
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
    ibcChannels: { ...IBC_CHANNELS[spec.id] },
    ...(spec.id === 'osmosis-devnet' ? { crosschainSwapsContract: CROSSCHAIN_SWAPS_ADDRESS } : {}),
  };
}
