import { bech32 } from '@scure/base';
import cosmoshubAssets from 'chain-registry/mainnet/cosmoshub/asset-list';
import nobleAssets from 'chain-registry/mainnet/noble/asset-list';
import osmosisAssets from 'chain-registry/mainnet/osmosis/asset-list';
import { ChainRegistry } from '../../chain-registry';
import { cosmosListedTokens } from './cosmos-denoms';
import {
  CosmosRegistryData,
  CosmosRegistryMismatch,
  cosmosRealNetworks,
  PINNED_COSMOS_REGISTRY,
  SHIPPED_COSMOS_CHAINS,
} from './cosmos-real-networks';

// The Cosmos mainnets of the shipped catalog, as the pinned chain-registry package describes them.
describe('Cosmos real networks (cosmoshub-4, osmosis-1, noble-1 from chain-registry)', () => {
  const registry = () => new ChainRegistry({});
  const byId = (id: string) => registry().get(id);

  it("takes each chain's id, bech32 prefix, fee denom and minimum gas price from the registry", () => {
    expect(
      cosmosRealNetworks().map((chain) => [
        chain.id,
        chain.cosmos?.bech32Prefix,
        chain.cosmos?.nativeDenom,
        chain.cosmos?.minGasPrice,
      ]),
    ).toEqual([
      ['cosmoshub-4', 'cosmos', 'uatom', '0.005uatom'],
      ['osmosis-1', 'osmo', 'uosmo', '0.03uosmo'],
      ['noble-1', 'noble', 'uusdc', '0.1uusdc'],
    ]);
  });

  it('takes the ICS-20 channels between the three from their ibc-data, each end its own channel', () => {
    expect(byId('cosmoshub-4').cosmos?.ibcChannels).toEqual({
      'osmosis-1': 'channel-141',
      'noble-1': 'channel-536',
    });
    expect(byId('osmosis-1').cosmos?.ibcChannels).toEqual({
      'cosmoshub-4': 'channel-0',
      'noble-1': 'channel-750',
    });
    expect(byId('noble-1').cosmos?.ibcChannels).toEqual({
      'cosmoshub-4': 'channel-4',
      'osmosis-1': 'channel-1',
    });
  });

  it("names Osmosis's crosschain-swaps contract (a 32-byte contract account of its prefix), and no other chain one", () => {
    const contract = byId('osmosis-1').cosmos?.crosschainSwapsContract ?? '';
    const { prefix, words } = bech32.decode(contract as `${string}1${string}`);
    expect([prefix, bech32.fromWords(words).length]).toEqual(['osmo', 32]);
    expect(byId('cosmoshub-4').cosmos?.crosschainSwapsContract).toBeUndefined();
    expect(byId('noble-1').cosmos?.crosschainSwapsContract).toBeUndefined();
  });

  it("ships each native coin's symbol and decimals as the chain's asset list has them", () => {
    const lists = { cosmoshub: cosmoshubAssets, osmosis: osmosisAssets, noble: nobleAssets };
    for (const shipped of SHIPPED_COSMOS_CHAINS) {
      const denom = byId(shipped.id).cosmos!.nativeDenom;
      const asset = lists[shipped.registryName as keyof typeof lists].assets.find((a) => a.base === denom);
      expect([
        shipped.id,
        asset?.symbol,
        asset?.denomUnits.find((u) => u.denom === asset.display)?.exponent,
      ]).toEqual([shipped.id, shipped.nativeSymbol, shipped.nativeDecimals]);
    }
  });

  it("lists USDC from Noble on the Hub and Osmosis under the voucher denoms wallets hold (Osmosis's asset list names it)", () => {
    const listed = (id: string) => cosmosListedTokens(byId(id), (other) => registry().find(other));
    const usdc = (id: string) => listed(id).find((token) => token.symbol === 'USDC')?.denom;
    expect(usdc('noble-1')).toBe('uusdc');
    expect(usdc('osmosis-1')).toBe('ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4');
    expect(usdc('cosmoshub-4')).toBe('ibc/F663521BF1836B00F5F177680F74BFB9A8B5654A694D0D2BC249E03CF2509013');
    expect(osmosisAssets.assets.find((a) => a.base === usdc('osmosis-1'))?.symbol).toBe('USDC');
    // ATOM on Osmosis is the voucher every Osmosis wallet knows (ibc/27394F…).
    expect(
      osmosisAssets.assets.find((a) => a.base === listed('osmosis-1').find((t) => t.symbol === 'ATOM')?.denom)
        ?.symbol,
    ).toBe('ATOM');
  });

  it('lists them as real networks without a signing surface until their RPC is configured, REST and status from the variables', () => {
    const bare = registry();
    expect(bare.get('osmosis-1')).toMatchObject({
      family: 'cosmos',
      network: 'mainnet',
      devnet: false,
      caip2: 'cosmos:osmosis-1',
    });
    expect(bare.get('osmosis-1').rpcUrl).toBeUndefined();
    const configured = ChainRegistry.fromEnvironment({
      DEVNET_MANIFEST: '/nonexistent/manifest.json',
      RPC_URL_OSMOSIS: 'https://rpc.osmosis.example',
      REST_URL_OSMOSIS: 'https://rest.osmosis.example',
    });
    expect(configured.get('osmosis-1')).toMatchObject({
      rpcUrl: 'https://rpc.osmosis.example',
      statusApiUrl: 'https://rpc.osmosis.example',
      cosmos: { chainId: 'osmosis-1', restUrl: 'https://rest.osmosis.example' },
    });
    expect(configured.get('noble-1').rpcUrl).toBeUndefined();
    expect(configured.get('noble-1').cosmos?.restUrl).toBe('');
    // Signing needs both: the REST API gives the account's number and sequence and simulates gas.
    expect(configured.hasSigningSurface('osmosis-1')).toBe(true);
    expect(bare.hasSigningSurface('osmosis-1')).toBe(false);
    const rpcOnly = ChainRegistry.fromEnvironment({
      DEVNET_MANIFEST: '/nonexistent/manifest.json',
      RPC_URL_NOBLE: 'https://rpc.noble.example',
    });
    expect(rpcOnly.hasSigningSurface('noble-1')).toBe(false);
  });

  describe('a registry release that no longer matches fails the boot', () => {
    const copy = (): CosmosRegistryData => structuredClone(PINNED_COSMOS_REGISTRY);

    it('a chain id other than the one shipped', () => {
      const changed = copy();
      changed.chains.osmosis.chainId = 'osmosis-2';
      expect(() => cosmosRealNetworks(changed)).toThrow(
        new CosmosRegistryMismatch('chain-registry osmosis: chain id osmosis-2, the catalog ships osmosis-1'),
      );
    });

    it('a chain no longer live', () => {
      const changed = copy();
      changed.chains.noble.status = 'killed';
      expect(() => cosmosRealNetworks(changed)).toThrow(
        /chain-registry noble: killed mainnet, not a live mainnet/,
      );
    });

    it('no fee token with a minimum gas price', () => {
      const changed = copy();
      changed.chains.cosmoshub.fees = { feeTokens: [] };
      expect(() => cosmosRealNetworks(changed)).toThrow(/cosmoshub: no fee token/);
    });

    it('no active transfer channel between two of them', () => {
      const changed = copy();
      // The registry's data marks channels ACTIVE or INACTIVE (its schema says live / killed).
      for (const pair of changed.ibc)
        if ([pair.chain1.chainName, pair.chain2.chainName].sort().join() === 'noble,osmosis')
          for (const channel of pair.channels) channel.tags = { ...channel.tags, status: 'killed' };
      expect(() => cosmosRealNetworks(changed)).toThrow(/no active ICS-20 channel from osmosis-1 to noble-1/);
    });
  });
});
