import { bech32 } from '@scure/base';
import { devnetBridgeInterface, nobleForwardingAddress } from '@swapgw/chains/families';
import {
  EvmTransactionStep,
  RouteLeg,
  RoutePlan,
  signingStepOf,
  SolanaTransactionStep,
  TokenRef,
} from '@swapgw/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { getAddress } from 'ethers';
import { COSMOS_DEVNET_TRAITS, CONTRACT } from '../../test/support/cosmos-devnet-traits';
import { balancesToRead } from './bridged-balances';
import { planSteps, StepPlanContext } from './step-plan';

// USDC on devnet-a → ATOM on the Hub (docs/chains.md, "Multi-leg routes"): the devnet bridge pays
// Noble's forwarding account, which sends the USDC to Osmosis's crosschain-swaps contract with the
// `wasm` memo that swaps it for ATOM and sends the ATOM home to the Hub recipient.
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HUB_RECIPIENT = 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu';
const BRIDGE_A = getAddress('0x' + 'b1'.repeat(20));
const USDC_ON_OSMOSIS = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';
const ATOM_ON_OSMOSIS = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const token = (chain: string, symbol: string, address: string, decimals = 6): TokenRef => ({
  chain,
  symbol,
  address,
  decimals,
});
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)));
const NOW_MS = 1_800_000_000_000;

const TRAITS = COSMOS_DEVNET_TRAITS;

const context: StepPlanContext = {
  nowMs: NOW_MS,
  swapDeadlineSeconds: 3600,
  evmChainIdOf: (chain) => (chain === 'devnet-a' ? 31337 : Number.NaN),
  familyOf: (chain) => (chain in TRAITS ? 'cosmos' : 'evm'),
  descriptorOf: (chain) => ({ cosmos: TRAITS[chain] }),
  balancesBefore: new Map(),
};

const legs: RouteLeg[] = [
  {
    kind: 'bridge',
    chain: 'devnet-a',
    provider: 'devnet-bridge',
    tokenIn: USDC_A,
    tokenOut: token('noble-devnet', 'USDC', 'uusdc'),
    amountIn: '10000000',
    expectedAmountOut: '9990000',
    minAmountOut: '9990000',
    slippageBps: 0,
    spender: BRIDGE_A,
    destinationChain: 'noble-devnet',
    destinationBridgeChainId: 4,
    estimatedDurationSeconds: 5,
  },
  {
    kind: 'bridge',
    chain: 'noble-devnet',
    provider: 'ibc',
    tokenIn: token('noble-devnet', 'USDC', 'uusdc'),
    tokenOut: token('osmosis-devnet', 'USDC', USDC_ON_OSMOSIS),
    amountIn: '9990000',
    expectedAmountOut: '9990000',
    minAmountOut: '9990000',
    slippageBps: 0,
    spender: 'noble1escrow',
    destinationChain: 'osmosis-devnet',
    estimatedDurationSeconds: 10,
  },
  {
    kind: 'swap',
    chain: 'osmosis-devnet',
    provider: 'osmosis',
    tokenIn: token('osmosis-devnet', 'USDC', USDC_ON_OSMOSIS),
    tokenOut: token('osmosis-devnet', 'ATOM', ATOM_ON_OSMOSIS),
    amountIn: '9990000',
    expectedAmountOut: '1990000',
    minAmountOut: '1980000',
    slippageBps: 50,
    spender: CONTRACT,
    path: [USDC_ON_OSMOSIS, ATOM_ON_OSMOSIS],
    poolIds: ['2'],
    estimatedDurationSeconds: 5,
  },
  {
    kind: 'bridge',
    chain: 'osmosis-devnet',
    provider: 'ibc',
    tokenIn: token('osmosis-devnet', 'ATOM', ATOM_ON_OSMOSIS),
    tokenOut: token('cosmoshub-devnet', 'ATOM', 'uatom'),
    amountIn: '1990000',
    expectedAmountOut: '1990000',
    minAmountOut: '1980000',
    slippageBps: 0,
    spender: 'osmo1escrow',
    destinationChain: 'cosmoshub-devnet',
    estimatedDurationSeconds: 10,
  },
];

const plan: RoutePlan = {
  quoteId: 'q_1',
  routeId: 'r_1',
  expiresAtMs: NOW_MS + 60_000,
  fromChain: 'devnet-a',
  toChain: 'cosmoshub-devnet',
  tokenIn: USDC_A,
  tokenOut: legs[3].tokenOut,
  amountIn: '10000000',
  expectedAmountOut: '1990000',
  slippageBps: 50,
  providers: legs.map((l) => l.provider),
  legs,
};

describe('planSteps: USDC on devnet-a → ATOM on the Hub through a Noble forwarding account', () => {
  const steps = planSteps(plan, { userAddress: USER, recipient: HUB_RECIPIENT }, context);

  it('signs once, on the source: approve and the bridge deposit; the Cosmos legs have no steps, nothing waits', () => {
    expect(steps.map((s) => [s.index, s.kind, s.chain, s.legIndex])).toEqual([
      [1, 'approve', 'devnet-a', 0],
      [2, 'bridge', 'devnet-a', 0],
    ]);
    expect(steps.every((s) => s.waitFor === undefined)).toBe(true);
    expect(balancesToRead(plan, () => HUB_RECIPIENT, context.familyOf)).toEqual([]);
  });

  it("pays Noble's forwarding account, whose memo swaps on Osmosis for the Hub recipient; its fallback the recipient's key on Noble", () => {
    const forwarding = steps[1].nobleForwarding!;
    const memo = JSON.parse(forwarding.memo);
    expect(forwarding).toMatchObject({
      chain: 'noble-devnet',
      channel: 'channel-0',
      recipient: CONTRACT,
      fallback: bech32.encode('noble', bech32.decode(HUB_RECIPIENT).words),
    });
    expect(memo).toEqual({
      wasm: {
        contract: CONTRACT,
        msg: {
          osmosis_swap: {
            output_denom: ATOM_ON_OSMOSIS,
            // The swap's minimum scaled to what the bridge guarantees (all of what the IBC leg sends).
            slippage: { min_output_amount: '1980000' },
            receiver: HUB_RECIPIENT,
            on_failed_delivery: {
              local_recovery_addr: bech32.encode(
                'osmo',
                bech32.decode(HUB_RECIPIENT as `${string}1${string}`).words,
              ),
            },
          },
        },
      },
    });
    expect(forwarding.address).toBe(nobleForwardingAddress('noble', forwarding));
    const deposit = devnetBridgeInterface.decodeFunctionData('depositTo', steps[1].call!.data);
    const accountBytes = bech32.fromWords(bech32.decode(forwarding.address as `${string}1${string}`).words);
    expect(deposit.toArray()).toEqual([
      10_000_000n,
      4n, // Noble's CCTP domain
      '0x' + '00'.repeat(12) + Buffer.from(accountBytes).toString('hex'),
    ]);
  });

  it('writes the forwarding account into the signing step, where the step validates', () => {
    const written = signingStepOf(steps[1] as never);
    expect(written).toMatchObject({ family: 'evm-transaction', nobleForwarding: steps[1].nobleForwarding });
    expect(validateSync(plainToInstance(EvmTransactionStep, written))).toEqual([]);
  });
});

describe('planSteps: USDC on Solana → ATOM on the Hub through a Noble forwarding account', () => {
  const SOLANA_USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const VAULT = 'So11111111111111111111111111111111111111112';
  const usdcOnSolana = token('solana-devnet', 'USDC', MINT);
  const fromSolana: RoutePlan = {
    ...plan,
    fromChain: 'solana-devnet',
    tokenIn: usdcOnSolana,
    legs: [{ ...legs[0], chain: 'solana-devnet', tokenIn: usdcOnSolana, spender: VAULT }, ...legs.slice(1)],
  };
  const onSolana: StepPlanContext = {
    ...context,
    familyOf: (chain) => (chain === 'solana-devnet' ? 'solana' : context.familyOf(chain)),
  };
  const steps = planSteps(fromSolana, { userAddress: SOLANA_USER, recipient: HUB_RECIPIENT }, onSolana);

  it('signs once, the vault deposit, its memo naming the forwarding account (as any noble1… recipient)', () => {
    expect(steps.map((s) => [s.index, s.kind, s.chain, s.legIndex])).toEqual([
      [1, 'bridge', 'solana-devnet', 0],
    ]);
    const forwarding = steps[0].nobleForwarding!;
    expect(forwarding.address).toBe(nobleForwardingAddress('noble', forwarding));
    expect(steps[0].solana).toEqual({
      kind: 'bridge-deposit',
      mint: MINT,
      vault: VAULT,
      amount: '10000000',
      destinationChainId: 4,
      recipient: forwarding.address,
    });
    const written = signingStepOf(steps[0] as never);
    expect(written).toMatchObject({ family: 'solana-transaction', nobleForwarding: forwarding });
    expect(validateSync(plainToInstance(SolanaTransactionStep, written))).toEqual([]);
  });
});
