import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { BITCOIN_NETWORKS } from './families/bitcoin/bitcoin-networks';
import {
  type BitcoinOutputKind,
  bitcoinOutputKindOf,
  bitcoinOutputVbytes,
  estimateBitcoinWeight,
} from './families/bitcoin/bitcoin-step-psbt';
import { BITCOIN_OUTPUT_VBYTES, BITCOIN_SPONSORED_VBYTES } from './families/bitcoin/bitcoin-sponsored-gas';
import {
  DEFAULT_RELAYER_GAS_EXTRA,
  relayedGasLimit,
  evmGasUnitsOf,
  formatNativeAmount,
  NATIVE_COIN_FALLBACKS,
  SOLANA_SPONSORED_FEES,
  SPONSORED_EVM_GAS,
  SPONSORED_FEE_FALLBACKS,
  SPONSORED_FEE_RECIPIENT_COSTS,
  SPONSORED_STEP_KINDS,
  SponsoredFeeRates,
  SponsoredLegView,
  sponsoredFeeFallbackOf,
  sponsoredStepCost,
  sponsoredStepsOfLeg,
  sponsoredTotalsOfRoute,
  swapFamilyOf,
} from './sponsored-gas';

const USDC = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' };
const WETH = { address: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9' };
const NATIVE = { address: null };
const SOLANA_USDC = { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' };

const GWEI = 1_000_000_000n;
const rates: Record<string, SponsoredFeeRates> = {
  'devnet-a': { feePerGas: 1n * GWEI, tokenAccountRent: 0n },
  'devnet-b': { feePerGas: 3n * GWEI, tokenAccountRent: 0n },
  'solana-devnet': { feePerGas: 5_000n, tokenAccountRent: 2_039_280n },
};
const ratesOf = (chain: string) => rates[chain] ?? SPONSORED_FEE_FALLBACKS.evm;

const evmSwap = (tokenIn: { address: string | null }, inputHasEip2612 = false): SponsoredLegView => ({
  kind: 'swap',
  chain: 'devnet-a',
  family: 'evm',
  tokenIn,
  tokenOut: WETH,
  inputHasEip2612,
});

describe('the sponsored gas table', () => {
  it('holds the agreed figures', () => {
    expect(SPONSORED_EVM_GAS).toEqual({
      permit: 60_000n,
      userApprove: 50_000n,
      gasTopUp: 21_000n,
      swapIntent: 240_000n,
      swapV3Intent: 260_000n,
      bridgeIntent: 150_000n,
      bridgeSwapIntent: 200_000n,
      acrossIntent: 200_000n,
      acrossSwapIntent: 240_000n,
      nativeInputUserTx: 150_000n,
      bridgeRelease: 80_000n,
    });
    expect(SOLANA_SPONSORED_FEES.lamportsPerSignature).toBe(5_000n);
    expect(SOLANA_SPONSORED_FEES.tokenAccountRent).toBe(2_039_280n);
  });

  it('prices every EVM kind, top-ups included', () => {
    expect(Object.fromEntries(SPONSORED_STEP_KINDS.map((kind) => [kind, evmGasUnitsOf(kind)]))).toEqual({
      permit: 60_000n,
      'approve-top-up': 71_000n,
      'swap-intent': 240_000n,
      'bridge-intent': 150_000n,
      'native-input-top-up': 171_000n,
      'bridge-release': 80_000n,
      'solana-transaction': 0n,
      'solana-ata-rent': 0n,
      'bitcoin-transaction': 0n,
      'cosmos-fee-grant': 0n,
      'cosmos-transaction': 0n,
    });
  });
});

describe('sponsoredStepsOfLeg (upper bound: the allowance step is always counted)', () => {
  const kinds = (leg: SponsoredLegView) =>
    sponsoredStepsOfLeg(leg, 0).map((s) => [s.kind, s.chain, s.gasUnits, s.tokenAccounts]);

  it('an EIP-2612 input: permit, then the swap intent', () => {
    expect(kinds(evmSwap(USDC, true))).toEqual([
      ['permit', 'devnet-a', 60_000n, 0],
      ['swap-intent', 'devnet-a', 240_000n, 0],
    ]);
  });

  it('an input without EIP-2612 (WETH9, or unknown on a real network): approve paid by a top-up, then the swap intent', () => {
    expect(kinds(evmSwap(WETH))).toEqual([
      ['approve-top-up', 'devnet-a', 71_000n, 0],
      ['swap-intent', 'devnet-a', 240_000n, 0],
    ]);
  });

  it('a native input: the user transaction and its top-up, no allowance and no router call', () => {
    expect(kinds(evmSwap(NATIVE))).toEqual([['native-input-top-up', 'devnet-a', 171_000n, 0]]);
  });

  it('an EVM bridge the relayer releases: the bridge intent, then the release on the destination', () => {
    const leg: SponsoredLegView = {
      kind: 'bridge',
      chain: 'devnet-a',
      family: 'evm',
      tokenIn: USDC,
      tokenOut: USDC,
      inputHasEip2612: true,
      destinationChain: 'devnet-b',
      destinationFamily: 'evm',
      releasedByRelayer: true,
    };
    expect(kinds(leg)).toEqual([
      ['permit', 'devnet-a', 60_000n, 0],
      ['bridge-intent', 'devnet-a', 150_000n, 0],
      ['bridge-release', 'devnet-b', 80_000n, 0],
    ]);
  });

  it('a bridge that delivers by itself (an aggregator): nothing on the destination', () => {
    const leg: SponsoredLegView = {
      kind: 'bridge',
      chain: 'ethereum',
      family: 'evm',
      tokenIn: USDC,
      tokenOut: USDC,
      destinationChain: 'base',
      destinationFamily: 'evm',
      releasedByRelayer: false,
    };
    expect(kinds(leg).map(([kind]) => kind)).toEqual(['approve-top-up', 'bridge-intent']);
  });

  it('a release to Solana: one signature and the rent of the recipient token account', () => {
    const leg: SponsoredLegView = {
      kind: 'bridge',
      chain: 'devnet-a',
      family: 'evm',
      tokenIn: USDC,
      tokenOut: SOLANA_USDC,
      inputHasEip2612: true,
      destinationChain: 'solana-devnet',
      destinationFamily: 'solana',
      releasedByRelayer: true,
    };
    expect(kinds(leg).slice(2)).toEqual([
      ['bridge-release', 'solana-devnet', 1n, 0],
      ['solana-ata-rent', 'solana-devnet', 0n, 1],
    ]);
  });

  it('a Solana deposit: the user transaction with the relayer as fee payer (two signatures), the release on EVM', () => {
    const leg: SponsoredLegView = {
      kind: 'bridge',
      chain: 'solana-devnet',
      family: 'solana',
      tokenIn: SOLANA_USDC,
      tokenOut: USDC,
      destinationChain: 'devnet-a',
      destinationFamily: 'evm',
      releasedByRelayer: true,
    };
    expect(kinds(leg)).toEqual([
      ['solana-transaction', 'solana-devnet', 2n, 0],
      ['bridge-release', 'devnet-a', 80_000n, 0],
    ]);
  });

  it('a Bitcoin deposit: its transaction in virtual bytes (the fee input pays the miner), the release on EVM; a payout in BTC costs us nothing', () => {
    const fromBitcoin: SponsoredLegView = {
      kind: 'bridge',
      chain: 'bitcoin-devnet',
      family: 'bitcoin',
      tokenIn: NATIVE,
      tokenOut: USDC,
      destinationChain: 'devnet-a',
      destinationFamily: 'evm',
      releasedByRelayer: true,
    };
    expect(kinds(fromBitcoin)).toEqual([
      ['bitcoin-transaction', 'bitcoin-devnet', 450n, 0],
      ['bridge-release', 'devnet-a', 80_000n, 0],
    ]);
    const toBitcoin: SponsoredLegView = {
      kind: 'bridge',
      chain: 'devnet-a',
      family: 'evm',
      tokenIn: USDC,
      tokenOut: NATIVE,
      inputHasEip2612: true,
      destinationChain: 'bitcoin-devnet',
      destinationFamily: 'bitcoin',
      releasedByRelayer: true,
    };
    expect(kinds(toBitcoin).map(([kind, chain]) => `${kind}@${chain}`)).toEqual([
      'permit@devnet-a',
      'bridge-intent@devnet-a',
    ]);
  });

  it('a Solana swap: two signatures, plus an output token account when the output is an SPL token', () => {
    const swap = (tokenOut: { address: string | null }): SponsoredLegView => ({
      kind: 'swap',
      chain: 'solana',
      family: 'solana',
      tokenIn: NATIVE,
      tokenOut,
    });
    expect(kinds(swap(SOLANA_USDC))).toEqual([
      ['solana-transaction', 'solana', 2n, 0],
      ['solana-ata-rent', 'solana', 0n, 1],
    ]);
    expect(kinds(swap(NATIVE))).toEqual([['solana-transaction', 'solana', 2n, 0]]);
  });
});

describe("integrator fee recipients (paid in the leg's own transaction, one payment each)", () => {
  const EVM_RECIPIENTS = ['0x' + 'a1'.repeat(20), '0x' + 'b2'.repeat(20)];
  const stepsWith = (leg: SponsoredLegView, recipients: number) =>
    sponsoredStepsOfLeg({ ...leg, integratorFeeRecipients: EVM_RECIPIENTS.slice(0, recipients) }, 0);
  const gasOf = (leg: SponsoredLegView, recipients: number, kind: string) =>
    stepsWith(leg, recipients).find((step) => step.kind === kind)!.gasUnits;
  const perTokenRecipient =
    SPONSORED_FEE_RECIPIENT_COSTS.evmTokenTransfer + SPONSORED_FEE_RECIPIENT_COSTS.evmFeePaidEvent;

  it('an ERC-20 input: the router call grows by a transfer and its event per recipient (and the venue approved again), the allowance step does not', () => {
    const [none, one, two] = [0, 1, 2].map((n) => gasOf(evmSwap(USDC, true), n, 'swap-intent'));
    expect(none).toBe(SPONSORED_EVM_GAS.swapIntent);
    // The first fee also has the router approve the venue again for what is left, once.
    expect(one - none).toBe(SPONSORED_FEE_RECIPIENT_COSTS.evmTokenFeesReapproval + perTokenRecipient);
    expect(two - one).toBe(perTokenRecipient);
    expect(perTokenRecipient).toBeGreaterThanOrEqual(30_000n);
    expect([0, 1, 2].map((n) => gasOf(evmSwap(USDC, true), n, 'permit'))).toEqual([
      60_000n,
      60_000n,
      60_000n,
    ]);
  });

  it('a bridge deposit and an Across deposit count their recipients the same way', () => {
    const bridge: SponsoredLegView = { ...evmSwap(USDC, true), kind: 'bridge', across: true };
    const [none, one, two] = [0, 1, 2].map((n) => gasOf(bridge, n, 'bridge-intent'));
    expect(none).toBe(SPONSORED_EVM_GAS.acrossSwapIntent);
    expect([one - none, two - one]).toEqual([
      SPONSORED_FEE_RECIPIENT_COSTS.evmTokenFeesReapproval + perTokenRecipient,
      perTokenRecipient,
    ]);
  });

  it('a native input: the user transaction the top-up pays grows by a native transfer to a fresh account per recipient', () => {
    const [none, one, two] = [0, 1, 2].map((n) => gasOf(evmSwap(NATIVE), n, 'native-input-top-up'));
    const perNativeRecipient =
      SPONSORED_FEE_RECIPIENT_COSTS.evmNativeTransfer + SPONSORED_FEE_RECIPIENT_COSTS.evmFeePaidEvent;
    expect(none).toBe(171_000n);
    expect([one - none, two - one]).toEqual([perNativeRecipient, perNativeRecipient]);
    // A value call to a fresh account: cold access, value transfer, new account.
    expect(SPONSORED_FEE_RECIPIENT_COSTS.evmNativeTransfer).toBeGreaterThanOrEqual(2_600n + 9_000n + 25_000n);
  });

  describe("Bitcoin: one output per recipient, of its address's size", () => {
    const regtest = BITCOIN_NETWORKS.regtest;
    const key = (byte: number) => new Uint8Array(32).fill(byte);
    const P2WPKH = btc.p2wpkh(secp256k1.getPublicKey(key(5), true), regtest);
    const P2TR = btc.p2tr(schnorr.getPublicKey(key(6)), undefined, regtest);
    const P2SH = btc.p2sh(btc.p2wpkh(secp256k1.getPublicKey(key(7), true), regtest), regtest);
    const P2PKH = btc.p2pkh(secp256k1.getPublicKey(key(8), true), regtest);
    const P2WSH = btc.p2wsh(btc.p2pk(secp256k1.getPublicKey(key(9), true)), regtest);
    const deposit = (recipients: string[]): SponsoredLegView => ({
      kind: 'bridge',
      chain: 'bitcoin-devnet',
      family: 'bitcoin',
      tokenIn: NATIVE,
      tokenOut: USDC,
      integratorFeeRecipients: recipients,
    });
    const vbytesOf = (recipients: string[]) => sponsoredStepsOfLeg(deposit(recipients), 0)[0].gasUnits;

    it('sizes each kind of address as the PSBT builder does', () => {
      const payments: Record<BitcoinOutputKind, { address?: string; script: Uint8Array }> = {
        p2wpkh: P2WPKH,
        p2sh: P2SH,
        p2pkh: P2PKH,
        p2wsh: P2WSH,
        p2tr: P2TR,
      };
      for (const [kind, payment] of Object.entries(payments)) {
        expect(bitcoinOutputKindOf(payment.address!)).toBe(kind);
        expect(BITCOIN_OUTPUT_VBYTES[kind as BitcoinOutputKind]).toBe(
          BigInt(bitcoinOutputVbytes(payment.script)),
        );
        // What the output adds to the weight of a transaction, in virtual bytes.
        const added =
          estimateBitcoinWeight(['p2wpkh'], [P2WPKH.script, payment.script]) -
          estimateBitcoinWeight(['p2wpkh'], [P2WPKH.script]);
        expect(BigInt(added / 4)).toBe(BITCOIN_OUTPUT_VBYTES[kind as BitcoinOutputKind]);
      }
    });

    it("0, 1 and 2 recipients: the transaction grows by each one's output (31 vB P2WPKH, 43 vB P2TR)", () => {
      const [none, one, two] = [[], [P2WPKH.address!], [P2WPKH.address!, P2TR.address!]].map(vbytesOf);
      expect(none).toBe(BITCOIN_SPONSORED_VBYTES);
      expect(one - none).toBe(31n);
      expect(two - one).toBe(43n);
    });

    it('an address of another network is sized by its kind too', () => {
      const mainnet = btc.p2tr(schnorr.getPublicKey(key(6))).address!;
      expect(vbytesOf([mainnet]) - BITCOIN_SPONSORED_VBYTES).toBe(43n);
    });
  });

  it("Solana: an SPL input may create each recipient's token account (the fee payer pays its rent); a SOL input creates none", () => {
    const deposit = (tokenIn: { address: string | null }, recipients: string[]): SponsoredLegView => ({
      kind: 'bridge',
      chain: 'solana-devnet',
      family: 'solana',
      tokenIn,
      tokenOut: USDC,
      integratorFeeRecipients: recipients,
    });
    const recipients = [
      '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
    ];
    const costOf = (leg: SponsoredLegView) =>
      sponsoredStepsOfLeg(leg, 0).reduce(
        (sum, step) => sum + sponsoredStepCost(step, rates['solana-devnet']),
        0n,
      );
    const [none, one, two] = [0, 1, 2].map((n) => costOf(deposit(SOLANA_USDC, recipients.slice(0, n))));
    expect(none).toBe(2n * 5_000n);
    expect([one - none, two - one]).toEqual([2_039_280n, 2_039_280n]);
    expect(costOf(deposit(NATIVE, recipients))).toBe(none);
  });

  it('a route counts the recipients of the leg that pays them only', () => {
    const legs: SponsoredLegView[] = [
      { ...evmSwap(USDC, true), integratorFeeRecipients: EVM_RECIPIENTS },
      { ...evmSwap(WETH), chain: 'devnet-b' },
    ];
    const [first, second] = sponsoredTotalsOfRoute(legs, ratesOf);
    expect(first.gasUnits).toBe(
      60_000n + 240_000n + SPONSORED_FEE_RECIPIENT_COSTS.evmTokenFeesReapproval + 2n * perTokenRecipient,
    );
    expect(first.cost).toBe(first.gasUnits * GWEI);
    expect(second.gasUnits).toBe(71_000n + 240_000n);
  });
});

describe('sponsoredStepCost', () => {
  it('is units × fee per unit plus the rent of created token accounts', () => {
    expect(
      sponsoredStepCost(
        { gasUnits: 260_000n, tokenAccounts: 0 },
        { feePerGas: 1_500_000_000n, tokenAccountRent: 0n },
      ),
    ).toBe(390_000_000_000_000n);
    expect(sponsoredStepCost({ gasUnits: 1n, tokenAccounts: 1 }, SPONSORED_FEE_FALLBACKS.solana)).toBe(
      2_044_280n,
    );
  });
});

describe('sponsoredTotalsOfRoute', () => {
  it('totals a same-chain EIP-2612 swap on its one chain', () => {
    const [total, ...others] = sponsoredTotalsOfRoute([evmSwap(USDC, true)], ratesOf);
    expect(others).toEqual([]);
    expect(total).toMatchObject({
      chain: 'devnet-a',
      family: 'evm',
      gasUnits: 300_000n,
      cost: 300_000n * GWEI,
    });
    expect(total.steps.map((s) => [s.kind, s.leg, s.cost])).toEqual([
      ['permit', 0, 60_000n * GWEI],
      ['swap-intent', 0, 240_000n * GWEI],
    ]);
  });

  it('totals a bridge then a swap per chain, each at its own chain price, in the order chains are touched', () => {
    const legs: SponsoredLegView[] = [
      {
        kind: 'bridge',
        chain: 'devnet-a',
        family: 'evm',
        tokenIn: USDC,
        tokenOut: USDC,
        inputHasEip2612: true,
        destinationChain: 'devnet-b',
        destinationFamily: 'evm',
        releasedByRelayer: true,
      },
      {
        kind: 'swap',
        chain: 'devnet-b',
        family: 'evm',
        tokenIn: USDC,
        tokenOut: WETH,
        inputHasEip2612: true,
      },
    ];
    const totals = sponsoredTotalsOfRoute(legs, ratesOf);
    expect(totals.map((t) => [t.chain, t.gasUnits, t.cost])).toEqual([
      ['devnet-a', 210_000n, 210_000n * GWEI],
      ['devnet-b', 380_000n, 380_000n * 3n * GWEI],
    ]);
    expect(totals[1].steps.map((s) => [s.kind, s.leg])).toEqual([
      ['bridge-release', 0],
      ['permit', 1],
      ['swap-intent', 1],
    ]);
  });

  it('lists a destination where the relayer pays nothing, at 0', () => {
    const totals = sponsoredTotalsOfRoute(
      [
        {
          kind: 'bridge',
          chain: 'ethereum',
          family: 'evm',
          tokenIn: USDC,
          tokenOut: USDC,
          destinationChain: 'solana',
          destinationFamily: 'solana',
        },
      ],
      ratesOf,
    );
    expect(totals.map((t) => [t.chain, t.gasUnits, t.cost, t.steps.length])).toEqual([
      ['ethereum', 221_000n, 221_000n * 2n * GWEI, 2],
      ['solana', 0n, 0n, 0],
    ]);
  });

  it('totals an EVM → Solana release with signature and rent', () => {
    const totals = sponsoredTotalsOfRoute(
      [
        {
          kind: 'bridge',
          chain: 'devnet-a',
          family: 'evm',
          tokenIn: USDC,
          tokenOut: SOLANA_USDC,
          inputHasEip2612: true,
          destinationChain: 'solana-devnet',
          destinationFamily: 'solana',
          releasedByRelayer: true,
        },
      ],
      ratesOf,
    );
    expect(totals[1]).toMatchObject({
      chain: 'solana-devnet',
      family: 'solana',
      gasUnits: 1n,
      cost: 5_000n + 2_039_280n,
    });
  });
});

describe('formatNativeAmount', () => {
  it.each([
    [0n, 18, '0'],
    [412_345_678_901_234n, 18, '0.000412'],
    [412_545_678_901_234n, 18, '0.000413'],
    [260_000n * GWEI, 18, '0.00026'],
    [2_044_280n, 9, '0.00204'],
    [10_000n, 9, '0.00001'],
    [999_600n, 6, '1'],
    [9_996n, 18, '0.00000000000001'],
    [1n, 18, '0.000000000000000001'],
    [12_345_678_000_000_000_000_000n, 18, '12346'],
    [1_234_500_000_000_000_000n, 18, '1.23'],
    [123_456n, 0, '123456'],
  ])('%s base units at %i decimals read %s', (amount, decimals, expected) => {
    expect(formatNativeAmount(amount, decimals)).toBe(expected);
  });

  it('takes another precision, and refuses what is not an amount', () => {
    expect(formatNativeAmount(412_345_678_901_234n, 18, 6)).toBe('0.000412346');
    expect(() => formatNativeAmount(-1n, 18)).toThrow(RangeError);
    expect(() => formatNativeAmount(1n, -1)).toThrow(RangeError);
    expect(() => formatNativeAmount(1n, 18, 0)).toThrow(RangeError);
  });
});

describe('swap families and their fallbacks', () => {
  it('counts EVM, Solana, Bitcoin and Cosmos as swap families', () => {
    expect(swapFamilyOf('evm')).toBe('evm');
    expect(swapFamilyOf('solana')).toBe('solana');
    expect(swapFamilyOf('bitcoin')).toBe('bitcoin');
    expect(swapFamilyOf('cosmos')).toBe('cosmos');
    expect(swapFamilyOf(undefined)).toBeUndefined();
  });

  it("prices a chain with its family's fallback (Bitcoin in sat/vB), an unknown chain as EVM", () => {
    expect(sponsoredFeeFallbackOf('solana')).toEqual(SPONSORED_FEE_FALLBACKS.solana);
    expect(sponsoredFeeFallbackOf('evm')).toEqual(SPONSORED_FEE_FALLBACKS.evm);
    expect(sponsoredFeeFallbackOf('bitcoin')).toEqual({ feePerGas: 20n, tokenAccountRent: 0n });
    expect(sponsoredFeeFallbackOf(undefined)).toEqual(SPONSORED_FEE_FALLBACKS.evm);
  });

  it('names each swap family its native coin', () => {
    expect(NATIVE_COIN_FALLBACKS).toEqual({
      evm: { nativeSymbol: 'ETH', nativeDecimals: 18 },
      solana: { nativeSymbol: 'SOL', nativeDecimals: 9 },
      bitcoin: { nativeSymbol: 'BTC', nativeDecimals: 8 },
      cosmos: { nativeSymbol: 'ATOM', nativeDecimals: 6 },
    });
  });
});

describe('relayedGasLimit', () => {
  it('adds the percentage, then the extra gas, to the estimate', () => {
    expect(relayedGasLimit(150_000n, { percent: 120, extra: 50_000 })).toBe(230_000n);
    expect(relayedGasLimit(150_000n, { percent: 100, extra: 0 })).toBe(150_000n);
  });

  it('covers, by default, a fresh Uniswap V2 pair writing both price accumulators after a small estimate', () => {
    const estimate = 120_000n;
    const accumulatorWrites = 2n * 22_100n;
    expect(relayedGasLimit(estimate, { percent: 120, extra: DEFAULT_RELAYER_GAS_EXTRA })).toBeGreaterThan(
      estimate + accumulatorWrites,
    );
    // The percentage alone does not.
    expect(relayedGasLimit(estimate, { percent: 120, extra: 0 })).toBeLessThan(estimate + accumulatorWrites);
  });
});
