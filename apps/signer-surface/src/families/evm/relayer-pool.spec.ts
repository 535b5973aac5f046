import { ChainRegistry, DevnetManifestView } from '@swapgw/chains';
import { Wallet } from 'ethers';
import { SignerChains } from '../../chains/signer-chains';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { RelayerPool } from './relayer-pool';
import { WeiByChain } from '../../sponsorship/wei-settings';

const KEY_A = `0x${'11'.repeat(32)}`;
const KEY_B = `0x${'22'.repeat(32)}`;

function chains(): SignerChains {
  const manifest = {
    generatedAtMs: 0,
    chains: [
      {
        id: 'devnet-a',
        name: 'Devnet A',
        chainId: 31337,
        rpcUrl: 'http://127.0.0.1:9',
        nativeSymbol: 'ETH',
        tokens: {},
        uniswapV2: { factory: '', router: '', initCodeHash: '', pairs: {} },
        bridge: { address: '', token: 'USDC' },
      },
    ],
    bridge: { provider: 'devnet-bridge', feeBps: 0, estimatedDurationSeconds: 1, relayer: '' },
    accounts: [],
  } as DevnetManifestView;
  return new SignerChains(new ChainRegistry({ manifest }), 1000);
}

const keys = (byChain: Record<string, string[]>) => new RelayerKeySet(new Map(Object.entries(byChain)));

describe('RelayerPool', () => {
  it('refuses keys for unknown and non-EVM chains at construction, naming chains only', () => {
    const build = () =>
      new RelayerPool(
        keys({ 'devnet-a': [KEY_A], 'devnet-z': [KEY_B], solana: [KEY_B] }),
        chains(),
        new WeiByChain(0n),
      );
    expect(build).toThrow(
      'RELAYER_KEYS names chain devnet-z, which is not known; RELAYER_KEYS names chain solana, a solana chain',
    );
    try {
      build();
    } catch (error) {
      expect((error as Error).message).not.toMatch(/1111|2222/);
    }
  });

  it('leaves out relayers under the minimum balance, or under the cost, once their balance is known', () => {
    const pool = new RelayerPool(keys({ 'devnet-a': [KEY_A, KEY_B] }), chains(), new WeiByChain(1_000n));
    const [a, b] = [new Wallet(KEY_A).address, new Wallet(KEY_B).address];
    expect(pool.payers('devnet-a', 10n)).toEqual([a, b]); // never read: usable, read under the lock
    pool.noteBalance('devnet-a', a, 999n);
    pool.noteBalance('devnet-a', b, 5_000n);
    expect(pool.payers('devnet-a', 10n)).toEqual([b]);
    expect(pool.payers('devnet-a', 6_000n)).toEqual([]);
    expect(pool.payers('devnet-b', 10n)).toEqual([]);
    expect(pool.wallet('devnet-a', b)?.address).toBe(b);
  });
});
