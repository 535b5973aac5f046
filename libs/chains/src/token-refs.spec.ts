import { ChainRegistry } from './chain-registry';
import {
  assetKeyOfTokenRef,
  catalogTokenAddress,
  chainOfTokenRef,
  familyOfCaipNamespace,
  readsTokenMetadataOnChain,
  tokenRefFitsNamespace,
} from './token-refs';

const CHECKSUMMED = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('token references per chain family', () => {
  it('maps CAIP-2 namespaces to families', () => {
    expect(familyOfCaipNamespace('eip155')).toBe('evm');
    expect(familyOfCaipNamespace('solana')).toBe('solana');
    expect(familyOfCaipNamespace('bip122')).toBe('bitcoin');
    expect(familyOfCaipNamespace('cosmos')).toBe('cosmos');
    expect(familyOfCaipNamespace('polkadot')).toBeUndefined();
  });

  it('finds the chain of a reference by its CAIP-2, and Solana mainnet by its short alias', () => {
    const registry = new ChainRegistry();
    expect(chainOfTokenRef(registry, 'eip155', '1')?.id).toBe('ethereum');
    expect(chainOfTokenRef(registry, 'solana', '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')?.id).toBe('solana');
    expect(chainOfTokenRef(registry, 'solana', 'mainnet')?.id).toBe('solana');
    expect(chainOfTokenRef(registry, 'eip155', 'mainnet')).toBeUndefined();
    expect(chainOfTokenRef(registry, 'eip155', '999999')).toBeUndefined();
  });

  it('checks a request reference strictly against its namespace family, and leaves other namespaces alone', () => {
    expect(tokenRefFitsNamespace('eip155', '1', CHECKSUMMED)).toBe(true);
    expect(tokenRefFitsNamespace('eip155', '1', CHECKSUMMED.toLowerCase())).toBe(true);
    expect(tokenRefFitsNamespace('eip155', '1', CHECKSUMMED.replace('A0b8', 'a0B8'))).toBe(false);
    expect(tokenRefFitsNamespace('eip155', 'mainnet', CHECKSUMMED)).toBe(false);
    expect(tokenRefFitsNamespace('solana', 'mainnet', MINT)).toBe(true);
    expect(tokenRefFitsNamespace('solana', 'mainnet', 'z'.repeat(44))).toBe(false);
    expect(tokenRefFitsNamespace('bip122', '000000000019d6689c085ae165831e93', '0')).toBeUndefined();
    expect(tokenRefFitsNamespace('cosmos', 'osmosis-1', 'uosmo')).toBe(true);
    expect(tokenRefFitsNamespace('cosmos', 'osmosis-1', '0x!')).toBe(false);
    expect(tokenRefFitsNamespace('polkadot', '91b171bb158e2d3848fa23a9f1c25182', '0')).toBeUndefined();
  });

  it('gives the asset key of a reference: native kinds, the family token kinds with a well-formed address', () => {
    expect(assetKeyOfTokenRef('evm', 'native', 'x')).toBe('native');
    expect(assetKeyOfTokenRef('solana', 'slip44', '501')).toBe('native');
    expect(assetKeyOfTokenRef('evm', 'erc20', CHECKSUMMED)).toBe(CHECKSUMMED.toLowerCase());
    expect(assetKeyOfTokenRef('solana', 'spl', MINT)).toBe(MINT);
    expect(assetKeyOfTokenRef('solana', 'token', MINT)).toBe(MINT);
    // Another family's kind, or an address not of the family's form.
    expect(assetKeyOfTokenRef('evm', 'spl', MINT)).toBeUndefined();
    expect(assetKeyOfTokenRef('solana', 'erc20', CHECKSUMMED)).toBeUndefined();
    expect(assetKeyOfTokenRef('evm', 'erc20', '0x123')).toBeUndefined();
    expect(assetKeyOfTokenRef('solana', 'spl', '0x123')).toBeUndefined();
    expect(assetKeyOfTokenRef('bitcoin', 'erc20', CHECKSUMMED)).toBeUndefined();
  });

  it('stores a token list address in the family field of the catalog, or refuses it', () => {
    expect(catalogTokenAddress('evm', CHECKSUMMED.toLowerCase())).toEqual({
      address: CHECKSUMMED,
      mint: null,
    });
    expect(catalogTokenAddress('evm', MINT)).toBeUndefined();
    expect(catalogTokenAddress('solana', MINT)).toEqual({ address: null, mint: MINT });
    expect(catalogTokenAddress('solana', CHECKSUMMED)).toBeUndefined();
    expect(catalogTokenAddress('bitcoin', MINT)).toBeUndefined();
  });

  it('reads uncatalogued token metadata from EVM chains with an RPC only', () => {
    expect(readsTokenMetadataOnChain({ family: 'evm', rpcUrl: 'http://node' })).toBe(true);
    expect(readsTokenMetadataOnChain({ family: 'evm', rpcUrl: undefined })).toBe(false);
    expect(readsTokenMetadataOnChain({ family: 'solana', rpcUrl: 'http://node' })).toBe(false);
    expect(readsTokenMetadataOnChain({ family: 'bitcoin', rpcUrl: 'http://node' })).toBe(false);
  });
});
