import { isNonNegativeInteger, isObject } from '../../devnet-manifest/manifest-checks';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { DevnetManifestSection } from '../../devnet-manifest/devnet-manifest-section';
import { cosmosTokenListing } from './cosmos-denoms';

/**
 * The Cosmos family's section of the devnet manifest (`cosmos`): its type and its check, registered
 * in devnet-manifest-sections.ts.
 */

/** One local Cosmos SDK chain of the manifest's `cosmos` section (startCosmosDevnet). */
export interface CosmosDevnetChainManifest {
  /** API identifier, e.g. `cosmoshub-devnet`. */
  id: string;
  name: string;
  family: 'cosmos';
  /** The chain id transactions are signed for (the same string as `id`). */
  chainId: string;
  /** CometBFT RPC (JSON-RPC over POST and the URI form), no trailing slash: cosmjs's endpoint. */
  rpc: string;
  /** The SDK's REST API (gRPC-gateway), no trailing slash. */
  rest: string;
  bech32Prefix: string;
  /** Base denom of the native token, e.g. `uatom`. */
  nativeDenom: string;
  nativeSymbol: string;
  decimals: number;
  /** The node's minimum gas price, as the SDK writes it (`0.005uatom`). */
  minGasPrice: string;
  blockMs: number;
  /** Test wallets: m/44'/118'/0'/0/<index> of the test mnemonic, 1,000 tokens each at start. */
  accounts: { index: number; address: string }[];
  /**
   * ICS-20 transfer channels (port `transfer`) of this chain: counterparty chain id → this chain's
   * channel id toward it, e.g. `{"osmosis-devnet": "channel-0"}`.
   */
  ibcChannels: Record<string, string>;
  /**
   * Osmosis only: the address of the crosschain-swaps contract an ibc-hooks `wasm` memo names for a
   * swap on arrival (`{"wasm":{"contract":<this>,"msg":{"osmosis_swap":{…}}}}`, the packet's receiver
   * the same address). On the devnet a stand-in for the CosmWasm contract, not the contract itself.
   */
  crosschainSwapsContract?: string;
  /**
   * Noble only: its end of the devnet bridge, shaped like Circle's CCTP there (a wallet burns its
   * USDC with circle.cctp.v1.MsgDepositForBurn; USDC bridged to Noble is minted to the recipient).
   */
  bridge?: CosmosDevnetBridge;
}

/** The devnet bridge's Cosmos end (Noble's CCTP). */
export interface CosmosDevnetBridge {
  /** The bridge's id of the chain (EVM `depositTo` destinationChainId): Noble's CCTP domain, 4. */
  chainId: number;
  /** Symbol of the bridged token (USDC). */
  token: string;
  /** Its denom, what MsgDepositForBurn's burn_token names (`uusdc`). */
  denom: string;
  /** Where its module account is (x/cctp's, the burns' spender as a route leg shows it). */
  moduleAddress: string;
  /** Upper bound, either direction, from the deposit to the release. */
  estimatedDurationSeconds: number;
}

/** Structural check of the manifest's `cosmos` section; one message per problem, empty when valid. */
export function cosmosManifestProblems(cosmos: unknown): string[] {
  if (!Array.isArray(cosmos)) return ['cosmos must be an array'];
  return cosmos.flatMap((chain, i) => {
    const at = `cosmos[${i}]`;
    if (!isObject(chain)) return [`${at} must be an object`];
    const problems: string[] = [];
    const expect = (ok: boolean, message: string) => {
      if (!ok) problems.push(`${at}.${message}`);
    };
    const isUrl = (url: unknown) => typeof url === 'string' && /^https?:\/\/[^/]+(\/[^/]+)*$/.test(url);
    expect(typeof chain.id === 'string' && chain.id.length > 0, 'id must be a non-empty string');
    expect(typeof chain.name === 'string', 'name must be a string');
    expect(chain.family === 'cosmos', 'family must be cosmos');
    expect(
      typeof chain.chainId === 'string' && chain.chainId.length > 0,
      'chainId must be a non-empty string',
    );
    expect(isUrl(chain.rpc), 'rpc must be an http(s) URL without a trailing slash');
    expect(isUrl(chain.rest), 'rest must be an http(s) URL without a trailing slash');
    const prefix = chain.bech32Prefix;
    expect(typeof prefix === 'string' && /^[a-z]+$/.test(prefix), 'bech32Prefix must be lowercase letters');
    expect(
      typeof chain.nativeDenom === 'string' && chain.nativeDenom.length > 0,
      'nativeDenom must be a denom',
    );
    expect(typeof chain.nativeSymbol === 'string', 'nativeSymbol must be a string');
    expect(isNonNegativeInteger(chain.decimals), 'decimals must be an integer');
    expect(
      typeof chain.minGasPrice === 'string' &&
        /^[0-9]+(\.[0-9]+)?[a-zA-Z][a-zA-Z0-9/]*$/.test(chain.minGasPrice),
      'minGasPrice must be a decimal coin (0.005uatom)',
    );
    expect(
      isNonNegativeInteger(chain.blockMs) && (chain.blockMs as number) > 0,
      'blockMs must be a positive integer',
    );
    const channels = chain.ibcChannels;
    expect(
      isObject(channels) &&
        Object.values(channels).every((id) => typeof id === 'string' && /^channel-\d+$/.test(id)),
      'ibcChannels must map counterparty chain ids to channel ids (channel-0)',
    );
    const contract = chain.crosschainSwapsContract;
    expect(
      contract === undefined ||
        (typeof prefix === 'string' &&
          typeof contract === 'string' &&
          new RegExp(`^${prefix}1[02-9ac-hj-np-z]{38,58}$`).test(contract)),
      "crosschainSwapsContract must be a bech32 address of the chain's prefix",
    );
    const bridge = chain.bridge;
    expect(
      bridge === undefined ||
        (isObject(bridge) &&
          isNonNegativeInteger(bridge.chainId) &&
          typeof bridge.token === 'string' &&
          typeof bridge.denom === 'string' &&
          bridge.denom.length > 0 &&
          typeof bridge.moduleAddress === 'string' &&
          isNonNegativeInteger(bridge.estimatedDurationSeconds)),
      'bridge must be {chainId, token, denom, moduleAddress, estimatedDurationSeconds}',
    );
    if (!Array.isArray(chain.accounts)) {
      problems.push(`${at}.accounts must be an array`);
    } else {
      chain.accounts.forEach((account, j) => {
        expect(
          isObject(account) && isNonNegativeInteger(account.index),
          `accounts[${j}].index must be a non-negative integer`,
        );
        expect(
          isObject(account) &&
            typeof prefix === 'string' &&
            typeof account.address === 'string' &&
            account.address.startsWith(`${prefix}1`),
          `accounts[${j}].address must be a bech32 address of the chain's prefix`,
        );
      });
    }
    return problems;
  });
}

/**
 * A local Cosmos SDK chain. Its CAIP-2 reference is its chain id, as CAIP-2's `cosmos` namespace
 * names chains (`cosmos:cosmoshub-4`); its CometBFT RPC is its `rpcUrl`, what a wallet signs with.
 */
function devnetCosmosDescriptor(chain: CosmosDevnetChainManifest): ChainDescriptor {
  return {
    id: chain.id,
    name: chain.name,
    family: 'cosmos',
    network: 'testnet',
    caip2: `cosmos:${chain.chainId}`,
    nativeSymbol: chain.nativeSymbol,
    nativeDecimals: chain.decimals,
    rpcUrl: chain.rpc,
    statusApiUrl: chain.rpc,
    devnet: true,
    cosmos: {
      chainId: chain.chainId,
      bech32Prefix: chain.bech32Prefix,
      nativeDenom: chain.nativeDenom,
      restUrl: chain.rest,
      minGasPrice: chain.minGasPrice,
      ibcChannels: { ...chain.ibcChannels },
      ...(chain.crosschainSwapsContract ? { crosschainSwapsContract: chain.crosschainSwapsContract } : {}),
    },
  };
}

/** The `cosmos` section in the sections table: its chains; each reaches the others it has channels to over IBC. */
export const cosmosManifestSection: DevnetManifestSection<CosmosDevnetChainManifest[]> = {
  problems: cosmosManifestProblems,
  descriptors: (cosmos) => cosmos.map(devnetCosmosDescriptor),
  hasBridgeEnd: (cosmos) => cosmos.some((chain) => chain.bridge !== undefined),
  listedTokens: (cosmos, { chain, find }) =>
    cosmos.flatMap((entry) => cosmosTokenListing(chain(entry.id), find)),
};
