import { Interface, ZeroAddress } from 'ethers';
import type { RouteLeg } from '@swapgw/contracts';
import { parseThorchainSwapMemo } from '../bitcoin/thorchain-memo';
import { thorchainRouterDeposit } from './thorchain-calldata';

const ROUTER = '0xD37BbE5744D730a1d98d8DC97c42F0Ca46aD7146';
const VAULT = '0x1B3100B1d4a2f5Ea5b5A5DA5D37a9a0e1de5a5B1';
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const RECIPIENT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const router = new Interface([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);

const leg = (extra: Partial<RouteLeg> = {}): RouteLeg => ({
  kind: 'bridge',
  chain: 'ethereum',
  provider: 'thorchain',
  tokenIn: { chain: 'ethereum', symbol: 'USDC', address: USDC, decimals: 6 },
  tokenOut: { chain: 'bitcoin', symbol: 'BTC', address: null, decimals: 8 },
  amountIn: '1000000000',
  expectedAmountOut: '1094000',
  minAmountOut: '1088000',
  slippageBps: 50,
  spender: ROUTER,
  destinationChain: 'bitcoin',
  estimatedDurationSeconds: 600,
  thorchain: {
    asset: 'BTC.BTC',
    streamingInterval: 0,
    streamingQuantity: 0,
    affiliate: 'swapgw',
    affiliateBps: 20,
    expiry: 1_764_461_700,
    inboundAddress: VAULT,
  },
  ...extra,
});

describe('thorchainRouterDeposit', () => {
  it('calls the router’s depositWithExpiry crediting the vault with the swap memo, the limit the minimum out', () => {
    const call = thorchainRouterDeposit(leg(), 1_000_000_000n, 1_088_000n, RECIPIENT, 1_764_462_000n);
    expect(call).toMatchObject({ to: ROUTER, value: '0' });
    const [vault, asset, amount, memo, expiry] = router.decodeFunctionData('depositWithExpiry', call.data);
    expect([vault, asset, amount]).toEqual([VAULT, USDC, 1_000_000_000n]);
    expect(parseThorchainSwapMemo(memo as string)).toEqual({
      asset: 'BTC.BTC',
      destination: RECIPIENT,
      limit: 1_088_000n,
      streamingInterval: 0,
      streamingQuantity: 0,
      affiliates: [{ name: 'swapgw', bps: 20 }],
    });
    // The quote's expiry, sooner than the swap's deadline.
    expect(expiry).toBe(1_764_461_700n);
  });

  it('sends native ETH as the value with asset 0, and expires at the deadline when it comes first', () => {
    const eth = leg({ tokenIn: { chain: 'ethereum', symbol: 'ETH', address: null, decimals: 18 } });
    const call = thorchainRouterDeposit(eth, 10n ** 17n, 300_000n, RECIPIENT, 1_764_461_000n);
    expect(call.value).toBe(String(10n ** 17n));
    const [, asset, , , expiry] = router.decodeFunctionData('depositWithExpiry', call.data);
    expect(asset).toBe(ZeroAddress);
    expect(expiry).toBe(1_764_461_000n);
  });

  it('refuses a leg that names no vault', () => {
    const { inboundAddress: _vault, ...withoutVault } = leg().thorchain ?? {
      asset: '',
      streamingInterval: 0,
      streamingQuantity: 0,
      expiry: 0,
    };
    expect(() => thorchainRouterDeposit(leg({ thorchain: withoutVault }), 1n, 1n, RECIPIENT, 1n)).toThrow(
      /names no vault/,
    );
  });
});
