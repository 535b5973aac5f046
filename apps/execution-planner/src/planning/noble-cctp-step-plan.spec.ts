import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { CosmosSignDirectStep, RouteLeg, RoutePlan, signingStepOf, TokenRef } from '@swapgw/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { COSMOS_DEVNET_TRAITS, CONTRACT } from '../../test/support/cosmos-devnet-traits';
import { balanceKey, balancesToRead } from './bridged-balances';
import { planSteps, StepPlanContext } from './step-plan';

// ATOM on the Hub → USDC on Solana (docs/chains.md, "Multi-leg routes"): the Hub's MsgTransfer swaps
// on arrival on Osmosis and the crosschain-swaps contract sends the USDC home to the wallet's Noble
// account; there the same key burns it through Noble's CCTP towards Solana.
const PUBLIC_KEY = secp256k1.getPublicKey(new Uint8Array(32).fill(7), true);
const keyHash = ripemd160(sha256(PUBLIC_KEY));
const on = (prefix: string) => bech32.encode(prefix, bech32.toWords(keyHash));
const USER = on('cosmos');
const SOLANA_RECIPIENT = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ATOM_ON_OSMOSIS = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const USDC_ON_OSMOSIS = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const token = (chain: string, symbol: string, address: string): TokenRef => ({
  chain,
  symbol,
  address,
  decimals: 6,
});
const NOW_MS = 1_800_000_000_000;

const TRAITS = COSMOS_DEVNET_TRAITS;

const context = (balancesBefore = new Map<string, bigint>()): StepPlanContext => ({
  nowMs: NOW_MS,
  swapDeadlineSeconds: 3600,
  evmChainIdOf: () => Number.NaN,
  familyOf: (chain) => (chain in TRAITS ? 'cosmos' : 'solana'),
  descriptorOf: (chain) => ({ cosmos: TRAITS[chain] }),
  balancesBefore,
});

const legs: RouteLeg[] = [
  {
    kind: 'bridge',
    chain: 'cosmoshub-devnet',
    provider: 'ibc',
    tokenIn: token('cosmoshub-devnet', 'ATOM', 'uatom'),
    tokenOut: token('osmosis-devnet', 'ATOM', ATOM_ON_OSMOSIS),
    amountIn: '2000000',
    expectedAmountOut: '2000000',
    minAmountOut: '2000000',
    slippageBps: 0,
    spender: 'cosmos1escrow',
    destinationChain: 'osmosis-devnet',
    estimatedDurationSeconds: 10,
  },
  {
    kind: 'swap',
    chain: 'osmosis-devnet',
    provider: 'osmosis',
    tokenIn: token('osmosis-devnet', 'ATOM', ATOM_ON_OSMOSIS),
    tokenOut: token('osmosis-devnet', 'USDC', USDC_ON_OSMOSIS),
    amountIn: '2000000',
    expectedAmountOut: '9960000',
    minAmountOut: '9910200',
    slippageBps: 50,
    spender: CONTRACT,
    path: [ATOM_ON_OSMOSIS, USDC_ON_OSMOSIS],
    poolIds: ['2'],
    estimatedDurationSeconds: 5,
  },
  {
    kind: 'bridge',
    chain: 'osmosis-devnet',
    provider: 'osmosis',
    tokenIn: token('osmosis-devnet', 'USDC', USDC_ON_OSMOSIS),
    tokenOut: token('noble-devnet', 'USDC', 'uusdc'),
    amountIn: '9960000',
    expectedAmountOut: '9960000',
    minAmountOut: '9960000',
    slippageBps: 0,
    spender: 'osmo1escrow',
    destinationChain: 'noble-devnet',
    estimatedDurationSeconds: 10,
  },
  {
    kind: 'bridge',
    chain: 'noble-devnet',
    provider: 'devnet-bridge',
    tokenIn: token('noble-devnet', 'USDC', 'uusdc'),
    tokenOut: token('solana-devnet', 'USDC', SOLANA_USDC),
    amountIn: '9960000',
    expectedAmountOut: '9955020',
    minAmountOut: '9955020',
    slippageBps: 0,
    spender: 'noble1cctp',
    destinationChain: 'solana-devnet',
    destinationBridgeChainId: 1399811149,
    estimatedDurationSeconds: 5,
  },
];

const plan: RoutePlan = {
  quoteId: 'q_1',
  routeId: 'r_1',
  expiresAtMs: NOW_MS + 60_000,
  fromChain: 'cosmoshub-devnet',
  toChain: 'solana-devnet',
  tokenIn: legs[0].tokenIn,
  tokenOut: legs[3].tokenOut,
  amountIn: '2000000',
  expectedAmountOut: '9955020',
  slippageBps: 50,
  providers: legs.map((l) => l.provider),
  legs,
};

describe('planSteps: ATOM on the Hub → USDC on Solana through Osmosis and Noble’s CCTP', () => {
  const request = {
    userAddress: USER,
    userPublicKey: Buffer.from(PUBLIC_KEY).toString('hex'),
    recipient: SOLANA_RECIPIENT,
  };
  const holders = balancesToRead(plan, (chain) => on(TRAITS[chain].bech32Prefix), context().familyOf);
  const before = new Map(holders.map((h) => [balanceKey(h.chain, h.token), 1_000n]));
  const steps = planSteps(plan, request, context(before));

  it('signs twice with the same key: the Hub transfer, then the burn on Noble once the swap’s USDC arrived there', () => {
    expect(steps.map((s) => [s.index, s.kind, s.chain, s.legIndex, s.signer])).toEqual([
      [1, 'bridge', 'cosmoshub-devnet', 0, USER],
      [2, 'bridge', 'noble-devnet', 3, on('noble')],
    ]);
    // The Noble account has no key on chain before its first transaction: the build's key is passed.
    expect(steps.map((s) => s.cosmos?.signerPublicKey)).toEqual([
      request.userPublicKey,
      request.userPublicKey,
    ]);
    expect(steps[0].waitFor).toBeUndefined();
    // The burn waits for the USDC the contract sends home: at least the swap's minimum, on the Noble account.
    expect(holders).toContainEqual({ chain: 'noble-devnet', token: 'uusdc', holder: on('noble') });
    expect(steps[1].waitFor).toEqual({
      token: 'uusdc',
      holder: on('noble'),
      minBalance: (1_000n + 9_910_200n).toString(),
    });
  });

  it('swaps on arrival for the wallet’s Noble account, then burns what the swap guaranteed towards Solana', () => {
    const [transfer] = steps[0].cosmos!.msgs;
    expect(transfer.typeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    const memo = JSON.parse((transfer.value as { memo: string }).memo);
    expect(memo.wasm.msg.osmosis_swap).toEqual({
      output_denom: USDC_ON_OSMOSIS,
      slippage: { min_output_amount: '9910200' },
      receiver: on('noble'),
      on_failed_delivery: { local_recovery_addr: on('osmo') },
    });
    const [burn] = steps[1].cosmos!.msgs;
    expect(burn).toMatchObject({
      typeUrl: '/circle.cctp.v1.MsgDepositForBurn',
      value: { from: on('noble'), amount: '9910200', destinationDomain: 5, burnToken: 'uusdc' },
    });
    expect(steps.map((s) => s.sponsored)).toEqual([
      { mode: 'cosmos-fee-grant' },
      { mode: 'cosmos-fee-grant' },
    ]);
  });

  it('writes both steps, the burn’s wait for a Noble denom included, as signing steps that validate', () => {
    for (const step of steps) {
      const written = signingStepOf(step as never);
      expect(written).toMatchObject({ family: 'cosmos-sign-direct' });
      expect(validateSync(plainToInstance(CosmosSignDirectStep, written))).toEqual([]);
    }
  });
});
