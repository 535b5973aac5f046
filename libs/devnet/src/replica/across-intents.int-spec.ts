import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Contract,
  hexlify,
  Interface,
  JsonRpcProvider,
  parseUnits,
  randomBytes,
  TransactionReceipt,
  Wallet,
} from 'ethers';
import {
  acrossIntentTypedData,
  acrossSwapIntentTypedData,
  ChainDeployments,
  eip2612PermitTypedData,
  encodeAcrossSwapMessage,
  encodeSponsoredCall,
  ethersTypedDataArgs,
  PERMIT2_WITNESS_TYPE_STRINGS,
  randomPermit2Nonce,
  REAL_NETWORK_CATALOG,
  SPONSORED_EVM_GAS,
  sponsoredRouterInterface,
  TypedDataV4,
} from '@swapgw/chains';
import { ACROSS_SPOKE_POOL_INTERFACE, encodeUniswapV3Path } from '@swapgw/chains/families';
import { freePort } from '@swapgw/testing';
import { PERMIT2_ABI as PERMIT2_ERRORS_ABI, SWAP_GATEWAY_ROUTER_ABI } from '../contracts/abis';
import { devnetWallet } from '../accounts';
import { DEVNET_MNEMONIC } from '../anvil';
import { localProvider } from '../evm-provider';
import { RunningMainnetReplica, startMainnetReplica } from './start-mainnet-replica';

// Across with gas covered on both chains, on the mainnet replica: a wallet holding USDC and no ETH on
// base signs typed data only (USDC's EIP-2612 permit of Permit2, then an AcrossSwapIntent or
// AcrossIntent); a relayer account sends it to our SwapGatewayRouter, which deposits into base's
// SpokePool; the replica's filler fills on arbitrum, and for a bridge-swap the SpokePool's fill calls
// the arbitrum router's handleV3AcrossMessage, which swaps through SwapRouter02.
const CHAIN_IDS = { base: 8453, arbitrum: 42161 } as const;
type Chain = keyof typeof CHAIN_IDS;
const ERC20_ABI = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
];
const QUOTER_V2_ABI = [
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
];
const OUTCOME = { swapped: 0n, expired: 1n, swapFailed: 2n } as const;

interface SuggestedFees {
  outputAmount: string;
  timestamp: string;
  fillDeadline: string;
  exclusiveRelayer: string;
  exclusivityDeadline: number;
  spokePoolAddress: string;
}

describe('Across with gas covered on the mainnet replica', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-across-intents-'));
  let replica: RunningMainnetReplica;
  let base: JsonRpcProvider;
  let arbitrum: JsonRpcProvider;
  const provider = (chain: Chain) => (chain === 'base' ? base : arbitrum);
  const catalogOf = (chain: Chain | 'ethereum'): ChainDeployments =>
    REAL_NETWORK_CATALOG.find((c) => c.chain === chain)!;
  const usdcOf = (chain: Chain) => catalogOf(chain).tokens.find((t) => t.symbol === 'USDC')!.address!;
  const wethOf = (chain: Chain) => catalogOf(chain).wrappedNative!;
  const router = () => catalogOf('base').gatewayRouter!;
  const inAnHour = () => BigInt(Math.floor(Date.now() / 1000) + 3600);
  const errors = new Interface(
    [...SWAP_GATEWAY_ROUTER_ABI, ...PERMIT2_ERRORS_ABI].filter((f) => f.startsWith('error ')),
  );
  const settled = new Interface(SWAP_GATEWAY_ROUTER_ABI.filter((f) => f.startsWith('event ')));
  const balanceOf = async (chain: Chain, token: string, holder: string) =>
    (await new Contract(token, ERC20_ABI, provider(chain)).getFunction('balanceOf')(holder)) as bigint;

  beforeAll(async () => {
    replica = await startMainnetReplica({
      manifestPath: path.join(workDir, 'manifest.json'),
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
    });
    const rpc = (id: string) => replica.manifest.mainnetReplica.evm.find((c) => c.id === id)!.rpcUrl;
    base = localProvider(rpc('base'), CHAIN_IDS.base);
    arbitrum = localProvider(rpc('arbitrum'), CHAIN_IDS.arbitrum);
  }, 90_000);

  afterAll(async () => {
    base?.destroy();
    arbitrum?.destroy();
    await replica?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const relayer = (chain: Chain) => devnetWallet(DEVNET_MNEMONIC, 15, provider(chain));
  const relay = async (call: { to: string; data: string }, chain: Chain = 'base') => {
    // A fixed gas limit as the service's relayers add a margin: a V3 swap writes the pool's oracle only in
    // a later second than its last observation, so an estimate can come out short.
    const receipt = await (
      await relayer(chain).sendTransaction({ to: call.to, data: call.data, gasLimit: 2_000_000 })
    ).wait();
    expect(receipt?.status).toBe(1);
    return receipt!;
  };
  const refusal = (call: { to: string; data: string }, chain: Chain = 'base') =>
    provider(chain)
      .call({ to: call.to, data: call.data, from: relayer(chain).address })
      .then(
        () => 'accepted',
        (error: { data?: string }) => errors.parseError(error.data ?? '0x')?.name,
      );

  /** A wallet with `amount` USDC and no ETH on base that has signed USDC's permit of Permit2 (relayed). */
  const zeroEthWallet = async (amount: bigint): Promise<Wallet> => {
    const wallet = new Wallet(hexlify(randomBytes(32)), base);
    const funder = devnetWallet(DEVNET_MNEMONIC, 6, base);
    await (
      await new Contract(usdcOf('base'), ERC20_ABI, funder).getFunction('transfer')(wallet.address, amount)
    ).wait();
    const permitTd = eip2612PermitTypedData({
      chainId: CHAIN_IDS.base,
      token: usdcOf('base'),
      tokenName: 'USD Coin',
      version: '2',
      owner: wallet.address,
      spender: catalogOf('base').permit2!,
      value: 2n ** 256n - 1n,
      nonce: (await new Contract(usdcOf('base'), ERC20_ABI, base).getFunction('nonces')(
        wallet.address,
      )) as bigint,
      deadline: inAnHour(),
    });
    await relay(encodeSponsoredCall(permitTd, wallet.address, await sign(wallet, permitTd)));
    return wallet;
  };
  const sign = (wallet: Wallet, td: TypedDataV4) => {
    const { domain, types, value } = ethersTypedDataArgs(td);
    return wallet.signTypedData(domain, types, value);
  };

  const quote = async (amount: bigint, recipient: string): Promise<SuggestedFees> => {
    const query = new URLSearchParams({
      inputToken: usdcOf('base'),
      outputToken: usdcOf('arbitrum'),
      originChainId: String(CHAIN_IDS.base),
      destinationChainId: String(CHAIN_IDS.arbitrum),
      amount: amount.toString(),
      recipient,
    });
    const response = await fetch(`${replica.manifest.mainnetReplica.acrossApiUrl}/suggested-fees?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as SuggestedFees;
  };
  const acrossTerms = (fees: SuggestedFees) => ({
    venue: fees.spokePoolAddress,
    destinationChainId: CHAIN_IDS.arbitrum,
    outputToken: usdcOf('arbitrum'),
    outputAmount: fees.outputAmount,
    exclusiveRelayer: fees.exclusiveRelayer,
    quoteTimestamp: fees.timestamp,
    fillDeadline: fees.fillDeadline,
    exclusivityParameter: fees.exclusivityDeadline,
  });
  const wethFor = async (usdcIn: bigint) => {
    const quoter = new Contract(catalogOf('arbitrum').uniswapV3!.quoterV2, QUOTER_V2_ABI, arbitrum);
    const [out] = (await quoter.getFunction('quoteExactInputSingle').staticCall({
      tokenIn: usdcOf('arbitrum'),
      tokenOut: wethOf('arbitrum'),
      amountIn: usdcIn,
      fee: 500,
      sqrtPriceLimitX96: 0,
    })) as [bigint];
    return out;
  };
  const waitFor = async (read: () => Promise<bigint>, atLeast: bigint, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value >= atLeast || Date.now() > until) return value;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const settlements = async (recipient: string) =>
    (
      await arbitrum.getLogs({
        address: router(),
        topics: [
          settled.getEvent('BridgeSwapSettled')!.topicHash,
          null,
          `0x${recipient.slice(2).toLowerCase().padStart(64, '0')}`,
        ],
        fromBlock: 0,
      })
    ).map((log) => settled.parseLog(log)!.args);

  /** The destination half of an AcrossSwapIntent: arbitrum's router swaps USDC for WETH (fee 500) to the wallet. */
  const wethOnArbitrum = (wallet: Wallet, amountOutMin: bigint, deadline: bigint) => ({
    destinationRouter: catalogOf('arbitrum').gatewayRouter!,
    destinationVenue: catalogOf('arbitrum').uniswapV3!.swapRouter02,
    path: [usdcOf('arbitrum'), wethOf('arbitrum')],
    fees: [500],
    amountOutMin,
    recipient: wallet.address,
    unwrapNative: false,
    deadline,
  });
  /** Where a witness on base is signed for: Permit2 of base, our router the spender. */
  const permit2OnBase = () => ({
    chainId: CHAIN_IDS.base,
    permit2: catalogOf('base').permit2!,
    router: router(),
  });
  const permitOf = (amount: bigint) => ({
    token: usdcOf('base'),
    amount,
    nonce: randomPermit2Nonce(),
    deadline: inAnHour(),
  });
  const bytes32 = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
  const routerEventsIn = (receipt: TransactionReceipt) =>
    receipt.logs
      .map((log) => (log.address === router() ? settled.parseLog(log) : null))
      .filter((event) => event !== null);

  /**
   * The signed `td` relayed through `method` with the fee changed by the relayer (redirected to
   * itself, raised, or dropped): each refused as InvalidSigner.
   */
  const expectChangedFeesRefused = async (
    method: 'acrossWithIntent' | 'acrossAndSwapWithIntent',
    td: TypedDataV4,
    wallet: Wallet,
    signature: string,
    fee: { recipient: string; amount: bigint },
  ) => {
    const message = td.message as {
      permitted: { token: string; amount: string };
      nonce: string;
      deadline: string;
      witness: Record<string, unknown>;
    };
    const withFees = (integratorFees: { recipient: string; amount: bigint }[]) => ({
      to: router(),
      data: sponsoredRouterInterface.encodeFunctionData(method, [
        { permitted: message.permitted, nonce: message.nonce, deadline: message.deadline },
        wallet.address,
        { ...message.witness, integratorFees: integratorFees.map((f) => [f.recipient, f.amount]) },
        signature,
      ]),
    });
    expect(await refusal(withFees([{ recipient: relayer('base').address, amount: fee.amount }]))).toBe(
      'InvalidSigner',
    );
    expect(await refusal(withFees([{ ...fee, amount: fee.amount + 1n }]))).toBe('InvalidSigner');
    expect(await refusal(withFees([]))).toBe('InvalidSigner');
  };

  /**
   * Relays the wallet's signed Across deposit with an integrator fee through `method` (within its
   * gas figure), after the same call with the fee changed is refused (expectChangedFeesRefused).
   * On base: IntegratorFeePaid (payer the wallet), the fee recipient holding exactly the fee, and
   * the SpokePool's FundsDeposited of `deposited` (what the fee left, for which the output was
   * quoted) with the wallet as depositor (Across refunds an unfilled deposit to it, never to the
   * router), which it returns; nothing left with the wallet or the router.
   */
  const relayWithFee = async (
    method: 'acrossWithIntent' | 'acrossAndSwapWithIntent',
    td: TypedDataV4,
    wallet: Wallet,
    fee: { recipient: string; amount: bigint },
    deposited: bigint,
  ) => {
    const signature = await sign(wallet, td);
    await expectChangedFeesRefused(method, td, wallet, signature, fee);
    const receipt = await relay(encodeSponsoredCall(td, wallet.address, signature));
    const gasFigure = method === 'acrossWithIntent' ? 'acrossIntent' : 'acrossSwapIntent';
    expect(receipt.gasUsed).toBeLessThan(SPONSORED_EVM_GAS[gasFigure]);
    const events = routerEventsIn(receipt);
    expect(events.find((event) => event.name === 'IntegratorFeePaid')?.args.toArray()).toEqual([
      fee.recipient,
      usdcOf('base'),
      wallet.address,
      fee.amount,
    ]);
    expect(events.find((event) => event.name === 'AcrossDepositWithIntent')?.args.amount).toBe(deposited);
    const spokePool = (td.message.witness as { venue: string }).venue;
    const deposit = receipt.logs
      .filter((log) => log.address === spokePool)
      .map((log) => ACROSS_SPOKE_POOL_INTERFACE.parseLog(log))
      .find((event) => event?.name === 'FundsDeposited');
    expect(deposit?.args.depositor).toBe(bytes32(wallet.address));
    expect(deposit?.args.inputAmount).toBe(deposited);
    expect(await balanceOf('base', usdcOf('base'), fee.recipient)).toBe(fee.amount);
    expect(await balanceOf('base', usdcOf('base'), wallet.address)).toBe(0n);
    expect(await balanceOf('base', usdcOf('base'), router())).toBe(0n);
    return deposit;
  };

  /** The fill on arbitrum swapped the deposit's outputAmount into at least amountOutMin of WETH for the wallet. */
  const expectSwappedOnArbitrum = async (wallet: Wallet, outputAmount: bigint, amountOutMin: bigint) => {
    const weth = await waitFor(() => balanceOf('arbitrum', wethOf('arbitrum'), wallet.address), amountOutMin);
    expect(weth).toBeGreaterThanOrEqual(amountOutMin);
    const [settlement] = await settlements(wallet.address);
    expect(settlement.toArray()).toEqual([
      wallet.address,
      wallet.address,
      wethOf('arbitrum'),
      outputAmount,
      weth,
      OUTCOME.swapped,
    ]);
    expect(await balanceOf('arbitrum', usdcOf('arbitrum'), router())).toBe(0n);
    expect(await balanceOf('arbitrum', usdcOf('arbitrum'), wallet.address)).toBe(0n);
    expect(await base.getBalance(wallet.address)).toBe(0n);
    expect(await arbitrum.getBalance(wallet.address)).toBe(0n);
  };

  it('the deployed router hashes the Across witnesses with the type strings the typed data uses', async () => {
    const deployed = new Contract(router(), SWAP_GATEWAY_ROUTER_ABI, base);
    expect(await deployed.getFunction('ACROSS_INTENT_WITNESS_TYPE')()).toBe(
      PERMIT2_WITNESS_TYPE_STRINGS.AcrossIntent,
    );
    expect(await deployed.getFunction('ACROSS_SWAP_INTENT_WITNESS_TYPE')()).toBe(
      PERMIT2_WITNESS_TYPE_STRINGS.AcrossSwapIntent,
    );
  });

  it('100 USDC and 0 ETH on base become at least amountOutMin of WETH on arbitrum from one AcrossSwapIntent; a changed venue or outputAmount is refused', async () => {
    const amount = parseUnits('100', 6);
    const wallet = await zeroEthWallet(amount);
    const fees = await quote(amount, router());
    const amountOutMin = ((await wethFor(BigInt(fees.outputAmount))) * 99n) / 100n;
    const permit = permitOf(amount);
    const td = acrossSwapIntentTypedData({
      ...permit2OnBase(),
      ...permit,
      intent: { ...acrossTerms(fees), ...wethOnArbitrum(wallet, amountOutMin, inAnHour()) },
    });
    const signature = await sign(wallet, td);
    const call = encodeSponsoredCall(td, wallet.address, signature);
    expect(call.to).toBe(router());

    // What the wallet signed, changed by the relayer: another SpokePool (venue) or a lower outputAmount.
    const witness = td.message.witness as Record<string, unknown>;
    const tampered = (change: Record<string, unknown>) => ({
      to: call.to,
      data: sponsoredRouterInterface.encodeFunctionData('acrossAndSwapWithIntent', [
        { permitted: { token: permit.token, amount }, nonce: permit.nonce, deadline: permit.deadline },
        wallet.address,
        { ...witness, ...change },
        signature,
      ]),
    });
    expect(await refusal(tampered({ venue: catalogOf('ethereum').across!.spokePool }))).toBe('InvalidSigner');
    expect(await refusal(tampered({ outputAmount: BigInt(fees.outputAmount) - 1n }))).toBe('InvalidSigner');

    const receipt = await relay(call);
    // The quotes' and the budget's figure for it is an upper bound.
    expect(receipt.gasUsed).toBeLessThan(SPONSORED_EVM_GAS.acrossSwapIntent);
    const deposited = routerEventsIn(receipt).find((event) => event.name === 'AcrossDepositWithIntent');
    expect(deposited?.args.toArray()).toEqual([
      wallet.address,
      fees.spokePoolAddress,
      BigInt(CHAIN_IDS.arbitrum),
      amount,
      permit.nonce,
      relayer('base').address,
    ]);
    expect(await balanceOf('base', usdcOf('base'), wallet.address)).toBe(0n);
    expect(await balanceOf('base', usdcOf('base'), router())).toBe(0n);
    await expectSwappedOnArbitrum(wallet, BigInt(fees.outputAmount), amountOutMin);
  }, 90_000);

  it('an AcrossSwapIntent with an integrator fee: the fee is paid on base first, the SpokePool gets the rest, the fill still swaps on arbitrum; a relayer that changes the fee is refused', async () => {
    const amount = parseUnits('100', 6);
    const fee = { recipient: Wallet.createRandom().address, amount: parseUnits('0.4', 6) };
    const wallet = await zeroEthWallet(amount + fee.amount);
    // Quoted for what the fee leaves, as the gateway quotes a route with an integrator fee.
    const fees = await quote(amount, router());
    const amountOutMin = ((await wethFor(BigInt(fees.outputAmount))) * 99n) / 100n;
    const swap = wethOnArbitrum(wallet, amountOutMin, inAnHour());
    const td = acrossSwapIntentTypedData({
      ...permit2OnBase(),
      ...permitOf(amount + fee.amount),
      intent: { ...acrossTerms(fees), ...swap, integratorFees: [fee] },
    });
    const deposit = await relayWithFee('acrossAndSwapWithIntent', td, wallet, fee, amount);
    // It carries the swap to arbitrum's router.
    expect(deposit?.args.recipient).toBe(bytes32(swap.destinationRouter));
    expect(deposit?.args.outputAmount).toBe(BigInt(fees.outputAmount));
    expect(deposit?.args.message).toBe(
      encodeAcrossSwapMessage({
        owner: wallet.address,
        venue: swap.destinationVenue,
        path: encodeUniswapV3Path(swap.path, swap.fees),
        amountOutMin,
        recipient: wallet.address,
        unwrapNative: false,
        deadline: swap.deadline,
      }),
    );
    await expectSwappedOnArbitrum(wallet, BigInt(fees.outputAmount), amountOutMin);
  }, 90_000);

  it('100 USDC and 0 ETH on base become outputAmount of USDC on arbitrum from one AcrossIntent, the wallet as depositor; the signed integrator fee is paid on base first, and a relayer that changes it is refused', async () => {
    const amount = parseUnits('100', 6);
    const fee = { recipient: Wallet.createRandom().address, amount: parseUnits('0.35', 6) };
    const wallet = await zeroEthWallet(amount + fee.amount);
    const fees = await quote(amount, wallet.address);
    const td = acrossIntentTypedData({
      ...permit2OnBase(),
      ...permitOf(amount + fee.amount),
      intent: {
        ...acrossTerms(fees),
        recipient: wallet.address,
        deadline: inAnHour(),
        integratorFees: [fee],
      },
    });
    const deposit = await relayWithFee('acrossWithIntent', td, wallet, fee, amount);
    expect(deposit?.args.message).toBe('0x');
    const usdc = await waitFor(
      () => balanceOf('arbitrum', usdcOf('arbitrum'), wallet.address),
      BigInt(fees.outputAmount),
    );
    expect(usdc).toBe(BigInt(fees.outputAmount));
    expect(await base.getBalance(wallet.address)).toBe(0n);
    expect(await arbitrum.getBalance(wallet.address)).toBe(0n);
  }, 60_000);

  it('handleV3AcrossMessage spends only what was paid in: unpaid it reverts; paid, it swaps (native out) or pays the bridged USDC when expired or below the minimum', async () => {
    const payer = devnetWallet(DEVNET_MNEMONIC, 5, arbitrum);
    const usdc = new Contract(usdcOf('arbitrum'), ERC20_ABI, payer);
    const amount = parseUnits('10', 6);
    const message = (
      recipient: string,
      change: { amountOutMin?: bigint; unwrapNative?: boolean; deadline?: bigint },
    ) =>
      encodeAcrossSwapMessage({
        owner: payer.address,
        venue: catalogOf('arbitrum').uniswapV3!.swapRouter02,
        path: encodeUniswapV3Path([usdcOf('arbitrum'), wethOf('arbitrum')], [500]),
        amountOutMin: change.amountOutMin ?? 1n,
        recipient,
        unwrapNative: change.unwrapNative ?? false,
        deadline: change.deadline ?? inAnHour(),
      });
    const handle = (recipient: string, change: Parameters<typeof message>[1]) => ({
      to: router(),
      data: new Interface(SWAP_GATEWAY_ROUTER_ABI).encodeFunctionData('handleV3AcrossMessage', [
        usdcOf('arbitrum'),
        amount,
        payer.address,
        message(recipient, change),
      ]),
    });

    // Nothing paid in: as onBridgeRelease, the handler has nothing of the caller's to spend.
    const unpaid = Wallet.createRandom().address;
    expect(await refusal(handle(unpaid, {}), 'arbitrum')).toBe('ReleaseNotFunded');

    const cases = [
      { change: { unwrapNative: true }, outcome: OUTCOME.swapped },
      {
        change: { deadline: BigInt((await arbitrum.getBlock('latest'))!.timestamp - 1) },
        outcome: OUTCOME.expired,
      },
      { change: { amountOutMin: (await wethFor(amount)) * 2n }, outcome: OUTCOME.swapFailed },
    ];
    for (const { change, outcome } of cases) {
      const recipient = Wallet.createRandom().address;
      await (await usdc.getFunction('transfer')(router(), amount)).wait();
      const call = handle(recipient, change);
      const receipt = await (await payer.sendTransaction({ ...call, gasLimit: 2_000_000 })).wait();
      expect(receipt?.status).toBe(1);
      const [settlement] = await settlements(recipient);
      expect(settlement.outcome).toBe(outcome);
      if (outcome === OUTCOME.swapped) {
        expect(settlement.tokenOut).toBe('0x0000000000000000000000000000000000000000');
        expect(await arbitrum.getBalance(recipient)).toBe(settlement.amountOut);
        expect(settlement.amountOut).toBeGreaterThan(0n);
      } else {
        expect(await balanceOf('arbitrum', usdcOf('arbitrum'), recipient)).toBe(amount);
      }
      expect(await balanceOf('arbitrum', usdcOf('arbitrum'), router())).toBe(0n);
    }
  }, 60_000);
});
