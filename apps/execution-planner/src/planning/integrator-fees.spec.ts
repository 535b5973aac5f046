import { CodedError, RouteLeg, RoutePlan } from '@swapgw/contracts';
import { integratorFeeTransfersOf, IntegratorFeeChains } from './integrator-fees';

const USDC = { chain: 'devnet-a', symbol: 'USDC', address: `0x${'11'.repeat(20)}`, decimals: 6 };
const WETH = { chain: 'devnet-a', symbol: 'WETH', address: `0x${'12'.repeat(20)}`, decimals: 18 };
const V2_ROUTER = `0x${'a1'.repeat(20)}`;
const BRIDGE = `0x${'b1'.repeat(20)}`;
const SPOKE_POOL = `0x${'b2'.repeat(20)}`;
const V3_ROUTER_B = `0x${'a3'.repeat(20)}`;
const RECIPIENT = `0x${'22'.repeat(20)}`;
const swapLeg = (overrides: Partial<RouteLeg> = {}) =>
  ({
    kind: 'swap',
    chain: 'devnet-a',
    provider: 'uniswap-v2',
    tokenIn: USDC,
    tokenOut: WETH,
    spender: V2_ROUTER,
    path: [USDC.address, WETH.address],
    ...overrides,
  }) as RouteLeg;
const planWith = (integratorFees?: RoutePlan['integratorFees'], leg = swapLeg()) =>
  ({ integratorFees, legs: [leg] }) as RoutePlan;
const chains: IntegratorFeeChains = {
  familyOf: (chain) =>
    chain === 'solana-devnet' ? 'solana' : chain === 'bitcoin-devnet' ? 'bitcoin' : 'evm',
  permitContractsOf: (chain) =>
    chain === 'devnet-a'
      ? {
          permitRouter: `0x${'c1'.repeat(20)}`,
          permit2: `0x${'c2'.repeat(20)}`,
          uniswapV2Router: V2_ROUTER,
          bridge: BRIDGE,
          acrossSpokePool: SPOKE_POOL,
        }
      : chain === 'devnet-b'
        ? {
            permitRouter: `0x${'d1'.repeat(20)}`,
            permit2: `0x${'c2'.repeat(20)}`,
            uniswapV3SwapRouter02: V3_ROUTER_B,
          }
        : undefined,
};
const fee = (amount: string, recipient = RECIPIENT, token: RouteLeg['tokenIn'] = USDC) => ({
  token,
  recipient,
  bps: 50,
  amount,
});
const ETH = { ...WETH, symbol: 'ETH', address: null };
const bridgeLeg = (overrides: Partial<RouteLeg> = {}) =>
  swapLeg({
    kind: 'bridge',
    provider: 'devnet-bridge',
    tokenOut: { ...USDC, chain: 'devnet-b' },
    destinationChain: 'devnet-b',
    spender: BRIDGE,
    path: undefined,
    ...overrides,
  });
const acrossLeg = bridgeLeg({ provider: 'across', spender: SPOKE_POOL });

const refusalOf = (plan: RoutePlan): CodedError => {
  try {
    integratorFeeTransfersOf(plan, chains);
  } catch (error) {
    return error as CodedError;
  }
  throw new Error('not refused');
};

describe('integratorFeeTransfersOf', () => {
  it('is empty for a plan without a charged fee', () => {
    expect(integratorFeeTransfersOf(planWith(), chains)).toEqual([]);
    expect(integratorFeeTransfersOf(planWith([]), chains)).toEqual([]);
    expect(integratorFeeTransfersOf(planWith([fee('0')]), chains)).toEqual([]);
  });

  it('gives each charged recipient and amount when the first leg swaps an ERC-20 through the chain router', () => {
    const other = `0x${'33'.repeat(20)}`;
    expect(integratorFeeTransfersOf(planWith([fee('125000'), fee('0'), fee('7', other)]), chains)).toEqual([
      { recipient: RECIPIENT, amount: 125000n },
      { recipient: other, amount: 7n },
    ]);
  });

  it('gives the fees when the first leg swaps the native coin through the chain router (fee in the native coin)', () => {
    const nativeIn = swapLeg({ tokenIn: ETH, path: [WETH.address, USDC.address], tokenOut: USDC });
    expect(integratorFeeTransfersOf(planWith([fee('5', RECIPIENT, ETH)], nativeIn), chains)).toEqual([
      { recipient: RECIPIENT, amount: 5n },
    ]);
  });

  it('gives the transfers of a Bitcoin bridge deposit, whose PSBT the signer builds with an output per recipient (user-paid or sponsored alike)', () => {
    const btc = { chain: 'bitcoin-devnet', symbol: 'BTC', address: null, decimals: 8 };
    const deposit = bridgeLeg({ chain: 'bitcoin-devnet', tokenIn: btc, spender: 'bcrt1pvault' });
    const recipients = ['bcrt1qfeea', 'bcrt1qfeeb'];
    const fees = recipients.map((recipient, i) => ({
      token: btc,
      recipient,
      bps: 30,
      amount: String(3000 + i),
    }));
    expect(integratorFeeTransfersOf(planWith(fees, deposit), chains)).toEqual([
      { recipient: 'bcrt1qfeea', amount: 3000n },
      { recipient: 'bcrt1qfeeb', amount: 3001n },
    ]);
  });

  it('gives the transfers of a Solana bridge deposit, which the signer builds with them', () => {
    const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const solanaUsdc = { ...USDC, chain: 'solana-devnet', address: mint };
    const solanaRecipient = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const deposit = swapLeg({
      kind: 'bridge',
      chain: 'solana-devnet',
      provider: 'devnet-bridge',
      tokenIn: solanaUsdc,
      spender: 'vau1tvau1tvau1tvau1tvau1tvau1tvau1tvau1tvau1t',
    });
    const solanaFee = { token: solanaUsdc, recipient: solanaRecipient, bps: 50, amount: '100000' };
    expect(integratorFeeTransfersOf(planWith([solanaFee], deposit), chains)).toEqual([
      { recipient: solanaRecipient, amount: 100000n },
    ]);
    // A Jupiter transaction built with the fee as its platform fee takes it itself (the plan marks
    // it collectedBy: aggregator); its step gets the fee to check the transaction's record again.
    const jupiter = swapLeg({
      chain: 'solana-devnet',
      provider: 'jupiter',
      tokenIn: solanaUsdc,
      solanaTransaction: {
        serializedTransaction: 'AQID',
        signer: solanaRecipient,
        lastValidBlockHeight: 9,
        integratorFee: { recipient: solanaRecipient, feeAccount: solanaRecipient, amount: '100000' },
      },
    });
    const taken = { ...solanaFee, collectedBy: 'aggregator' as const };
    expect(integratorFeeTransfersOf(planWith([taken], jupiter), chains)).toEqual([
      { recipient: solanaRecipient, amount: 100000n },
    ]);
    expect(refusalOf(planWith([{ ...taken, amount: '99999' }], jupiter)).code).toBe('VALIDATION_FAILED');
    // A fee the gateway would pay cannot be added to a transaction signed as Jupiter built it.
    expect(refusalOf(planWith([solanaFee], jupiter)).code).toBe('VALIDATION_FAILED');
    const elsewhere = {
      ...solanaFee,
      token: { ...solanaUsdc, address: 'So11111111111111111111111111111111111111112' },
    };
    expect(refusalOf(planWith([elsewhere], deposit)).code).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['the devnet bridge (depositWithFees, or the signed bridge intent)', bridgeLeg()],
    ['Across (acrossWithFees, or the signed Across intent)', acrossLeg],
    [
      'the devnet bridge towards Solana (depositToWithFees, or the signed bridge-to intent)',
      bridgeLeg({ destinationChain: 'solana-devnet' }),
    ],
  ] as const)(
    'gives the fees when the route starts with a deposit into %s through the chain router',
    (_name, leg) => {
      expect(integratorFeeTransfersOf(planWith([fee('125000')], leg), chains)).toEqual([
        { recipient: RECIPIENT, amount: 125000n },
      ]);
    },
  );

  it('gives the fees when the route starts with an Across deposit whose fill swaps on the destination (acrossWithFees, or the signed AcrossSwapIntent)', () => {
    const usdcB = { ...USDC, chain: 'devnet-b', address: `0x${'31'.repeat(20)}` };
    const wethB = { ...WETH, chain: 'devnet-b', address: `0x${'32'.repeat(20)}` };
    const acrossSwap = {
      integratorFees: [fee('125000')],
      legs: [
        bridgeLeg({ provider: 'across', spender: SPOKE_POOL, tokenOut: usdcB }),
        swapLeg({
          chain: 'devnet-b',
          provider: 'uniswap-v3',
          tokenIn: usdcB,
          tokenOut: wethB,
          spender: V3_ROUTER_B,
          path: [usdcB.address, wethB.address],
          poolFees: [500],
        }),
      ],
    } as RoutePlan;
    expect(integratorFeeTransfersOf(acrossSwap, chains)).toEqual([{ recipient: RECIPIENT, amount: 125000n }]);
  });

  it.each([
    ['a bridge the router does not call', bridgeLeg({ spender: `0x${'98'.repeat(20)}` }), /venue/],
  ] as const)('refuses %s with its reason', (_name, leg, reason) => {
    const refusal = refusalOf(planWith([fee('125000')], leg));
    expect(refusal.code).toBe('VALIDATION_FAILED');
    expect(refusal.message).toMatch(reason);
    expect(refusal.details).toMatchObject({ field: 'integratorFee', recipients: 1, chain: 'devnet-a' });
  });

  it.each([
    ['a fee in another token than the input', swapLeg({ tokenIn: ETH })],
    ['a swap without a Uniswap path', swapLeg({ path: undefined })],
    [
      'a prebuilt aggregator call',
      swapLeg({ call: { from: RECIPIENT, to: RECIPIENT, data: '0x', value: '0' } }),
    ],
    ['a venue the router does not call', swapLeg({ spender: `0x${'99'.repeat(20)}` })],
    ['a chain without router', swapLeg({ chain: 'devnet-b' })],
    ['a Solana aggregator (prebuilt) transaction', swapLeg({ chain: 'solana-devnet', provider: 'jupiter' })],
  ])('refuses %s (400 VALIDATION_FAILED, field integratorFee)', (_name, leg) => {
    const refusal = refusalOf(planWith([fee('125000')], leg));
    expect(refusal).toBeInstanceOf(CodedError);
    expect(refusal.code).toBe('VALIDATION_FAILED');
    expect(refusal.details).toMatchObject({ field: 'integratorFee', recipients: 1 });
  });

  it.each([
    ['buys a taxed token', { buyTaxBps: 300 }],
    ['sells a taxed token', { sellTaxBps: 500 }],
    ['sells and buys taxed tokens', { sellTaxBps: 500, buyTaxBps: 300 }],
  ])(
    'gives the fees when the first leg %s: the router swaps with Router02’s fee-on-transfer functions',
    (_name, taxes) => {
      expect(integratorFeeTransfersOf(planWith([fee('125000')], swapLeg(taxes)), chains)).toEqual([
        { recipient: RECIPIENT, amount: 125000n },
      ]);
    },
  );

  describe('fees an aggregator call takes itself (collectedBy: aggregator)', () => {
    const call = { from: RECIPIENT, to: `0x${'0a'.repeat(20)}`, data: '0x2213bc0b', value: '0' };
    const taken = (amount: string) => ({ ...fee(amount), collectedBy: 'aggregator' as const });

    it.each([['0x'], ['lifi']])(
      'passes them on to the prebuilt %s call that takes them (its step sends the call as built)',
      (provider) => {
        const leg = swapLeg({ provider, call, path: undefined });
        expect(integratorFeeTransfersOf(planWith([taken('125000')], leg), chains)).toEqual([
          { recipient: fee('125000').recipient, amount: 125_000n },
        ]);
      },
    );

    it.each([
      ['the call is missing (a priced-only leg)', swapLeg({ provider: '0x', path: undefined })],
      [
        'the first leg is a prebuilt Solana transaction that does not record them',
        swapLeg({
          chain: 'solana-devnet',
          provider: 'jupiter',
          path: undefined,
          solanaTransaction: { serializedTransaction: 'AQID', signer: RECIPIENT, lastValidBlockHeight: 9 },
        }),
      ],
      ['the first leg is a router swap', swapLeg()],
    ])('refuses when %s: the fee would not be paid, or paid twice', (_name, leg) => {
      const refusal = refusalOf(planWith([taken('125000')], leg));
      expect(refusal.code).toBe('VALIDATION_FAILED');
      expect(refusal.details).toMatchObject({ field: 'integratorFee' });
    });

    it('passes them on to a THORChain deposit whose memo names the recipients as affiliates (it deposits them with the leg), and refuses one that does not', () => {
      const thorchainLeg = (affiliates: { name: string; bps: number }[]) =>
        bridgeLeg({
          provider: 'thorchain',
          spender: `0x${'c1'.repeat(20)}`,
          thorchain: {
            asset: 'BTC.BTC',
            streamingInterval: 0,
            streamingQuantity: 0,
            expiry: 2_000_000_000,
            affiliates,
          },
        });
      const toWallet = { ...taken('125000'), recipient: 'wallet' };
      expect(
        integratorFeeTransfersOf(
          planWith(
            [toWallet],
            thorchainLeg([
              { name: 'sg', bps: 10 },
              { name: 'wallet', bps: 30 },
            ]),
          ),
          chains,
        ),
      ).toEqual([{ recipient: 'wallet', amount: 125_000n }]);
      expect(refusalOf(planWith([toWallet], thorchainLeg([{ name: 'sg', bps: 10 }]))).code).toBe(
        'VALIDATION_FAILED',
      );
    });

    it('refuses a mix of aggregator-taken and router-paid fees', () => {
      const leg = swapLeg({ provider: '0x', call, path: undefined });
      expect(refusalOf(planWith([taken('125000'), fee('7')], leg)).code).toBe('VALIDATION_FAILED');
    });
  });
});
