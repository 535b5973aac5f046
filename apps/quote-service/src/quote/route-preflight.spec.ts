import type { RouteLeg, RoutePermitInfo } from '@swapgw/contracts';
import type { EvmSimulation } from '@swapgw/chains/families';
import {
  allowanceIssue,
  balanceIssue,
  firstLegRecipient,
  userGasUnitsOf,
  PreflightChainReads,
  RoutePreflight,
  simulationIssue,
} from './route-preflight';

const USER = '0x00000000000000000000000000000000000000a1';
const ROUTER = '0x00000000000000000000000000000000000000b2';
const USDC = '0x00000000000000000000000000000000000000c3';
const PERMIT2 = '0x00000000000000000000000000000000000000d4';

const leg = (overrides: Partial<RouteLeg> = {}): RouteLeg => ({
  kind: 'swap',
  chain: 'devnet-a',
  provider: 'uniswap-v2',
  tokenIn: { chain: 'devnet-a', symbol: 'USDC', address: USDC, decimals: 6 },
  tokenOut: {
    chain: 'devnet-a',
    symbol: 'DAI',
    address: '0x00000000000000000000000000000000000000e5',
    decimals: 18,
  },
  amountIn: '25000000',
  expectedAmountOut: '25000000000000000000',
  minAmountOut: '24000000000000000000',
  spender: ROUTER,
  path: [USDC, '0x00000000000000000000000000000000000000e5'],
  estimatedDurationSeconds: 5,
  ...overrides,
});

const permit = (eip2612: boolean): RoutePermitInfo => ({
  chain: 'devnet-a',
  chainId: 31337,
  token: USDC,
  amountBaseUnits: '25000000',
  spender: '0x00000000000000000000000000000000000000f6',
  permit2: PERMIT2,
  ...(eip2612 ? { eip2612: { name: 'USD Coin', version: '1' } } : {}),
});

/** Chain reads answering what the test says, counting the calls. */
function fakeReads(answers: {
  balance?: () => Promise<bigint>;
  allowance?: () => Promise<bigint | null>;
  simulate?: () => Promise<EvmSimulation>;
  family?: 'evm' | 'solana' | 'bitcoin';
  nativeBalance?: () => Promise<bigint>;
  feePerGas?: () => Promise<bigint>;
  simulateSolana?: () => Promise<EvmSimulation>;
}) {
  const calls = {
    balance: 0,
    allowance: [] as string[],
    simulate: [] as unknown[],
    simulateSolana: [] as unknown[],
  };
  const reads: PreflightChainReads = {
    familyOf: () => answers.family ?? 'evm',
    nativeOf: () => ({ symbol: 'ETH', decimals: 18 }),
    feePerGas: () => (answers.feePerGas ?? (async () => 1_000_000_000n))(),
    balance: (_chain, _holder, token) => {
      calls.balance++;
      if (token === null && answers.nativeBalance) return answers.nativeBalance();
      return (answers.balance ?? (async () => 100_000_000n))();
    },
    allowance: async (_chain, _token, _owner, spender) => {
      calls.allowance.push(spender);
      return (answers.allowance ?? (async () => 10n ** 30n))();
    },
    simulate: async (_chain, call, allowance) => {
      calls.simulate.push({ call, allowance });
      return (answers.simulate ?? (async () => ({ kind: 'ok' }) as EvmSimulation))();
    },
    firstLegCall: (legs, signer) => ({ from: signer, to: legs[0].spender, data: '0x38ed1739', value: '0' }),
    simulateSolanaFirstLeg: async (legs, signer, recipient, integratorFees) => {
      calls.simulateSolana.push({ chain: legs[0].chain, signer, recipient, integratorFees });
      return (answers.simulateSolana ?? (async () => ({ kind: 'ok' }) as EvmSimulation))();
    },
  };
  return { reads, calls };
}

const request = { userAddress: USER, toChain: 'devnet-a' };

describe('balanceIssue', () => {
  it('is blocking with needed and held in human units when the wallet holds less', () => {
    expect(balanceIssue(leg(), USER, 10_500_000n)).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      severity: 'blocking',
      message: `${USER} holds 10.5 USDC on devnet-a; the route spends 25`,
      chain: 'devnet-a',
      leg: 0,
      token: 'USDC',
      tokenAddress: USDC,
      needed: '25',
      held: '10.5',
    });
  });

  it('finds nothing when the wallet holds exactly the amount or more; the native coin has tokenAddress null', () => {
    expect(balanceIssue(leg(), USER, 25_000_000n)).toBeUndefined();
    const eth = leg({
      tokenIn: { chain: 'devnet-a', symbol: 'ETH', address: null, decimals: 18 },
      amountIn: '10',
    });
    expect(balanceIssue(eth, USER, 0n)).toMatchObject({
      tokenAddress: null,
      needed: '0.00000000000000001',
      held: '0',
    });
  });
});

describe('allowanceIssue', () => {
  it('is a warning naming the spender and whether a permit covers it', () => {
    expect(allowanceIssue(leg(), PERMIT2, 0n, true)).toMatchObject({
      code: 'ALLOWANCE_MISSING',
      severity: 'warning',
      spender: PERMIT2,
      needed: '25',
      held: '0',
      coveredByPermit: true,
    });
    expect(allowanceIssue(leg(), ROUTER, 1_000_000n, false)).toMatchObject({
      held: '1',
      coveredByPermit: false,
    });
  });

  it('finds nothing when the allowance covers the amount', () => {
    expect(allowanceIssue(leg(), PERMIT2, 25_000_000n, false)).toBeUndefined();
  });
});

describe('simulationIssue', () => {
  it('is blocking with the decoded reason and the raw data on a revert', () => {
    expect(
      simulationIssue(leg(), { kind: 'reverted', reason: 'UniswapV2: INVALID_TO', data: '0x08c379a0' }),
    ).toMatchObject({
      code: 'SIMULATION_REVERTED',
      severity: 'blocking',
      revertReason: 'UniswapV2: INVALID_TO',
      revertData: '0x08c379a0',
    });
  });

  it('is a warning when the simulation could not run, and nothing when it went through', () => {
    expect(simulationIssue(leg(), { kind: 'unavailable', reason: 'timeout' })).toMatchObject({
      code: 'SIMULATION_UNAVAILABLE',
      severity: 'warning',
      message: expect.stringContaining('timeout'),
    });
    expect(simulationIssue(leg(), { kind: 'ok' })).toBeUndefined();
  });
});

describe('firstLegRecipient', () => {
  const familyOf = (chain: string): 'solana' | 'evm' => (chain.startsWith('solana') ? 'solana' : 'evm');
  it('pays a one-leg route to the recipient, else to the wallet', () => {
    expect(firstLegRecipient([leg()], { ...request, recipient: '0xabc' }, familyOf)).toBe('0xabc');
    expect(firstLegRecipient([leg()], request, familyOf)).toBe(USER);
  });

  it('pays a bridge before another leg to the wallet on a chain of its family, else to the recipient of the destination', () => {
    const bridge = leg({ kind: 'bridge', destinationChain: 'devnet-b' });
    expect(firstLegRecipient([bridge, leg({ chain: 'devnet-b' })], request, familyOf)).toBe(USER);
    const toSolana = leg({ kind: 'bridge', destinationChain: 'solana-devnet' });
    const solanaLeg = leg({ chain: 'solana-devnet' });
    expect(firstLegRecipient([toSolana, solanaLeg], request, familyOf)).toBeUndefined();
    expect(
      firstLegRecipient(
        [toSolana, solanaLeg],
        { ...request, toChain: 'solana-devnet', recipient: 'So1' },
        familyOf,
      ),
    ).toBe('So1');
  });
});

describe('RoutePreflight', () => {
  it('finds nothing on a funded, approved wallet whose swap simulates: []', async () => {
    const { reads, calls } = fakeReads({});
    expect(await new RoutePreflight(reads).issuesOf(request, [{ legs: [leg()] }])).toEqual([[]]);
    // Without a permit the allowance asked is the leg's spender's; the simulation overrides it.
    expect(calls.allowance).toEqual([ROUTER]);
    expect(calls.simulate).toEqual([
      {
        call: { from: USER, to: ROUTER, data: '0x38ed1739', value: '0' },
        allowance: { token: USDC, spender: ROUTER, amount: 25_000_000n },
      },
    ]);
  });

  it('checks the Permit2 allowance on a route with a permit (the default build’s)', async () => {
    const { reads, calls } = fakeReads({ allowance: async () => 0n });
    const [issues] = await new RoutePreflight(reads).issuesOf(request, [
      { legs: [leg()], permit: permit(true) },
    ]);
    expect(calls.allowance).toEqual([PERMIT2]);
    expect(issues).toEqual([
      expect.objectContaining({ code: 'ALLOWANCE_MISSING', spender: PERMIT2, coveredByPermit: true }),
    ]);
  });

  it('reports the balance, not a simulation that could only fail for it', async () => {
    const { reads } = fakeReads({
      balance: async () => 1n,
      simulate: async () => ({ kind: 'reverted', reason: 'TransferHelper: TRANSFER_FROM_FAILED' }),
    });
    const [issues] = await new RoutePreflight(reads).issuesOf(request, [{ legs: [leg()] }]);
    expect(issues.map((i) => i.code)).toEqual(['INSUFFICIENT_BALANCE']);
  });

  it('counts the integrator fees beside the first leg’s amountIn, whether the router or the aggregator call takes them', async () => {
    const call = { from: USER, to: ROUTER, data: '0x2213bc0b', value: '0' };
    const integratorFees = [{ recipient: ROUTER, amount: 125_000n }];
    const routes = [
      { legs: [leg({ call, path: undefined })], integratorFees },
      { legs: [leg()], integratorFees },
    ];
    const holdsTheLegOnly = fakeReads({ balance: async () => 25_000_000n });
    const short = await new RoutePreflight(holdsTheLegOnly.reads).issuesOf(request, routes);
    expect(short).toEqual([
      [expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', needed: '25.125', held: '25' })],
      [expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', needed: '25.125', held: '25' })],
    ]);
    const holdsBoth = fakeReads({ balance: async () => 25_125_000n });
    expect(await new RoutePreflight(holdsBoth.reads).issuesOf(request, routes)).toEqual([[], []]);
  });

  it('reads a balance shared by routes once', async () => {
    const { reads, calls } = fakeReads({});
    await new RoutePreflight(reads).issuesOf(request, [
      { legs: [leg()] },
      { legs: [leg()] },
      { legs: [leg()] },
    ]);
    expect(calls.balance).toBe(1);
  });

  it('never fails the quote: failed or slow reads become *_UNAVAILABLE warnings within the bound', async () => {
    const never = <T>() => new Promise<T>(() => undefined);
    const { reads } = fakeReads({
      balance: async () => {
        throw new Error('connect ECONNREFUSED');
      },
      allowance: never,
      simulate: never,
    });
    const started = Date.now();
    const [issues] = await new RoutePreflight(reads, 50).issuesOf(request, [{ legs: [leg()] }]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(issues).toEqual([
      expect.objectContaining({ code: 'CHECK_UNAVAILABLE', check: 'balance', severity: 'warning' }),
      expect.objectContaining({ code: 'CHECK_UNAVAILABLE', check: 'allowance', severity: 'warning' }),
      expect.objectContaining({ code: 'SIMULATION_UNAVAILABLE', severity: 'warning' }),
    ]);
  });

  it('says why a leg without a transaction of the wallet is not simulated', async () => {
    const { reads } = fakeReads({});
    reads.firstLegCall = () => {
      throw new Error('The lifi call on devnet-a was built for 0x1, not for the signing wallet');
    };
    const [issues] = await new RoutePreflight(reads).issuesOf(request, [{ legs: [leg()] }]);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'SIMULATION_UNAVAILABLE',
        message: expect.stringContaining('built for 0x1'),
      }),
    ]);
  });

  it('a user-paid build counts its gas: ETH for an ERC-20 input’s approve and swap, the leg spender’s allowance', async () => {
    const { reads, calls } = fakeReads({ nativeBalance: async () => 10n ** 14n, allowance: async () => 0n });
    const [issues] = await new RoutePreflight(reads).issuesOf({ ...request, userPaysGas: true }, [
      { legs: [leg()], permit: permit(true) },
    ]);
    // (50,000 + 240,000) gas at 1 gwei = 0.00029 ETH; the wallet holds 0.0001.
    expect(userGasUnitsOf(leg())).toBe(290_000n);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'INSUFFICIENT_BALANCE',
        token: 'ETH',
        tokenAddress: null,
        needed: '0.00029',
        held: '0.0001',
      }),
      expect.objectContaining({ code: 'ALLOWANCE_MISSING', spender: ROUTER, coveredByPermit: true }),
    ]);
    expect(calls.allowance).toEqual([ROUTER]);
  });

  it('a user-paid native input needs the amount plus its gas from one balance; a sponsored one the amount', async () => {
    const eth = leg({
      tokenIn: { chain: 'devnet-a', symbol: 'ETH', address: null, decimals: 18 },
      amountIn: '1000000000000000000',
    });
    const { reads } = fakeReads({ balance: async () => 10n ** 18n });
    const [userPaid] = await new RoutePreflight(reads).issuesOf({ ...request, userPaysGas: true }, [
      { legs: [eth] },
    ]);
    expect(userPaid).toEqual([
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', token: 'ETH', needed: '1.00024', held: '1' }),
    ]);
    const [sponsored] = await new RoutePreflight(reads).issuesOf(request, [{ legs: [eth] }]);
    expect(sponsored).toEqual([]);
  });

  describe('on Solana', () => {
    const SOL_USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const FEE_RECIPIENT = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH';
    const solRequest = { userAddress: SOL_USER, toChain: 'devnet-a', recipient: USER };
    const deposit = leg({
      kind: 'bridge',
      chain: 'solana-devnet',
      provider: 'devnet-bridge',
      tokenIn: {
        chain: 'solana-devnet',
        symbol: 'USDC',
        address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        decimals: 6,
      },
      destinationChain: 'devnet-a',
    });
    const integratorFees = [{ recipient: FEE_RECIPIENT, amount: 750_000n }];

    it('needs the leg’s amount plus the integrator fees, and simulates the deposit with them for the wallet', async () => {
      const { reads, calls } = fakeReads({ family: 'solana', balance: async () => 25_500_000n });
      const [issues] = await new RoutePreflight(reads).issuesOf(solRequest, [
        { legs: [deposit], integratorFees },
      ]);
      expect(issues).toEqual([
        expect.objectContaining({
          code: 'INSUFFICIENT_BALANCE',
          token: 'USDC',
          needed: '25.75',
          held: '25.5',
        }),
      ]);
      // Short of the input, the simulation could only fail for that: not reported.
      const funded = fakeReads({
        family: 'solana',
        balance: async () => 25_750_000n,
        simulateSolana: async () => ({ kind: 'reverted', reason: 'not reported' }),
      });
      funded.reads.familyOf = (chain) => (chain === 'solana-devnet' ? 'solana' : 'evm');
      const [ok] = await new RoutePreflight(funded.reads).issuesOf(solRequest, [
        { legs: [deposit], integratorFees },
      ]);
      expect(ok).toEqual([
        expect.objectContaining({ code: 'SIMULATION_REVERTED', revertReason: 'not reported' }),
      ]);
      expect(funded.calls.simulateSolana).toEqual([
        { chain: 'solana-devnet', signer: SOL_USER, recipient: USER, integratorFees },
      ]);
      expect(calls.allowance).toEqual([]);
      expect(funded.calls.simulate).toEqual([]); // no eth_call
    });

    it('reports a failing simulation with the program’s error and logs (SIMULATION_REVERTED, blocking)', async () => {
      const reason =
        'simulation failed: {"InstructionError":[0,{"Custom":1}]} (Program log: Error: insufficient funds)';
      const { reads } = fakeReads({
        family: 'solana',
        simulateSolana: async () => ({ kind: 'reverted', reason }),
      });
      reads.familyOf = (chain) => (chain === 'solana-devnet' ? 'solana' : 'evm');
      const [issues] = await new RoutePreflight(reads).issuesOf({ ...solRequest, userPaysGas: true }, [
        { legs: [deposit] },
      ]);
      expect(issues).toEqual([
        {
          code: 'SIMULATION_REVERTED',
          severity: 'blocking',
          message: `The first leg's transaction on solana-devnet reverts: ${reason}`,
          chain: 'solana-devnet',
          leg: 0,
          revertReason: reason,
        },
      ]);
    });

    it('a wallet without SOL cannot pay a simulated fee: a failure on a user-paid build, unknown on a sponsored one', async () => {
      const reason = 'simulation failed: "AccountNotFound"';
      const { reads } = fakeReads({
        family: 'solana',
        simulateSolana: async () => ({ kind: 'reverted', reason }),
      });
      reads.familyOf = (chain) => (chain === 'solana-devnet' ? 'solana' : 'evm');
      const preflight = new RoutePreflight(reads);
      const [sponsored] = await preflight.issuesOf(solRequest, [{ legs: [deposit] }]);
      expect(sponsored).toEqual([
        expect.objectContaining({
          code: 'SIMULATION_UNAVAILABLE',
          severity: 'warning',
          message: expect.stringContaining("a sponsored build's fee payer pays it"),
        }),
      ]);
      const [userPaid] = await preflight.issuesOf({ ...solRequest, userPaysGas: true }, [
        { legs: [deposit] },
      ]);
      expect(userPaid).toEqual([
        expect.objectContaining({ code: 'SIMULATION_REVERTED', revertReason: reason }),
      ]);
    });

    it('never fails the quote: a simulation that throws or hangs is SIMULATION_UNAVAILABLE within the bound', async () => {
      const { reads } = fakeReads({
        family: 'solana',
        simulateSolana: () => new Promise<EvmSimulation>(() => undefined),
      });
      reads.familyOf = (chain) => (chain === 'solana-devnet' ? 'solana' : 'evm');
      const started = Date.now();
      const [issues] = await new RoutePreflight(reads, 50).issuesOf(solRequest, [{ legs: [deposit] }]);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(issues).toEqual([
        expect.objectContaining({ code: 'SIMULATION_UNAVAILABLE', chain: 'solana-devnet' }),
      ]);
    });
  });

  it('checks only the balance on Solana and Bitcoin (no allowance, no eth_call), native input included', async () => {
    const { reads, calls } = fakeReads({ family: 'solana', balance: async () => 0n });
    const sol = leg({
      chain: 'solana-devnet',
      tokenIn: { chain: 'solana-devnet', symbol: 'SOL', address: null, decimals: 9 },
      amountIn: '1500000000',
    });
    const [issues] = await new RoutePreflight(reads).issuesOf(request, [{ legs: [sol] }]);
    expect(issues).toEqual([
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', token: 'SOL', needed: '1.5', held: '0' }),
    ]);
    expect(calls.allowance).toEqual([]);
    expect(calls.simulate).toEqual([]);
  });
});
