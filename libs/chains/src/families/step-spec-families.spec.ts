import { Keypair } from '@solana/web3.js';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';
import { getAddress, hexlify } from 'ethers';
import { devnetBridgeInterface } from './evm/evm-calldata';
import { familyHasPermits, legStepSpecOf, stepSpecFamilyOf } from './step-spec-families';
import type { LegStepInput, StepSpecChains } from './step-spec-family';

const EVM_USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOL_USER = Keypair.fromSeed(Buffer.alloc(32, 1)).publicKey.toBase58();
const MINT = Keypair.fromSeed(Buffer.alloc(32, 3)).publicKey.toBase58();
const VAULT = Keypair.fromSeed(Buffer.alloc(32, 4)).publicKey.toBase58();
const BRIDGE_A = getAddress('0x' + 'b1'.repeat(20));
const DEST_ROUTER = getAddress('0x' + 'd2'.repeat(20));
const token = (chain: string, symbol: string, address: string | null): TokenRef => ({
  chain,
  symbol,
  address,
  decimals: 6,
});
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)));
const WETH_A = token('devnet-a', 'WETH', getAddress('0x' + '22'.repeat(20)));
const USDC_S = token('solana-devnet', 'USDC', MINT);
/** Two regtest P2WPKH addresses: a user's and the bridge vault's. */
const BTC_USER = 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx';
const BTC_VAULT = 'bcrt1q6rhpng9evdsfnn833a4f4vej0asu6dk5srld6x';

/** A typed fake of the registry's answers: devnet-a (EVM, with permit contracts) and solana-devnet. */
const chains: StepSpecChains = {
  familyOf: (chain) =>
    chain.startsWith('solana') ? 'solana' : chain.startsWith('bitcoin') ? 'bitcoin' : 'evm',
  evmChainIdOf: (chain) => ({ 'devnet-a': 31337 })[chain] ?? Number.NaN,
  permitContractsOf: (chain) =>
    chain === 'devnet-a'
      ? {
          permit2: getAddress('0x' + 'c1'.repeat(20)),
          permitRouter: DEST_ROUTER,
          uniswapV2Router: getAddress('0x' + 'a1'.repeat(20)),
          bridge: BRIDGE_A,
        }
      : undefined,
};

const leg = (overrides: Partial<RouteLeg>): RouteLeg => ({
  kind: 'bridge',
  chain: 'devnet-a',
  provider: 'devnet-bridge',
  tokenIn: USDC_A,
  tokenOut: USDC_S,
  amountIn: '1000',
  expectedAmountOut: '1000',
  minAmountOut: '900',
  spender: BRIDGE_A,
  estimatedDurationSeconds: 3,
  ...overrides,
});
const inputOf = (overrides: Partial<LegStepInput>): LegStepInput => ({
  step: { legIndex: 0, kind: 'bridge', signing: 'evm-transaction' },
  leg: leg({}),
  spend: 1000n,
  minOut: 900n,
  signer: EVM_USER,
  recipient: SOL_USER,
  finalRecipient: SOL_USER,
  deadline: 1_800_003_600n,
  sponsored: false,
  ...overrides,
});

describe('step-spec families', () => {
  it('permits are the EVM family’s; Solana and Bitcoin have none', () => {
    expect(familyHasPermits('evm')).toBe(true);
    expect(familyHasPermits('solana')).toBe(false);
    expect(familyHasPermits('bitcoin')).toBe(false);
  });

  it('a Bitcoin leg is one deposit to THORChain’s vault with its swap memo, the fee wallet paying the miner; no devnet-bridge leg leaves Bitcoin', () => {
    const btc = token('bitcoin-devnet', 'BTC', null);
    const btcToA = leg({
      chain: 'bitcoin-devnet',
      provider: 'thorchain',
      tokenIn: btc,
      tokenOut: USDC_A,
      spender: BTC_VAULT,
      destinationChain: 'devnet-a',
      thorchain: {
        asset: `ETH.USDC-${USDC_A.address!.toUpperCase()}`,
        streamingInterval: 1,
        streamingQuantity: 0,
        expiry: 2_000_000_000,
      },
    });
    const input = inputOf({
      step: { legIndex: 0, kind: 'bridge', signing: 'bitcoin-psbt' },
      leg: btcToA,
      spend: 1_000_000n,
      minOut: 899_550_000n,
      signer: BTC_USER,
      recipient: EVM_USER,
      finalRecipient: EVM_USER,
    });
    const step = legStepSpecOf(input, chains);
    expect(step).toEqual({
      kind: 'bridge',
      call: null,
      bitcoin: {
        kind: 'bridge-deposit',
        vault: BTC_VAULT,
        amount: '1000000',
        memo: expect.stringMatching(new RegExp(`^=:ETH\\.USDC-[0-9A-F]+:${EVM_USER}:`)),
      },
      sponsored: { mode: 'bitcoin-fee-wallet' },
    });
    expect(stepSpecFamilyOf('bitcoin').permits).toBe(false);
    const devnetBridge = { ...btcToA, provider: 'devnet-bridge', thorchain: undefined };
    expect(() => legStepSpecOf({ ...input, leg: devnetBridge }, chains)).toThrow(
      'Bitcoin legs are THORChain deposits',
    );
  });

  it('no bridge contract pays into Bitcoin: an EVM devnet-bridge leg to bitcoin-devnet is refused (THORChain’s router pays BTC)', () => {
    const toBitcoin = leg({
      destinationChain: 'bitcoin-devnet',
      destinationBridgeChainId: 20000000000001,
      tokenOut: token('bitcoin-devnet', 'BTC', null),
    });
    expect(() =>
      legStepSpecOf(inputOf({ leg: toBitcoin, recipient: BTC_USER, finalRecipient: BTC_USER }), chains),
    ).toThrow("no bridge pays bitcoin-devnet through depositTo; BTC is THORChain's");
  });

  it('an EVM bridge leg pays out as its destination’s family says: depositTo the 32 bytes of a Solana wallet', () => {
    const toSolana = leg({ destinationChain: 'solana-devnet', destinationBridgeChainId: 1399811149 });
    const step = legStepSpecOf(inputOf({ leg: toSolana }), chains);
    expect(devnetBridgeInterface.decodeFunctionData('depositTo', step.call!.data)).toEqual([
      1000n,
      1399811149n,
      hexlify(Keypair.fromSeed(Buffer.alloc(32, 1)).publicKey.toBytes()),
    ]);
  });

  it('a Solana bridge-swap leg carries the swap its EVM destination’s router runs', () => {
    const bridge = leg({
      chain: 'solana-devnet',
      tokenIn: USDC_S,
      tokenOut: USDC_A,
      spender: VAULT,
      destinationChain: 'devnet-a',
    });
    const swap = leg({
      kind: 'swap',
      provider: 'uniswap-v2',
      tokenOut: WETH_A,
      amountIn: '900',
      minAmountOut: '300',
      path: [USDC_A.address!, WETH_A.address!],
    });
    const input = inputOf({
      step: { legIndex: 0, kind: 'bridge', signing: 'solana-transaction', bridgeSwap: true },
      leg: bridge,
      next: swap,
      signer: SOL_USER,
      finalRecipient: EVM_USER,
    });
    expect(legStepSpecOf(input, chains).solana).toMatchObject({
      kind: 'bridge-deposit',
      destinationChainId: 31337,
      recipient: DEST_ROUTER,
      message: { path: swap.path, amountOutMin: '300', recipient: EVM_USER, unwrapNative: false },
    });
  });

  it('a bridge-swap step without the swap leg after it is a planning error', () => {
    const input = inputOf({
      step: { legIndex: 0, kind: 'bridge', signing: 'permit2-intent', bridgeSwap: true },
    });
    expect(() => legStepSpecOf(input, chains)).toThrow("is the route's last leg");
  });
});
