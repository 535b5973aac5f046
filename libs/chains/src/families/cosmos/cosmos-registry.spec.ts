import { validateAddressForChain } from '../../address-validation';
import { ChainRegistry } from '../../chain-registry';
import type { CosmosDevnetChainManifest } from '../../devnet-manifest';
import { completeDevnetManifest } from '../../devnet-manifest/devnet-manifest.fixture';
import { splitSteps } from '../../step-split';
import { assetKeyOfTokenRef, catalogTokenAddress } from '../../token-refs';
import { ChainFamilies } from '../chain-families';
import { cosmosListedTokens, ibcVoucherDenom, ics20EscrowAddress } from './cosmos-denoms';

/** The devnet's three Cosmos chains as startCosmosDevnet writes them into the manifest. */
function cosmosSection(): CosmosDevnetChainManifest[] {
  const [hub] = completeDevnetManifest().cosmos;
  return [
    hub,
    {
      ...hub,
      id: 'osmosis-devnet',
      name: 'Osmosis Devnet',
      chainId: 'osmosis-devnet',
      rpc: 'http://127.0.0.1:26757',
      rest: 'http://127.0.0.1:1417',
      bech32Prefix: 'osmo',
      nativeDenom: 'uosmo',
      nativeSymbol: 'OSMO',
      minGasPrice: '0.0025uosmo',
      accounts: [],
      ibcChannels: { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
      crosschainSwapsContract: 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8',
    },
    {
      ...hub,
      id: 'noble-devnet',
      name: 'Noble Devnet',
      chainId: 'noble-devnet',
      rpc: 'http://127.0.0.1:26857',
      rest: 'http://127.0.0.1:1517',
      bech32Prefix: 'noble',
      nativeDenom: 'uusdc',
      nativeSymbol: 'USDC',
      minGasPrice: '0.1uusdc',
      accounts: [],
      ibcChannels: { 'osmosis-devnet': 'channel-0', 'cosmoshub-devnet': 'channel-1' },
    },
  ];
}

const registry = new ChainRegistry({ manifest: { ...completeDevnetManifest(), cosmos: cosmosSection() } });

describe('the chain registry serves the Cosmos devnet chains', () => {
  it('lists cosmoshub-devnet, osmosis-devnet and noble-devnet with family cosmos, their CometBFT RPC and traits', () => {
    const cosmos = registry.list().filter((chain) => chain.family === 'cosmos' && chain.devnet);
    expect(cosmos.map((chain) => [chain.id, chain.caip2, chain.nativeSymbol, chain.rpcUrl])).toEqual([
      ['cosmoshub-devnet', 'cosmos:cosmoshub-devnet', 'ATOM', 'http://127.0.0.1:26657'],
      ['osmosis-devnet', 'cosmos:osmosis-devnet', 'OSMO', 'http://127.0.0.1:26757'],
      ['noble-devnet', 'cosmos:noble-devnet', 'USDC', 'http://127.0.0.1:26857'],
    ]);
    const osmosis = registry.get('osmosis-devnet');
    expect(osmosis).toMatchObject({ network: 'testnet', devnet: true, nativeDecimals: 6 });
    expect(osmosis.cosmos).toEqual({
      chainId: 'osmosis-devnet',
      bech32Prefix: 'osmo',
      nativeDenom: 'uosmo',
      restUrl: 'http://127.0.0.1:1417',
      minGasPrice: '0.0025uosmo',
      ibcChannels: { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
      crosschainSwapsContract: 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8',
    });
    expect(registry.findByCaip2('cosmos:noble-devnet')?.id).toBe('noble-devnet');
    expect(registry.devnetCosmos('noble-devnet')?.rest).toBe('http://127.0.0.1:1517');
    expect(registry.devnetCosmos('devnet-a')).toBeUndefined();
  });

  it("checks a wallet address against the chain's bech32 prefix", () => {
    const hub = registry.get('cosmoshub-devnet');
    expect(validateAddressForChain(hub, 'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8z')).toEqual({
      ok: true,
    });
    const foreign = validateAddressForChain(hub, 'osmo1erxf3sa9q2j4vgseu7jq4a258ckmk7cy89fm3s');
    expect(foreign).toEqual({ ok: false, reason: expect.stringContaining('not osmo1') });
    expect(validateAddressForChain(hub, 'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8y').ok).toBe(false);
    expect(validateAddressForChain(hub, '0x0000000000000000000000000000000000000001').ok).toBe(false);
  });

  it('answers transaction status look-ups of a Cosmos chain by its CometBFT hash form', () => {
    const families = new ChainFamilies(registry, 1_000);
    const status = families.status('cosmoshub-devnet');
    expect(status?.family).toBe('cosmos');
    expect(() => status?.assertTxHash('ab'.repeat(32))).not.toThrow();
    expect(() => status?.assertTxHash(`0x${'ab'.repeat(32)}`)).toThrow(
      expect.objectContaining({ code: 'INVALID_TX_HASH' }),
    );
    // Its signing client reads, issues and sends (cosmos-signing-client.int-spec.ts).
    expect(families.signing('cosmoshub-devnet')).toMatchObject({ ok: true, client: { family: 'cosmos' } });
    expect(registry.hasSigningSurface('cosmoshub-devnet')).toBe(true);
    expect(registry.hasSigningSurface('devnet-a')).toBe(true);
  });

  it('signs a Cosmos leg once, and an IBC transfer into a swap on arrival once for both', () => {
    const leg = (kind: 'swap' | 'bridge', chain: string, destinationChain?: string) => ({
      kind,
      chain,
      provider: kind === 'swap' ? 'osmosis' : 'ibc',
      spender: 'x',
      tokenIn: { chain, symbol: 'ATOM', address: 'uatom', decimals: 6 },
      tokenOut: { chain, symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      amountIn: '1',
      ...(destinationChain ? { destinationChain } : {}),
    });
    const chains = { familyOf: (id: string) => registry.find(id)?.family };
    expect(splitSteps([leg('swap', 'osmosis-devnet')], chains, { gasPayment: 'sponsored' })).toEqual([
      { legIndex: 0, kind: 'swap', signing: 'cosmos-sign-direct' },
    ]);
    expect(
      splitSteps(
        [leg('bridge', 'cosmoshub-devnet', 'osmosis-devnet'), leg('swap', 'osmosis-devnet')],
        chains,
        { gasPayment: 'sponsored' },
      ),
    ).toEqual([{ legIndex: 0, kind: 'bridge', signing: 'cosmos-sign-direct', bridgeSwap: true }]);
  });

  it("signs one provider's route continuing leg to leg once (skip-go: to Osmosis, swapped, forwarded on)", () => {
    const leg = (
      kind: 'swap' | 'bridge',
      chain: string,
      destinationChain?: string,
      provider = 'skip-go',
    ) => ({
      kind,
      chain,
      provider,
      spender: 'x',
      tokenIn: { chain, symbol: 'ATOM', address: 'uatom', decimals: 6 },
      tokenOut: { chain, symbol: 'USDC', address: 'uusdc', decimals: 6 },
      amountIn: '1',
      ...(destinationChain ? { destinationChain } : {}),
    });
    const chains = { familyOf: (id: string) => registry.find(id)?.family };
    const sponsored = { gasPayment: 'sponsored' as const };
    expect(
      splitSteps(
        [
          leg('bridge', 'cosmoshub-devnet', 'osmosis-devnet'),
          leg('swap', 'osmosis-devnet'),
          leg('bridge', 'osmosis-devnet', 'noble-devnet'),
        ],
        chains,
        sponsored,
      ),
      // The transfer into the swap on arrival binds it, as a bridge-swap's step.
    ).toEqual([{ legIndex: 0, kind: 'bridge', signing: 'cosmos-sign-direct', bridgeSwap: true }]);
    // Another provider's leg, or one that does not start where the previous ended, is signed on its own.
    expect(
      splitSteps(
        [leg('swap', 'osmosis-devnet'), leg('bridge', 'osmosis-devnet', 'noble-devnet', 'ibc')],
        chains,
        sponsored,
      ),
    ).toHaveLength(2);
    expect(
      splitSteps(
        [leg('bridge', 'cosmoshub-devnet', 'osmosis-devnet'), leg('swap', 'noble-devnet')],
        chains,
        sponsored,
      ),
    ).toHaveLength(2);
  });
});

describe('Cosmos tokens: denoms', () => {
  it('derives ICS-20 voucher denoms as the chain does (mainnet Osmosis ATOM and USDC)', () => {
    expect(ibcVoucherDenom('transfer/channel-0/uatom')).toBe(
      'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2',
    );
    expect(ibcVoucherDenom('transfer/channel-750/uusdc')).toBe(
      'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4',
    );
  });

  it("names a channel's ICS-20 escrow account as the transfer module derives it", () => {
    // sha256("ics20-1\0transfer/channel-0")[:20], bech32 of the chain's prefix (20 bytes, like a wallet's).
    const escrow = ics20EscrowAddress('cosmos', 'channel-0');
    expect(validateAddressForChain(registry.get('cosmoshub-devnet'), escrow)).toEqual({ ok: true });
    expect(ics20EscrowAddress('cosmos', 'channel-1')).not.toBe(escrow);
  });

  it('lists each chain its native coin, and Osmosis the vouchers of the Hub ATOM and Noble USDC', () => {
    const listed = (id: string) =>
      cosmosListedTokens(registry.get(id), (other) => registry.find(other)).map((t) => [t.symbol, t.denom]);
    expect(listed('cosmoshub-devnet')).toEqual([['ATOM', 'uatom']]);
    expect(listed('noble-devnet')).toEqual([['USDC', 'uusdc']]);
    expect(listed('osmosis-devnet')).toEqual([
      ['OSMO', 'uosmo'],
      ['ATOM', ibcVoucherDenom('transfer/channel-0/uatom')],
      ['USDC', ibcVoucherDenom('transfer/channel-1/uusdc')],
    ]);
  });

  it('keeps a denom as written in the catalog and in token references (kind denom or ibc)', () => {
    const atom = ibcVoucherDenom('transfer/channel-0/uatom');
    expect(catalogTokenAddress('cosmos', atom)).toEqual({ address: null, mint: atom });
    expect(assetKeyOfTokenRef('cosmos', 'ibc', atom)).toBe(atom);
    expect(assetKeyOfTokenRef('cosmos', 'denom', 'uosmo')).toBe('uosmo');
    expect(catalogTokenAddress('cosmos', '1bad')).toBeUndefined();
  });
});
