import { DevnetManifest, solanaConnection, solanaTestWallet } from '@swapgw/devnet';
import { QuoteResult, RouteIssue } from '@swapgw/contracts';
import { freshSolanaWalletWith } from '@swapgw/testing/solana';
import { Keypair, PublicKey } from '@solana/web3.js';
import { Contract, formatUnits, JsonRpcProvider, MaxUint256, parseUnits, Wallet, HDNodeWallet } from 'ethers';
import {
  errorCodeOf,
  planOf,
  QuoteServiceOnDevnet,
  quoteServiceOnDevnet,
  QuoteTestApp,
} from '../../test/support/quote-service-test-support';

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

/** Human units as the API writes them ("10", "25.5"): formatUnits without its trailing ".0". */
const human = (units: bigint, decimals: number) => formatUnits(units, decimals).replace(/\.0$/, '');

describe('route preflight on the devnet (POST /quote with userAddress; real anvil and litesvm)', () => {
  let stack: QuoteServiceOnDevnet;
  let service: QuoteTestApp;
  let manifest: DevnetManifest;
  let provider: JsonRpcProvider;
  let funder: HDNodeWallet;
  /** A wallet of its own, so that no other suite's swaps change what it holds. */
  let wallet: Wallet;

  beforeAll(async () => {
    stack = await quoteServiceOnDevnet();
    ({ service, manifest } = stack);
    provider = stack.rpc('devnet-a', { fresh: true });
    funder = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, `m/44'/60'/0'/0/8`).connect(provider);
    wallet = Wallet.createRandom().connect(provider) as unknown as Wallet;
  });

  afterAll(() => stack?.close());

  const chainA = () => manifest.chains.find((c) => c.id === 'devnet-a')!;
  const token = (symbol: 'USDC' | 'DAI' | 'WETH') =>
    new Contract(chainA().tokens[symbol].address, ERC20, provider);
  const usdcQuote = (extra: Record<string, string> = {}): Promise<QuoteResult> =>
    service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '25',
      userAddress: wallet.address,
      ...extra,
    });
  const codes = (issues: RouteIssue[] | undefined) => (issues ?? []).map((issue) => issue.code).sort();

  async function send(tx: Promise<{ wait(): Promise<unknown> }>): Promise<void> {
    await (await tx).wait();
  }

  it('without userAddress checks nothing: no route has issues', async () => {
    const quote = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '25',
    });
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) expect(route).not.toHaveProperty('issues');
  });

  it('refuses a userAddress that is not of the source chain family (INVALID_ADDRESS)', async () => {
    const solanaKey = Keypair.generate().publicKey.toBase58();
    expect(await errorCodeOf(usdcQuote({ userAddress: solanaKey }))).toBe('INVALID_ADDRESS');
  });

  it('a fresh wallet with too little USDC: INSUFFICIENT_BALANCE with the chain’s balance, and no simulation', async () => {
    await send(token('USDC').connect(funder).getFunction('transfer')(wallet.address, parseUnits('10', 6)));
    const onChain = (await token('USDC').getFunction('balanceOf')(wallet.address)) as bigint;
    const quote = await usdcQuote();
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      const balance = route.issues?.find((issue) => issue.code === 'INSUFFICIENT_BALANCE');
      expect(balance).toEqual({
        code: 'INSUFFICIENT_BALANCE',
        severity: 'blocking',
        message: expect.stringContaining(wallet.address),
        chain: 'devnet-a',
        leg: 0,
        token: 'USDC',
        tokenAddress: chainA().tokens.USDC.address,
        needed: '25',
        held: human(onChain, 6),
      });
      expect(balance?.held).toBe('10');
      // The wallet granted nothing either; a simulation could only fail for the balance: not reported.
      expect(codes(route.issues)).toEqual(['ALLOWANCE_MISSING', 'INSUFFICIENT_BALANCE']);
    }
  });

  it('a funded wallet without allowance: ALLOWANCE_MISSING to Permit2, covered by USDC’s EIP-2612 permit; the swap simulates', async () => {
    await send(token('USDC').connect(funder).getFunction('transfer')(wallet.address, parseUnits('90', 6)));
    const quote = await usdcQuote();
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      expect(route.permit).toBeDefined();
      expect(route.issues).toEqual([
        {
          code: 'ALLOWANCE_MISSING',
          severity: 'warning',
          message: expect.any(String),
          chain: 'devnet-a',
          leg: 0,
          token: 'USDC',
          tokenAddress: chainA().tokens.USDC.address,
          needed: '25',
          held: '0',
          spender: chainA().permits.permit2,
          coveredByPermit: true,
        },
      ]);
    }
  });

  it('WETH has no EIP-2612: its missing Permit2 allowance is not covered by a permit', async () => {
    await send(token('WETH').connect(funder).getFunction('transfer')(wallet.address, parseUnits('1', 18)));
    const quote = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '0.5',
      userAddress: wallet.address,
    });
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({
          code: 'ALLOWANCE_MISSING',
          coveredByPermit: false,
          needed: '0.5',
          held: '0',
        }),
      ]);
    }
  });

  it('a funded wallet that approved Permit2: issues []', async () => {
    // The wallet pays its own approve: lend it the gas.
    await provider.send('anvil_setBalance', [wallet.address, '0x' + parseUnits('1', 18).toString(16)]);
    await send(token('USDC').connect(wallet).getFunction('approve')(chainA().permits.permit2, MaxUint256));
    const quote = await usdcQuote();
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) expect(route.issues).toEqual([]);
  });

  it('quote.preflight (a build): the same checks for one stored plan and the build’s wallet', async () => {
    const quote = await service.quotes.create({
      fromChain: 'devnet-a',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'DAI',
      amount: '25',
    });
    const plan = planOf(quote, quote.routes[0].routeId);
    expect(await service.quotes.preflight({ plan, userAddress: wallet.address })).toEqual({ issues: [] });
    const stranger = Wallet.createRandom().address;
    const { issues } = await service.quotes.preflight({ plan, userAddress: stranger });
    expect(issues).toEqual([
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', needed: '25', held: '0' }),
      expect.objectContaining({ code: 'ALLOWANCE_MISSING', held: '0', coveredByPermit: true }),
    ]);
    // A user-paid build: the wallet's own approve and swap cost gas in ETH it must hold, and it
    // approves the router (not Permit2). Estimated at the node’s gas price: (50,000 + 240,000) gas.
    const userPaid = await service.quotes.preflight({ plan, userAddress: stranger, userPaysGas: true });
    const gasPrice = BigInt((await provider.send('eth_gasPrice', [])) as string);
    expect(userPaid.issues).toEqual([
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', token: 'USDC', needed: '25', held: '0' }),
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', token: 'ETH', tokenAddress: null, held: '0' }),
      expect.objectContaining({
        code: 'ALLOWANCE_MISSING',
        spender: plan.legs[0].spender,
        coveredByPermit: true,
      }),
    ]);
    const gasNeeded = parseUnits(userPaid.issues[1].needed!, 18);
    expect(gasNeeded % 290_000n).toBe(0n);
    // The devnet's gas price moves with its blocks: within a factor 2 of the one read now.
    expect(gasNeeded).toBeGreaterThan((290_000n * gasPrice) / 2n);
    expect(gasNeeded).toBeLessThan(290_000n * gasPrice * 2n);
    const funded = await service.quotes.preflight({ plan, userAddress: wallet.address, userPaysGas: true });
    expect(funded.issues).toEqual([
      expect.objectContaining({ code: 'ALLOWANCE_MISSING', spender: plan.legs[0].spender, held: '0' }),
    ]);
    // The build's recipient is the one paid: the output token's contract makes the swap revert.
    const reverted = await service.quotes.preflight({
      plan,
      userAddress: wallet.address,
      recipient: chainA().tokens.DAI.address,
    });
    expect(reverted.issues).toEqual([
      expect.objectContaining({ code: 'SIMULATION_REVERTED', revertReason: 'UniswapV2: INVALID_TO' }),
    ]);
    const solanaKey = Keypair.generate().publicKey.toBase58();
    expect(await errorCodeOf(service.quotes.preflight({ plan, userAddress: solanaKey }))).toBe(
      'INVALID_ADDRESS',
    );
  });

  it('a route whose first transaction reverts (paying the output token contract itself): SIMULATION_REVERTED, reason decoded', async () => {
    const quote = await usdcQuote({ recipient: chainA().tokens.DAI.address });
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({
          code: 'SIMULATION_REVERTED',
          severity: 'blocking',
          chain: 'devnet-a',
          leg: 0,
          revertReason: 'UniswapV2: INVALID_TO',
          revertData: expect.stringMatching(/^0x08c379a0/),
        }),
      ]);
    }
  });

  it('Solana: the deposit is simulated with its integrator fee on the chain; the wallet needs the amount and the fee', async () => {
    const solana = solanaConnection(manifest.solana!.rpcUrl);
    const mint = new PublicKey(manifest.solana!.tokens.USDC.mint);
    const funded = solanaTestWallet(8); // SOL and USDC
    // 25 USDC and not one lamport: it can pay the deposit and the fee, not a transaction's fee.
    const noSol = await freshSolanaWalletWith(solana, mint, funded, 25_000_000n);
    const feeRecipient = Keypair.generate().publicKey.toBase58(); // no USDC account yet
    const terms = {
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '25',
      recipient: wallet.address,
      integratorFee: [{ bps: 100, recipient: feeRecipient }],
    };
    // Sponsored (the default): 24.75 deposited + 0.25 fee = what it holds; the service's fee payer
    // pays the fees, so a wallet without SOL failing the simulation says nothing about the route.
    const quote = await service.quotes.create({ ...terms, userAddress: noSol.publicKey.toBase58() });
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({
          code: 'SIMULATION_UNAVAILABLE',
          severity: 'warning',
          chain: 'solana-devnet',
          message: expect.stringContaining("a sponsored build's fee payer pays it"),
        }),
      ]);
    }
    const plan = planOf(quote, quote.routes[0].routeId);
    // User-paid, the same wallet's transaction fails on the chain: the runtime's error is the reason.
    const userPaid = await service.quotes.preflight({
      plan,
      userAddress: noSol.publicKey.toBase58(),
      userPaysGas: true,
    });
    expect(userPaid.issues).toEqual([
      expect.objectContaining({
        code: 'SIMULATION_REVERTED',
        severity: 'blocking',
        chain: 'solana-devnet',
        leg: 0,
        revertReason: expect.stringMatching(/^simulation failed: .*AccountNotFound/),
      }),
    ]);
    // A wallet with SOL: deposit and fee transfer (with the recipient's account created) simulate.
    const ok = await service.quotes.preflight({
      plan,
      userAddress: funded.publicKey.toBase58(),
      userPaysGas: true,
    });
    expect(ok.issues).toEqual([]);
    // Asking 25.2: the wallet holds 25, the deposit and the fee need 25.2.
    const short = await service.quotes.create({
      ...terms,
      amount: '25.2',
      userAddress: noSol.publicKey.toBase58(),
    });
    for (const route of short.routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', token: 'USDC', needed: '25.2', held: '25' }),
      ]);
    }
  });

  it('Solana: a fresh wallet holding no USDC gets INSUFFICIENT_BALANCE read from the chain', async () => {
    const quote = await service.quotes.create({
      fromChain: 'solana-devnet',
      toChain: 'devnet-a',
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '25',
      recipient: wallet.address,
      userAddress: Keypair.generate().publicKey.toBase58(),
    });
    expect(quote.routes.length).toBeGreaterThan(0);
    for (const route of quote.routes) {
      expect(route.issues).toEqual([
        expect.objectContaining({
          code: 'INSUFFICIENT_BALANCE',
          severity: 'blocking',
          chain: 'solana-devnet',
          token: 'USDC',
          needed: '25',
          held: '0',
        }),
      ]);
    }
  });
});
