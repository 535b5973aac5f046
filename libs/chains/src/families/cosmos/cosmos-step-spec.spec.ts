import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64 } from '@scure/base';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CosmosSignDirectStep, type RouteLeg, signingStepOf } from '@swapgw/contracts';
import type { CosmosChainTraits } from '../../chain-descriptor';
import { splitSteps } from '../../step-split';
import { legStepSpecOf } from '../step-spec-families';
import type { StepSpecChains } from '../step-spec-family';
import { cosmosAddressOfPubkey } from './cosmos-address';
import { buildCosmosSignDoc } from './cosmos-sign-doc';
import { bitcoinRecipientToBytes32 } from '../../bitcoin-bridge';
import { cosmosBridgePayoutOf, cosmosStepSpecFamily } from './cosmos-step-spec';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import bs58 from 'bs58';

const ATOM_ON_OSMOSIS = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
const USDC_ON_OSMOSIS = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';
const CONTRACT = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';
const keyOf = (byte: number) => secp256k1.getPublicKey(new Uint8Array(32).fill(byte), true);
const PUBKEY = keyOf(1);
const SENDER = cosmosAddressOfPubkey('cosmos', PUBKEY);
const SENDER_ON_OSMOSIS = cosmosAddressOfPubkey('osmo', PUBKEY);
const RECEIVER = cosmosAddressOfPubkey('osmo', keyOf(2));
const GRANTER = (prefix: string) => cosmosAddressOfPubkey(prefix, keyOf(3));

const TRAITS: Record<string, CosmosChainTraits> = {
  'cosmoshub-devnet': {
    chainId: 'cosmoshub-devnet',
    bech32Prefix: 'cosmos',
    nativeDenom: 'uatom',
    restUrl: 'http://127.0.0.1:1317',
    minGasPrice: '0.005uatom',
    ibcChannels: { 'osmosis-devnet': 'channel-0' },
  },
  'osmosis-devnet': {
    chainId: 'osmosis-devnet',
    bech32Prefix: 'osmo',
    nativeDenom: 'uosmo',
    restUrl: 'http://127.0.0.1:1318',
    minGasPrice: '0.0025uosmo',
    ibcChannels: { 'cosmoshub-devnet': 'channel-0' },
    crosschainSwapsContract: CONTRACT,
  },
};
const chains: StepSpecChains = {
  familyOf: () => 'cosmos',
  evmChainIdOf: () => {
    throw new Error('no EVM chain here');
  },
  descriptorOf: (chain) => ({ cosmos: TRAITS[chain] }),
};

const leg = (fields: Partial<RouteLeg>): RouteLeg =>
  ({
    amountIn: '2000000',
    expectedAmountOut: '19900000',
    estimatedDurationSeconds: 5,
    ...fields,
  }) as RouteLeg;
const transfer = leg({
  kind: 'bridge',
  chain: 'cosmoshub-devnet',
  provider: 'ibc',
  tokenIn: { chain: 'cosmoshub-devnet', symbol: 'ATOM', address: 'uatom', decimals: 6 },
  tokenOut: { chain: 'osmosis-devnet', symbol: 'ATOM', address: ATOM_ON_OSMOSIS, decimals: 6 },
  expectedAmountOut: '2000000',
  minAmountOut: '2000000',
  spender: 'cosmos1escrow',
  destinationChain: 'osmosis-devnet',
});
const swapOnArrival = leg({
  kind: 'swap',
  chain: 'osmosis-devnet',
  provider: 'osmosis',
  tokenIn: transfer.tokenOut,
  tokenOut: { chain: 'osmosis-devnet', symbol: 'OSMO', address: 'uosmo', decimals: 6 },
  minAmountOut: '19800000',
  spender: CONTRACT,
  path: [ATOM_ON_OSMOSIS, 'uosmo'],
  poolIds: ['1'],
});
const deadline = 1_800_000_000n;

/** The steps of `legs` as the planner writes them out: split, each written by its family. */
function stepsOf(legs: RouteLeg[], signer: string, finalRecipient: string) {
  return splitSteps(legs, chains, { gasPayment: 'user' }).map((step) =>
    legStepSpecOf(
      {
        step,
        leg: legs[step.legIndex],
        next: legs[step.legIndex + 1],
        spend: BigInt(legs[step.legIndex].amountIn),
        minOut: BigInt(legs[step.legIndex].minAmountOut),
        signer,
        recipient: finalRecipient,
        finalRecipient,
        deadline,
        sponsored: false,
      },
      chains,
    ),
  );
}

/** The SignDoc signer-surface would issue for the step (the account's numbers as the chain tells them). */
function signDocOf(
  msgs: { typeUrl: string; value: Record<string, unknown> }[],
  chain: string,
  signer: string,
): string {
  const built = buildCosmosSignDoc({
    chainId: chain,
    bech32Prefix: TRAITS[chain].bech32Prefix,
    signerAddress: signer,
    signerPubkey: base64.encode(PUBKEY),
    accountNumber: '7',
    sequence: '0',
    msgs,
    gasLimit: '300000',
    fee: [{ denom: TRAITS[chain].nativeDenom, amount: '1500' }],
    feeGranter: GRANTER(TRAITS[chain].bech32Prefix),
  });
  return built.kind === 'ready' ? 'ready' : built.reason;
}

describe('the Cosmos family’s steps (cosmosStepSpecFamily)', () => {
  it('ATOM → OSMO: one step, the IBC transfer whose memo swaps on arrival; the swap leg asks nothing', () => {
    const split = splitSteps([transfer, swapOnArrival], chains, { gasPayment: 'user' });
    expect(split).toEqual([{ legIndex: 0, kind: 'bridge', signing: 'cosmos-sign-direct', bridgeSwap: true }]);
    const [step] = stepsOf([transfer, swapOnArrival], SENDER, RECEIVER);
    expect(step).toMatchObject({ kind: 'bridge', call: null, sponsored: { mode: 'cosmos-fee-grant' } });
    expect(step.cosmos?.msgs).toHaveLength(1);
    const [msg] = step.cosmos!.msgs;
    expect(msg.typeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    expect(msg.value).toMatchObject({
      sourceChannel: 'channel-0',
      token: { denom: 'uatom', amount: '2000000' },
      sender: SENDER,
      receiver: CONTRACT,
      timeoutTimestamp: (deadline * 1_000_000_000n).toString(),
    });
    expect(JSON.parse(msg.value.memo as string)).toEqual({
      wasm: {
        contract: CONTRACT,
        msg: {
          osmosis_swap: {
            output_denom: 'uosmo',
            slippage: { min_output_amount: '19800000' },
            receiver: RECEIVER,
            // A failed swap leaves the ATOM with the wallet's own key on Osmosis.
            on_failed_delivery: { local_recovery_addr: SENDER_ON_OSMOSIS },
          },
        },
      },
    });
    expect(signDocOf(step.cosmos!.msgs, 'cosmoshub-devnet', SENDER)).toBe('ready');
  });

  it('a swap on Osmosis: MsgSwapExactAmountIn over the pools the quote priced', () => {
    const swap = leg({
      ...swapOnArrival,
      tokenIn: { chain: 'osmosis-devnet', symbol: 'OSMO', address: 'uosmo', decimals: 6 },
      tokenOut: { chain: 'osmosis-devnet', symbol: 'USDC', address: USDC_ON_OSMOSIS, decimals: 6 },
      path: ['uosmo', USDC_ON_OSMOSIS],
      poolIds: ['3'],
      spender: 'osmo1pool',
    });
    const [step] = stepsOf([swap], SENDER_ON_OSMOSIS, SENDER_ON_OSMOSIS);
    expect(step.cosmos?.msgs).toEqual([
      {
        typeUrl: '/osmosis.poolmanager.v1beta1.MsgSwapExactAmountIn',
        value: {
          sender: SENDER_ON_OSMOSIS,
          routes: [{ poolId: '3', tokenOutDenom: USDC_ON_OSMOSIS }],
          tokenIn: { denom: 'uosmo', amount: '2000000' },
          tokenOutMinAmount: '19800000',
        },
      },
    ]);
    expect(signDocOf(step.cosmos!.msgs, 'osmosis-devnet', SENDER_ON_OSMOSIS)).toBe('ready');
  });

  it('refuses a swap leg without a pool for each hop (a plan from an older quote-service)', () => {
    const swap = leg({ ...swapOnArrival, poolIds: undefined });
    expect(() => stepsOf([swap], SENDER_ON_OSMOSIS, SENDER_ON_OSMOSIS)).toThrow(/no pool for each hop/);
  });

  it("refuses to build another provider's Cosmos legs (skip-go's messages come from its own API): 503 SIGNING_SURFACE_UNAVAILABLE", () => {
    const skipTransfer = leg({ ...transfer, provider: 'skip-go' });
    const skipSwap = leg({
      ...swapOnArrival,
      provider: 'skip-go',
      spender: 'osmosis-poolmanager',
      poolIds: undefined,
    });
    for (const legs of [
      [skipTransfer, skipSwap],
      [transfer, skipSwap],
      [
        leg({
          ...skipSwap,
          tokenIn: { chain: 'osmosis-devnet', symbol: 'OSMO', address: 'uosmo', decimals: 6 },
        }),
      ],
    ]) {
      expect(() => stepsOf(legs, SENDER, RECEIVER)).toThrow(
        expect.objectContaining({
          code: 'SIGNING_SURFACE_UNAVAILABLE',
          details: expect.objectContaining({ provider: 'skip-go' }),
        }),
      );
    }
  });

  it("a devnet-bridge leg from Noble: CCTP's MsgDepositForBurn, the destination's CCTP domain and its recipient as 32 bytes", () => {
    const nobleChains: StepSpecChains = {
      familyOf: (chain) =>
        chain === 'devnet-a'
          ? 'evm'
          : chain === 'solana-devnet'
            ? 'solana'
            : chain === 'bitcoin-devnet'
              ? 'bitcoin'
              : 'cosmos',
      evmChainIdOf: () => 31337,
      descriptorOf: () => undefined,
    };
    const nobleSender = cosmosAddressOfPubkey('noble', PUBKEY);
    const burn = (destinationChain: string, destinationBridgeChainId: number, recipient: string) => {
      const bridge = leg({
        kind: 'bridge',
        chain: 'noble-devnet',
        provider: 'devnet-bridge',
        tokenIn: { chain: 'noble-devnet', symbol: 'USDC', address: 'uusdc', decimals: 6 },
        tokenOut: { chain: destinationChain, symbol: 'USDC', address: 'usdc-there', decimals: 6 },
        amountIn: '5000000',
        minAmountOut: '4985000',
        spender: 'noble12l2w4ugfz4m6dd73yysz477jszqnfughxvkss5',
        destinationChain,
        destinationBridgeChainId,
      });
      const [step] = splitSteps([bridge], nobleChains, { gasPayment: 'user' });
      return legStepSpecOf(
        {
          step,
          leg: bridge,
          spend: 5_000_000n,
          minOut: 4_985_000n,
          signer: nobleSender,
          recipient,
          finalRecipient: recipient,
          deadline,
          sponsored: false,
        },
        nobleChains,
      );
    };
    const evmRecipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const toEvm = burn('devnet-a', 31337, evmRecipient);
    expect(toEvm.sponsored).toEqual({ mode: 'cosmos-fee-grant' });
    expect(toEvm.cosmos?.msgs).toEqual([
      {
        typeUrl: '/circle.cctp.v1.MsgDepositForBurn',
        value: {
          from: nobleSender,
          amount: '5000000',
          destinationDomain: 31337,
          mintRecipient: base64.encode(Buffer.from(`${'00'.repeat(12)}${evmRecipient.slice(2)}`, 'hex')),
          burnToken: 'uusdc',
        },
      },
    ]);
    const solanaKey = new Uint8Array(32).fill(9);
    const toSolana = burn('solana-devnet', 1399811149, bs58.encode(solanaKey));
    expect(toSolana.cosmos?.msgs[0].value).toMatchObject({
      destinationDomain: 5,
      mintRecipient: base64.encode(solanaKey),
    });
    // Bitcoin: the devnet's domain of its bridge end (ASCII "BTC"), a P2WPKH key hash left-padded.
    const btcRecipient = 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
    const toBitcoin = burn('bitcoin-devnet', 20000000000001, btcRecipient);
    expect(toBitcoin.cosmos?.msgs[0].value).toMatchObject({
      destinationDomain: 0x425443,
      mintRecipient: base64.encode(Buffer.from(bitcoinRecipientToBytes32(btcRecipient).slice(2), 'hex')),
    });
    // Settled by the Bitcoin end's payout, as a burn towards Solana by the Solana end's.
    for (const destinationChain of ['bitcoin-devnet', 'solana-devnet'])
      expect(
        cosmosStepSpecFamily.settlementOf?.(
          { provider: 'devnet-bridge', chain: 'noble-devnet', destinationChain },
          nobleChains.familyOf,
        ),
      ).toBe('cctp');
    // signer-surface issues it (the protobuf of circle.cctp.v1.MsgDepositForBurn, its amino form).
    const built = buildCosmosSignDoc({
      chainId: 'noble-devnet',
      bech32Prefix: 'noble',
      signerAddress: nobleSender,
      signerPubkey: base64.encode(PUBKEY),
      accountNumber: '7',
      sequence: '0',
      msgs: toEvm.cosmos!.msgs,
      gasLimit: '300000',
      fee: [{ denom: 'uusdc', amount: '30000' }],
      feeGranter: GRANTER('noble'),
    });
    expect(built.kind).toBe('ready');
    if (built.kind === 'ready')
      expect(built.payload.aminoSignDoc?.msgs[0]).toMatchObject({
        type: 'cctp/DepositForBurn',
        value: { from: nobleSender, amount: '5000000', destination_domain: 31337, burn_token: 'uusdc' },
      });
    // The bridge pays a Noble account as its 20 bytes left-padded to 32 (EVM depositTo).
    expect(cosmosBridgePayoutOf({ ...transfer, destinationBridgeChainId: 4 }, nobleSender)).toEqual({
      chainId: 4,
      recipient: `0x${'00'.repeat(12)}${Buffer.from(ripemd160(sha256(PUBKEY))).toString('hex')}`,
      encoding: 'bytes32',
    });
  });

  it('is written out as the cosmos-sign-direct variant of SigningStep, which validates', () => {
    const [step] = stepsOf([transfer, swapOnArrival], SENDER, RECEIVER);
    const written = signingStepOf(step as never);
    expect(written).toEqual({ family: 'cosmos-sign-direct', cosmos: step.cosmos, sponsored: step.sponsored });
    expect(validateSync(plainToInstance(CosmosSignDirectStep, written))).toEqual([]);
    const noMsgs = plainToInstance(CosmosSignDirectStep, { ...written, cosmos: { msgs: [] } });
    expect(validateSync(noMsgs).map((e) => e.property)).toEqual(['cosmos']);
  });
});
