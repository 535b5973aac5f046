import { bech32 } from '@scure/base';
import { Keypair } from '@solana/web3.js';
import { CodedError, ErrorCodes, RouteLeg, TokenRef } from '@swapgw/contracts';
import { getAddress, hexlify } from 'ethers';
import type { SplitStep } from '../../step-split';
import type { DestinationSwap, LegStepChains, LegStepInput } from '../step-spec-family';
import { bitcoinBridgePayoutOf } from '../bitcoin/bitcoin-step-spec';
import { cosmosBridgePayoutOf } from '../cosmos/cosmos-step-spec';
import { solanaBridgePayoutOf, solanaStepSpecFamily, solanaStepOf } from './solana-step-spec';

const SOL_USER = Keypair.fromSeed(Buffer.alloc(32, 1)).publicKey.toBase58();
const SOL_OTHER = Keypair.fromSeed(Buffer.alloc(32, 2)).publicKey.toBase58();
const MINT = Keypair.fromSeed(Buffer.alloc(32, 3)).publicKey.toBase58();
const VAULT = Keypair.fromSeed(Buffer.alloc(32, 4)).publicKey.toBase58();
const EVM_USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEST_ROUTER = getAddress('0x' + 'd2'.repeat(20));
const token = (chain: string, symbol: string, address: string | null): TokenRef => ({
  chain,
  symbol,
  address,
  decimals: 6,
});
const USDC_S = token('solana-devnet', 'USDC', MINT);
const USDC_A = token('devnet-a', 'USDC', getAddress('0x' + '11'.repeat(20)));

const bridgeLeg: RouteLeg = {
  kind: 'bridge',
  chain: 'solana-devnet',
  provider: 'devnet-bridge',
  tokenIn: USDC_S,
  tokenOut: USDC_A,
  amountIn: '20000000',
  expectedAmountOut: '19990000',
  minAmountOut: '19990000',
  spender: VAULT,
  destinationChain: 'devnet-a',
  destinationBridgeChainId: 31337,
  estimatedDurationSeconds: 3,
};
const jupiterLeg: RouteLeg = {
  ...bridgeLeg,
  kind: 'swap',
  provider: 'jupiter',
  destinationChain: undefined,
  destinationBridgeChainId: undefined,
  solanaTransaction: { serializedTransaction: 'AQID', lastValidBlockHeight: 99, signer: SOL_USER },
};
const destinationSwap: DestinationSwap = {
  destinationChainId: 31337,
  destinationRouter: DEST_ROUTER,
  destinationVenue: getAddress('0x' + '33'.repeat(20)),
  path: [USDC_A.address!, getAddress('0x' + '22'.repeat(20))],
  amountOutMin: '150',
  unwrapNative: false,
  recipient: EVM_USER,
  deadline: 1_800_003_600,
};

/** A typed fake: bridges pay an EVM address on devnet-a; the destination router runs `destinationSwap`. */
const chains: LegStepChains = {
  familyOf: (chain) => (chain.startsWith('solana') ? 'solana' : 'evm'),
  evmChainIdOf: () => 31337,
  bridgePayoutOf: (leg, recipient) => ({
    chainId: leg.destinationBridgeChainId!,
    recipient,
    encoding: 'address',
  }),
  destinationSwapOf: () => destinationSwap,
};

const inputOf = (step: Partial<SplitStep>, overrides: Partial<LegStepInput> = {}): LegStepInput => ({
  step: { legIndex: 0, kind: 'bridge', signing: 'solana-transaction', ...step },
  leg: bridgeLeg,
  spend: 20_000_000n,
  minOut: 19_990_000n,
  signer: SOL_USER,
  recipient: EVM_USER,
  finalRecipient: EVM_USER,
  deadline: 1_800_003_600n,
  sponsored: false,
  ...overrides,
});

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof CodedError ? error.code : `not coded: ${(error as Error).message}`;
  }
  return undefined;
};

describe('solanaBridgePayoutOf', () => {
  it('pays a Solana wallet as the 32 bytes of its public key, on the bridge id of the Solana chain', () => {
    const toSolana = {
      ...bridgeLeg,
      chain: 'devnet-a',
      destinationChain: 'solana-devnet',
      destinationBridgeChainId: 1399811149,
    };
    expect(solanaBridgePayoutOf(toSolana, SOL_OTHER)).toEqual({
      chainId: 1399811149,
      recipient: hexlify(Keypair.fromSeed(Buffer.alloc(32, 2)).publicKey.toBytes()),
      encoding: 'bytes32',
    });
    expect(() =>
      solanaBridgePayoutOf({ ...toSolana, destinationBridgeChainId: undefined }, SOL_OTHER),
    ).toThrow('has no destinationBridgeChainId');
  });
});

describe('solanaStepOf', () => {
  it('a bridge leg: the devnet bridge deposit of what the leg spends to the EVM recipient', () => {
    expect(solanaStepOf(inputOf({}), chains)).toEqual({
      kind: 'bridge',
      call: null,
      solana: {
        kind: 'bridge-deposit',
        mint: MINT,
        vault: VAULT,
        amount: '20000000',
        destinationChainId: 31337,
        recipient: EVM_USER,
      },
    });
  });

  it('sponsored: the service’s Solana fee payer pays', () => {
    expect(solanaStepOf(inputOf({}, { sponsored: true }), chains).sponsored).toEqual({
      mode: 'solana-fee-payer',
    });
  });

  it('a bridge-swap: the deposit goes to the destination router, its memo carrying the swap', () => {
    const step = solanaStepOf(inputOf({ bridgeSwap: true }, { sponsored: true }), chains);
    const { destinationChainId, destinationRouter, destinationVenue, ...swap } = destinationSwap;
    const message = { venue: destinationVenue, ...swap };
    expect(step.solana).toEqual({
      kind: 'bridge-deposit',
      mint: MINT,
      vault: VAULT,
      amount: '20000000',
      destinationChainId,
      recipient: destinationRouter,
      message,
    });
  });

  it('a bridge leg to Noble: the deposit’s memo names the noble1… account the payout’s 32 bytes hold', () => {
    const nobleUser = bech32.encode('noble', bech32.toWords(Buffer.alloc(20, 5)));
    const toNoble: LegStepChains = {
      ...chains,
      familyOf: (chain) => (chain === 'noble-devnet' ? 'cosmos' : chains.familyOf(chain)),
      descriptorOf: (chain) =>
        chain === 'noble-devnet'
          ? {
              cosmos: {
                chainId: 'noble-devnet',
                bech32Prefix: 'noble',
                nativeDenom: 'ustake',
                restUrl: '',
                minGasPrice: '0uusdc',
                ibcChannels: {},
              },
            }
          : undefined,
      bridgePayoutOf: (leg, recipient) => cosmosBridgePayoutOf(leg, recipient),
    };
    const leg = { ...bridgeLeg, destinationChain: 'noble-devnet', destinationBridgeChainId: 4 };
    const input = inputOf({}, { leg, recipient: nobleUser, finalRecipient: nobleUser });
    expect(solanaStepOf(input, toNoble).solana).toEqual({
      kind: 'bridge-deposit',
      mint: MINT,
      vault: VAULT,
      amount: '20000000',
      destinationChainId: 4,
      recipient: nobleUser,
    });
    // 32 bytes on a chain that is neither EVM nor Cosmos (no bech32 prefix): no memo names them.
    const bytes32: LegStepChains = {
      ...chains,
      bridgePayoutOf: () => ({ chainId: 1, recipient: '0x' + '00'.repeat(32), encoding: 'bytes32' }),
    };
    expect(() => solanaStepOf(inputOf({}), bytes32)).toThrow(
      'The Solana bridge pays EVM addresses and Noble accounts',
    );
  });

  it('refuses a deposit to Bitcoin: the devnet bridge pays BTC for Noble’s burns only (BTC is THORChain’s)', () => {
    const btcRecipient = 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
    const toBitcoin: LegStepChains = {
      ...chains,
      familyOf: (chain) => (chain === 'bitcoin-devnet' ? 'bitcoin' : chains.familyOf(chain)),
      bridgePayoutOf: (leg, recipient) => bitcoinBridgePayoutOf(leg, recipient, toBitcoin),
    };
    const input = inputOf({}, { recipient: btcRecipient, finalRecipient: btcRecipient });
    expect(() =>
      solanaStepOf({ ...input, leg: { ...input.leg, destinationChain: 'bitcoin-devnet' } }, toBitcoin),
    ).toThrow("no bridge pays bitcoin-devnet through depositTo; BTC is THORChain's");
  });

  it('a swap leg: the aggregator’s prebuilt transaction as it is', () => {
    expect(solanaStepOf(inputOf({ kind: 'swap' }, { leg: jupiterLeg }), chains).solana).toEqual({
      kind: 'prebuilt-transaction',
      serializedTransaction: 'AQID',
      lastValidBlockHeight: 99,
    });
  });

  it('refuses a prebuilt transaction built for another wallet (INVALID_ADDRESS) or missing (VALIDATION_FAILED)', () => {
    const other = inputOf({ kind: 'swap' }, { leg: jupiterLeg, signer: SOL_OTHER });
    expect(codeOf(() => solanaStepOf(other, chains))).toBe(ErrorCodes.INVALID_ADDRESS);
    const missing = inputOf({ kind: 'swap' }, { leg: { ...jupiterLeg, solanaTransaction: undefined } });
    expect(codeOf(() => solanaStepOf(missing, chains))).toBe(ErrorCodes.VALIDATION_FAILED);
  });

  it('a first-leg deposit carries the integrator fees, paid on top of what it deposits; a bridge-swap deposit too', () => {
    const integratorFees = [
      { recipient: SOL_OTHER, amount: 100_000n },
      { recipient: SOL_USER, amount: 7n },
    ];
    const carried = [
      { recipient: SOL_OTHER, amount: '100000' },
      { recipient: SOL_USER, amount: '7' },
    ];
    expect(solanaStepOf(inputOf({}, { integratorFees }), chains).solana).toMatchObject({
      kind: 'bridge-deposit',
      amount: '20000000',
      integratorFees: carried,
    });
    expect(
      solanaStepOf(inputOf({ bridgeSwap: true }, { integratorFees, sponsored: true }), chains).solana,
    ).toMatchObject({ recipient: DEST_ROUTER, amount: '20000000', integratorFees: carried });
    expect(solanaStepOf(inputOf({}, { integratorFees: [] }), chains).solana).not.toHaveProperty(
      'integratorFees',
    );
  });

  it('a prebuilt transaction is handed out as built: it must pay the fees itself (Jupiter’s platform fee), else it is refused', () => {
    const integratorFees = [{ recipient: SOL_OTHER, amount: 1_000n }];
    const paying = {
      ...jupiterLeg,
      solanaTransaction: {
        ...jupiterLeg.solanaTransaction!,
        integratorFee: { recipient: SOL_OTHER, feeAccount: VAULT, amount: '1000' },
      },
    };
    expect(solanaStepOf(inputOf({ kind: 'swap' }, { leg: paying, integratorFees }), chains).solana).toEqual({
      kind: 'prebuilt-transaction',
      serializedTransaction: 'AQID',
      lastValidBlockHeight: 99,
    });
    for (const [leg, fees] of [
      [jupiterLeg, integratorFees],
      [paying, [{ recipient: SOL_OTHER, amount: 1_001n }]],
      [paying, [{ recipient: SOL_USER, amount: 1_000n }]],
      [paying, [...integratorFees, { recipient: SOL_USER, amount: 1n }]],
    ] as const) {
      expect(() =>
        solanaStepOf(inputOf({ kind: 'swap' }, { leg, integratorFees: [...fees] }), chains),
      ).toThrow('does not pay these integrator fees');
    }
  });

  it('refuses a step signed any other way than as a Solana transaction', () => {
    expect(() => solanaStepOf(inputOf({ signing: 'evm-transaction' }), chains)).toThrow('is a Solana leg');
  });
});

describe('the settlement of a Solana step', () => {
  const familyOf = (chain: string) => (chain === 'noble-devnet' ? 'cosmos' : chains.familyOf(chain));
  it('a devnet-bridge deposit towards Noble waits for the mint there (cctp); towards an EVM chain, or a swap, nothing', () => {
    const settle = solanaStepSpecFamily.settlementOf!;
    expect(settle({ ...bridgeLeg, destinationChain: 'noble-devnet' }, familyOf)).toBe('cctp');
    expect(settle(bridgeLeg, familyOf)).toBeUndefined();
    expect(settle(jupiterLeg, familyOf)).toBeUndefined();
  });
});
