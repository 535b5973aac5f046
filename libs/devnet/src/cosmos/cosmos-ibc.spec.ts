import { escrowAddress, ibcChannel, ibcDenom, parseDenomPath } from './cosmos-ibc';

describe('ICS-20 denoms and channels', () => {
  it("hashes a denom path as ibc-go does: mainnet Osmosis's ATOM and Noble USDC", () => {
    expect(ibcDenom('transfer/channel-0/uatom')).toBe(
      'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2',
    );
    expect(ibcDenom('transfer/channel-750/uusdc')).toBe(
      'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4',
    );
  });

  it('splits a full denom path into its hops and base denom', () => {
    expect(parseDenomPath('transfer/channel-1/transfer/channel-0/uatom')).toEqual({
      path: 'transfer/channel-1/transfer/channel-0',
      baseDenom: 'uatom',
    });
    expect(parseDenomPath('uosmo')).toEqual({ path: '', baseDenom: 'uosmo' });
    expect(parseDenomPath('transfer/channel-0/gamm/pool/1')).toEqual({
      path: 'transfer/channel-0',
      baseDenom: 'gamm/pool/1',
    });
  });

  it("pairs each chain's channel with its counterparty's, and gives each its escrow account", () => {
    expect(ibcChannel('noble-devnet', 'channel-0')).toEqual({
      chainId: 'noble-devnet',
      channel: 'channel-0',
      connection: 'connection-0',
      counterpartyChainId: 'osmosis-devnet',
      counterpartyChannel: 'channel-1',
    });
    expect(ibcChannel('noble-devnet', 'channel-7')).toBeUndefined();
    expect(escrowAddress('cosmos', 'channel-0')).toMatch(/^cosmos1[0-9a-z]{38}$/);
    expect(escrowAddress('cosmos', 'channel-0')).not.toBe(escrowAddress('cosmos', 'channel-1'));
  });
});
